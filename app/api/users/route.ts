import { z } from "zod";
import { displayNameSchema, passwordSchema, roleSchema, usernameSchema } from "@/lib/server/auth/account-fields";
import { createUser } from "@/lib/server/auth/create-user";
import { findUsers } from "@/lib/server/auth/find-users";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireActor, requireSessionUser } from "../_lib/auth";
import { readJson } from "../_lib/read-json";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const createBody = z.object({ username: usernameSchema, displayName: displayNameSchema.optional(), password: passwordSchema, role: roleSchema });

/** Every account (admin). */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "admin");
    return findUsers();
  });
}

/** Create an account with a role and a first password (admin). */
export async function POST(request: Request) {
  return respond(
    async () => {
      const actor = await requireSessionUser(request, "admin");
      const input = createBody.parse(await readJson(request));
      return createUser({ actor, ...input, ip: clientIp(request) });
    },
    { status: 201 },
  );
}
