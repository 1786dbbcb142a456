import { approvalPolicySchema } from "@/lib/auth/approval-policy";
import { getApprovalPolicy, updateApprovalPolicy } from "@/lib/server/policies/policies";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The graph's approval policy (the defaults when none was saved). */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    return getApprovalPolicy({ graph: name });
  });
}

/** Replace the policy (admins only; audited with before and after). */
export async function PUT(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { name } = graphParams.parse(await ctx.params);
    const policy = approvalPolicySchema.parse(await readJson(request));
    return updateApprovalPolicy({ graph: name, actor, policy });
  });
}
