import { can } from "@/lib/auth/permissions";
import { auditPageQuery } from "@/lib/audit/audit-query";
import { findAuditEvents } from "@/lib/server/audit/find-audit-events";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * A page of the audit log, newest first. Everyone who may read may read it: the log is the
 * team's shared record of who decided what. IP addresses are for administrators only.
 */
export async function GET(request: Request) {
  return respond(async () => {
    const actor = await requireActor(request, "read");
    const query = auditPageQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
    return findAuditEvents({ ...query, includeIp: can(actor, "admin") });
  });
}
