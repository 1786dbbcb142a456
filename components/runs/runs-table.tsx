import Link from "next/link";
import type { RunSummary } from "../api/run-types";
import { formatTimestamp, runDuration } from "./run-format";
import { ProviderNote, RunStatusBadge } from "./run-status-badge";

export function RunsTable({ runs }: { runs: RunSummary[] }) {
  return (
    <div className="card table-card">
      <table className="table runs-table" data-testid="runs-table">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Question</th>
            <th scope="col" className="num">Steps</th>
            <th scope="col" className="num">Actions</th>
            <th scope="col">Provider</th>
            <th scope="col">Started</th>
            <th scope="col" className="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-testid="run-row">
              <td>
                <RunStatusBadge run={run} />
              </td>
              <td className="table__name runs-table__question">
                <Link href={`/runs/${encodeURIComponent(run.id)}`}>{run.question}</Link>
                <span className="table__sub mono">
                  {run.queryId} · graph v{run.graphVersion}
                  {run.error ? ` · ${run.error}` : ""}
                </span>
              </td>
              <td className="num">{run.steps}</td>
              <td className="num">{run.earlyExit ? <span className="muted">—</span> : run.actions}</td>
              <td>
                <ProviderNote provider={run.provider} model={run.model} isLlm={run.isLlm} />
              </td>
              <td className="nowrap small">
                <time dateTime={run.createdAt}>{formatTimestamp(run.createdAt)}</time>
              </td>
              <td className="num nowrap">{runDuration(run) ?? <span className="muted">running…</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
