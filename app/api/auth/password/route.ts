import { z } from "zod";
import { passwordSchema } from "@/lib/server/auth/account-fields";
import { changePassword } from "@/lib/server/auth/change-password";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireSessionUser } from "../../_lib/auth";
import { readJson } from "../../_lib/read-json";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const body = z.object({ currentPassword: z.string().max(1000), newPassword: passwordSchema });

/** Change your own password; your other sessions end. */
export async function POST(request: Request) {
  return respond(async () => {
    const actor = await requireSessionUser(request, "read");
    const input = body.parse(await readJson(request));
    await changePassword({ actor, ...input, ip: clientIp(request) });
    return { changed: true };
  });
}
