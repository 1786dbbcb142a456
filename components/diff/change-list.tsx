import type { ReactNode } from "react";
import type { DiffEdge, GraphDiff } from "../api/diff-types";

/** Sections longer than this start folded, so one huge list does not bury the rest. */
const OPEN_UP_TO = 25;

function Triple({ edge }: { edge: DiffEdge }) {
  return (
    <span className="change-list__triple">
      <span>{edge.subject}</span> <span className="change-list__relation">—{edge.relation}→</span> <span>{edge.object}</span>
    </span>
  );
}

function Section({ id, title, mark, items }: { id: string; title: string; mark: string; items: { key: string; body: ReactNode }[] }) {
  if (items.length === 0) return null;
  return (
    <details className={`change-list__section change-list__section--${mark}`} data-section={id} open={items.length <= OPEN_UP_TO}>
      <summary>
        <span className="change-list__mark" aria-hidden="true">
          {mark === "added" ? "+" : mark === "removed" ? "−" : "~"}
        </span>
        {title} <span className="muted">({items.length})</span>
      </summary>
      <ul>
        {items.map((item) => (
          <li key={item.key}>{item.body}</li>
        ))}
      </ul>
    </details>
  );
}

/** Every change as text: the accessible (and searchable) counterpart of the drawing. */
export function ChangeList({ diff }: { diff: GraphDiff }) {
  const sections = [
    {
      id: "added-nodes",
      title: "Nodes added",
      mark: "added",
      items: diff.addedNodes.map((n) => ({ key: n.id, body: <strong>{n.label}</strong> })),
    },
    {
      id: "removed-nodes",
      title: "Nodes removed",
      mark: "removed",
      items: diff.removedNodes.map((n) => ({ key: n.id, body: <strong>{n.label}</strong> })),
    },
    {
      id: "merged-nodes",
      title: "Nodes merged",
      mark: "removed",
      items: diff.mergedNodes.map((m) => ({
        key: m.from.id,
        body: (
          <>
            <strong>{m.from.label}</strong> <span className="muted">merged into</span> <strong>{m.into.label}</strong>
          </>
        ),
      })),
    },
    {
      id: "changed-nodes",
      title: "Nodes changed",
      mark: "changed",
      items: diff.changedNodes.map((c) => ({
        key: c.after.id,
        body: (
          <>
            <strong>{c.after.label}</strong>
            {c.before.label !== c.after.label ? <span className="muted"> (was {c.before.label})</span> : null}
            <span className="muted small"> · {c.fields.join(", ")}</span>
          </>
        ),
      })),
    },
    { id: "added-edges", title: "Edges added", mark: "added", items: diff.addedEdges.map((e) => ({ key: e.key, body: <Triple edge={e} /> })) },
    { id: "removed-edges", title: "Edges removed", mark: "removed", items: diff.removedEdges.map((e) => ({ key: e.key, body: <Triple edge={e} /> })) },
    {
      id: "changed-edges",
      title: "Edges rewired or relabelled",
      mark: "changed",
      items: diff.changedEdges.map((c) => ({
        key: c.after.key,
        body: (
          <>
            <Triple edge={c.after} /> <span className="muted small">was</span> <Triple edge={c.before} />
          </>
        ),
      })),
    },
  ];
  return (
    <div className="change-list" data-testid="change-list">
      {sections.map((s) => (
        <Section key={s.id} {...s} />
      ))}
    </div>
  );
}

export function countChanges(diff: GraphDiff): number {
  return (
    diff.addedNodes.length +
    diff.removedNodes.length +
    diff.mergedNodes.length +
    diff.changedNodes.length +
    diff.addedEdges.length +
    diff.removedEdges.length +
    diff.changedEdges.length
  );
}
