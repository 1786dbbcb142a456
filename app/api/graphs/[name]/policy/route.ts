import { getApprovalPolicy, updateApprovalPolicy } from "@/lib/server/policies/policies";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { policiesContract } from "@/lib/server/policies/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The graph's approval policy (the defaults when none was saved). */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = (await parseRequest(request, policiesContract.getApprovalPolicy, ctx)).params;
    return getApprovalPolicy({ graph: name });
  });
}

/** Replace the policy (admins only; audited with before and after). */
export async function PUT(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { params, body: policy } = await parseRequest(request, policiesContract.updateApprovalPolicy, ctx);
    const { name } = params;
    return updateApprovalPolicy({ graph: name, actor, policy });
  });
}
