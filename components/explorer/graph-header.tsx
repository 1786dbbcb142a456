import Link from "next/link";
import type { ReactNode } from "react";
import type { GraphSummary } from "../api/types";
import { formatImportedAt } from "../graphs/graph-table";
import { displayText } from "@/lib/text/display-text";
import { GraphTabs } from "./graph-tabs";

const numberFormat = new Intl.NumberFormat("en-US");

/** `actions`: the admin's rename / delete buttons (components/graphs/graph-admin-actions.tsx), beside the name. */
export function GraphHeader({ summary, actions }: { summary: GraphSummary; actions?: ReactNode }) {
  const stats = [
    { id: "nodes", label: "nodes", value: numberFormat.format(summary.nodes) },
    { id: "edges", label: "edges", value: numberFormat.format(summary.edges) },
    { id: "documents", label: "documents", value: numberFormat.format(summary.documents) },
    { id: "questions", label: "questions", value: numberFormat.format(summary.questions) },
  ];
  return (
    <div className="graph-header-area">
      <header className="graph-header">
        <div className="graph-header__title">
          <nav aria-label="Breadcrumb" className="breadcrumb">
            <Link href="/">Graphs</Link>
            <span aria-hidden="true">/</span>
          </nav>
          <h1>{displayText(summary.name)}</h1>
          <span className="badge">{summary.format}</span>
          <span className="badge badge--quiet">v{summary.version}</span>
          {actions}
        </div>
        <dl className="stats">
          {stats.map((s) => (
            <div key={s.id} className="stat">
              <dd data-testid={`stat-${s.id}`}>{s.value}</dd>
              <dt>{s.label}</dt>
            </div>
          ))}
          <div className="stat stat--meta">
            <dd>
              <time dateTime={summary.createdAt}>{formatImportedAt(summary.createdAt)}</time>
            </dd>
            <dt>imported</dt>
          </div>
        </dl>
      </header>
      <GraphTabs graphName={summary.name} />
    </div>
  );
}
