import type { Actor } from "../../auth/permissions";
import { recordAudit } from "../audit";
import type { ImportReport } from "./import-graph";
import { wasAudited } from "./import-graph";
import { importAuditSummary } from "./write-graph";

/**
 * The audit line of a finished import. Imports given their `actor` write the event in their
 * own transaction (a kill mid-import leaves neither graph nor event); for those this adds
 * nothing. Older callers that import without an actor still get the event here, afterwards.
 */
export async function recordImport(actor: Actor, report: ImportReport): Promise<ImportReport> {
  if (wasAudited(report)) return report;
  const g = report.graph;
  await recordAudit(actor, {
    action: "graph.import",
    summary: importAuditSummary(g, report.format),
    graphName: g.name,
    targetType: "graph",
    targetId: g.name,
    details: { format: report.format, nodes: g.nodes, edges: g.edges, documents: g.documents },
  });
  return report;
}
