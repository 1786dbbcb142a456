import { can } from "@/lib/auth/permissions";
import { findAuditEvents } from "@/lib/server/audit/find-audit-events";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";
import { auditContract } from "@/lib/server/audit/contract";
import { parseRequest } from "../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * A page of the audit log, newest first. Everyone who may read may read it: the log is the
 * team's shared record of who decided what. IP addresses are for administrators only.
 */
export async function GET(request: Request) {
  return respond(async () => {
    const actor = await requireActor(request, "read");
    const { query } = await parseRequest(request, auditContract.findAuditEvents);
    return findAuditEvents({ ...query, includeIp: can(actor, "admin") });
  });
}
