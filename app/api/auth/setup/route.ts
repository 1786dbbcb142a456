import { z } from "zod";
import { createFirstAdmin } from "@/lib/server/auth/create-first-admin";
import { displayNameSchema, passwordSchema, usernameSchema } from "@/lib/server/auth/account-fields";
import { createSession } from "@/lib/server/auth/create-session";
import { clientIp, userAgentOf } from "@/lib/server/auth/request-info";
import { readJson } from "../../_lib/read-json";
import { checkSameOrigin, handle, sessionResponse } from "../_lib/session-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const body = z.object({ username: usernameSchema, displayName: displayNameSchema.optional(), password: passwordSchema });

/** First run only: create the admin account and sign it in. Refused (409) once any account exists. */
export async function POST(request: Request) {
  return handle(async () => {
    checkSameOrigin(request);
    const input = body.parse(await readJson(request));
    const ip = clientIp(request);
    const user = await createFirstAdmin({ ...input, ip });
    const session = await createSession({ userId: user.id, ip, userAgent: userAgentOf(request) });
    return sessionResponse(request, { user, csrfToken: session.csrfToken }, session, 201);
  });
}
