import type { Actor } from "../auth/permissions";
import { recordAudit } from "./audit";
import type { ImportReport } from "./import-graph";

/** The audit line of a finished import (the import itself commits in its own SQLite transaction). */
export async function recordImport(actor: Actor, report: ImportReport): Promise<ImportReport> {
  const g = report.graph;
  await recordAudit(actor, {
    action: "graph.import",
    summary: `imported ${g.name} (${report.format}: ${g.nodes} nodes, ${g.edges} edges, ${g.documents} documents)`,
    graphName: g.name,
    targetType: "graph",
    targetId: g.name,
    details: { format: report.format, nodes: g.nodes, edges: g.edges, documents: g.documents },
  });
  return report;
}
