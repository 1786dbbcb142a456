import type { GraphDiff } from "../api/proposal-types";

type Edge = GraphDiff["addedEdges"][number];

function EdgeText({ edge }: { edge: Edge }) {
  return (
    <>
      <span className="action__name">{edge.subject}</span> <span className="triple__relation">{edge.relation}</span>{" "}
      <span className="action__name">{edge.object}</span>
    </>
  );
}

export function isEmptyDiff(diff: GraphDiff): boolean {
  return Object.values(diff).every((list) => Array.isArray(list) && list.length === 0);
}

/** The diff as text, grouped the way a reviewer asks: what appears, what goes, what is merged or changed. */
export function DiffList({ diff, testId = "diff-list" }: { diff: GraphDiff; testId?: string }) {
  if (isEmptyDiff(diff)) {
    return (
      <p className="muted small" data-testid={testId}>
        No difference: the graph already says this (the action is skipped when applied).
      </p>
    );
  }
  const groups = [
    { key: "added-nodes", title: "New nodes", tone: "added", items: diff.addedNodes.map((n) => <span key={n.id} className="action__name">{n.label}</span>) },
    { key: "added-edges", title: "New links", tone: "added", items: diff.addedEdges.map((e) => <EdgeText key={e.key} edge={e} />) },
    { key: "removed-edges", title: "Removed links", tone: "removed", items: diff.removedEdges.map((e) => <EdgeText key={e.key} edge={e} />) },
    { key: "removed-nodes", title: "Removed nodes", tone: "removed", items: diff.removedNodes.map((n) => <span key={n.id} className="action__name">{n.label}</span>) },
    {
      key: "merged",
      title: "Merged nodes",
      tone: "merged",
      items: diff.mergedNodes.map((m) => (
        <span key={m.from.id}>
          <span className="action__name">{m.from.label}</span> merged into <span className="action__name">{m.into.label}</span>
        </span>
      )),
    },
    {
      key: "changed-nodes",
      title: "Changed nodes",
      tone: "changed",
      items: diff.changedNodes.map((c) => (
        <span key={c.after.id}>
          {c.before.label !== c.after.label ? (
            <>
              <span className="action__name">{c.before.label}</span> → <span className="action__name">{c.after.label}</span>
            </>
          ) : (
            <span className="action__name">{c.after.label}</span>
          )}{" "}
          <span className="muted small">({c.fields.join(", ")})</span>
        </span>
      )),
    },
    {
      key: "changed-edges",
      title: "Rewired links",
      tone: "changed",
      items: diff.changedEdges.map((c) => (
        <span key={c.after.key}>
          <EdgeText edge={c.before} /> <span aria-label="becomes">⇒</span> <EdgeText edge={c.after} />
        </span>
      )),
    },
  ].filter((g) => g.items.length > 0);
  return (
    <div className="diff-list" data-testid={testId}>
      {groups.map((g) => (
        <section key={g.key} className={`diff-list__group diff-list__group--${g.tone}`} data-testid={`diff-${g.key}`}>
          <h4 className="diff-list__title">
            {g.title} <span className="count">{g.items.length}</span>
          </h4>
          <ul>
            {g.items.map((item, i) => (
              <li key={i}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
