import { z } from "zod";
import { tokenScopeSchema } from "@/lib/server/auth/api-token-fields";
import { createApiToken } from "@/lib/server/auth/create-api-token";
import { findApiTokens } from "@/lib/server/auth/find-api-tokens";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireSessionUser } from "../_lib/auth";
import { readJson } from "../_lib/read-json";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const createBody = z.object({
  name: z.string().trim().min(1, "name the token (what will use it?)").max(100),
  scope: tokenScopeSchema,
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});

/** Your API tokens (an admin sees everyone's); never the secrets. */
export async function GET(request: Request) {
  return respond(async () => findApiTokens({ actor: await requireSessionUser(request, "read") }));
}

/** Create a token; the answer holds its secret, shown this once. */
export async function POST(request: Request) {
  return respond(
    async () => {
      const actor = await requireSessionUser(request, "read");
      const input = createBody.parse(await readJson(request));
      return createApiToken({ actor, ...input, ip: clientIp(request) });
    },
    { status: 201 },
  );
}
