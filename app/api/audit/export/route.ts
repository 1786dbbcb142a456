import { can } from "@/lib/auth/permissions";
import { auditExportFileName, exportAuditEventsJsonl } from "@/lib/server/audit/export-audit-events";
import { requireActor } from "../../_lib/auth";
import { errorResponse } from "../../_lib/respond";
import { auditContract } from "@/lib/server/audit/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The audit log as a JSONL download (same filters as GET /api/audit), streamed batch by batch. */
export async function GET(request: Request) {
  try {
    const actor = await requireActor(request, "read");
    const { query: filter } = await parseRequest(request, auditContract.exportAuditEvents);
    return new Response(exportAuditEventsJsonl({ filter, includeIp: can(actor, "admin") }), {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${auditExportFileName()}"`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
