import { getSessionInfo } from "@/lib/server/auth/get-session-info";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Who am I: the account, role, permissions and CSRF token, or that nobody is signed in (and whether set-up is needed). Public. */
export async function GET(request: Request) {
  return respond(async () => getSessionInfo(request));
}
