import { createUser } from "@/lib/server/auth/create-user";
import { findUsers } from "@/lib/server/auth/find-users";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireActor, requireSessionUser } from "../_lib/auth";
import { respond } from "../_lib/respond";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

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
      const { body: input } = await parseRequest(request, authContract.createUser);
      return createUser({ actor, ...input, ip: clientIp(request) });
    },
    { status: 201 },
  );
}
