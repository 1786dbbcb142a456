"use client";

import { useImportsInProgress } from "../api/import-graph";

/**
 * While an import of this page is pending: the server's progress lines for the imports running
 * now (rows written and the rate, then each index build and the commit), polled every second.
 * An upload shows from its first byte: the bytes received so far, then the import's own lines.
 */
export function ImportProgressLines({ active, name }: { active: boolean; name?: string }) {
  const { data, dataUpdatedAt } = useImportsInProgress(active);
  if (!active || !data || data.length === 0) return null;
  const mine = name ? data.filter((p) => p.name === null || p.name === name) : data;
  const shown = mine.length > 0 ? mine : data;
  return (
    <ul className="hint" role="status" aria-live="polite" data-testid="import-progress">
      {shown.map((p) => (
        <li key={p.id}>
          {p.name ? <strong>{p.name}: </strong> : null}
          {p.message} <span className="muted">({Math.max(0, Math.round((dataUpdatedAt - Date.parse(p.startedAt)) / 1000))} s)</span>
        </li>
      ))}
    </ul>
  );
}
