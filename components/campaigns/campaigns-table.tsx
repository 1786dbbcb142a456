import Link from "next/link";
import { EmptyState } from "../ui/states";
import type { CampaignSummary } from "./campaign-api";

export function CampaignsTable({ campaigns }: { campaigns: CampaignSummary[] }) {
  if (campaigns.length === 0) {
    return (
      <div data-testid="campaigns-empty">
        <EmptyState title="No campaigns yet">
          <p className="muted small">Start one above: pick a graph and its question set. Every campaign you start is listed here with its status and its score.</p>
        </EmptyState>
      </div>
    );
  }
  return (
    <table className="table" data-testid="campaigns-table">
      <thead>
        <tr>
          <th>started</th>
          <th>graph</th>
          <th>status</th>
          <th>questions</th>
          <th>iterations</th>
          <th>overall</th>
          <th>proposal</th>
        </tr>
      </thead>
      <tbody>
        {campaigns.map((c) => (
          <tr key={c.id} data-testid="campaign-list-row" data-status={c.status}>
            <td>
              <Link href={`/campaigns/${encodeURIComponent(c.id)}`}>{new Date(c.createdAt).toLocaleString()}</Link>
            </td>
            <td>{c.graph}</td>
            <td>
              {c.status}
              {c.haltedBecause ? ` (${c.haltedBecause.replace(/_/g, " ")})` : ""}
            </td>
            <td>{c.questions}</td>
            <td>{c.iterations}</td>
            <td>{c.overall?.toFixed(1) ?? "–"}</td>
            <td>{c.proposalId ? <Link href={`/proposals/${encodeURIComponent(c.proposalId)}`}>review</Link> : "–"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
