import { createApiToken } from "@/lib/server/auth/create-api-token";
import { findApiTokens } from "@/lib/server/auth/find-api-tokens";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireSessionUser } from "../_lib/auth";
import { respond } from "../_lib/respond";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Your API tokens (an admin sees everyone's); never the secrets. */
export async function GET(request: Request) {
  return respond(async () => findApiTokens({ actor: await requireSessionUser(request, "read") }));
}

/** Create a token; the answer holds its secret, shown this once. */
export async function POST(request: Request) {
  return respond(
    async () => {
      const actor = await requireSessionUser(request, "read");
      const { body: input } = await parseRequest(request, authContract.createApiToken);
      return createApiToken({ actor, ...input, ip: clientIp(request) });
    },
    { status: 201 },
  );
}
