import type { ImportReport } from "../api/types";
import { Spinner } from "../ui/states";

/** What an import attempt came to: the server's own message on failure (it names file and line). */
export function ImportFeedback({ error, report }: { error: Error | null; report: ImportReport | undefined }) {
  if (error) {
    return (
      <div className="alert alert--error" role="alert" data-testid="import-error">
        <strong>Import failed</strong>
        <p className="alert__message">{error.message}</p>
      </div>
    );
  }
  if (report) {
    const { graph, corpus } = report;
    return (
      <div className="alert alert--success" role="status">
        <Spinner size={14} />
        <span>
          Imported <strong>{graph.name}</strong>: {graph.nodes} nodes, {graph.edges} edges
          {corpus.read > 0 ? `, ${corpus.read} source files` : ""}
          {corpus.missing.length > 0 ? ` (${corpus.missing.length} source files not found)` : ""}. Opening it…
        </span>
      </div>
    );
  }
  return null;
}
