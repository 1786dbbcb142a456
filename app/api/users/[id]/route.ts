import { z } from "zod";
import { displayNameSchema, passwordSchema, roleSchema } from "@/lib/server/auth/account-fields";
import { clientIp } from "@/lib/server/auth/request-info";
import { updateUser } from "@/lib/server/auth/update-user";
import { requireSessionUser } from "../../_lib/auth";
import { readJson } from "../../_lib/read-json";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ id: z.string().min(1).max(100) });
const body = z
  .object({ role: roleSchema, displayName: displayNameSchema, disabled: z.boolean(), password: passwordSchema })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, "give at least one of role, displayName, disabled, password");

/** Change an account (admin): role, display name, disabled, or reset its password. */
export async function PATCH(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireSessionUser(request, "admin");
    const { id } = params.parse(await ctx.params);
    const input = body.parse(await readJson(request));
    return updateUser({ actor, userId: id, ...input, ip: clientIp(request) });
  });
}
