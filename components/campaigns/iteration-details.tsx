import type { CampaignIteration } from "./campaign-api";

function opText(op: CampaignIteration["changeset"]["ops"][number]): string {
  switch (op.op) {
    case "add_node":
      return `+ node ${op.node.id} "${op.node.label}"`;
    case "remove_node":
      return `− node ${op.node.id}`;
    case "update_node":
      return `~ node ${op.before.id}: "${op.before.label}" → "${op.after.label}"`;
    case "add_edge":
      return `+ edge ${op.edge.source} --${op.edge.relation}--> ${op.edge.target}`;
    case "remove_edge":
      return `− edge ${op.edge.source} --${op.edge.relation}--> ${op.edge.target}`;
    case "update_edge":
      return `~ edge ${op.before.source} --${op.before.relation}--> ${op.before.target} ⇒ ${op.after.source} --${op.after.relation}--> ${op.after.target}`;
  }
}

/** One iteration: its decision and reasons, sub-scores, what entered the sandbox, what was held back, the devil's advocate and the sandbox diff. */
export function IterationDetails({ iteration: it }: { iteration: CampaignIteration }) {
  const s = it.score.sub;
  const standing = new Set(it.da.guard.standing.map((f) => `${f.id}|${f.round}`));
  return (
    <div className="stack campaign-iteration" data-testid="campaign-iteration" data-iter={it.iter} data-decision={it.decision}>
      <h3 className="card__title">
        Iteration {it.iter}: {it.decision} · {it.score.overall.toFixed(1)} {it.score.band}
        {it.iter > 0 ? ` (${it.delta >= 0 ? "+" : ""}${it.delta.toFixed(1)})` : ""}
      </h3>
      <ul className="small">
        {it.reasons.map((r, i) => (
          <li key={i}>{r}</li>
        ))}
      </ul>
      <table className="table campaign-subscores">
        <thead>
          <tr>
            <th>answerability</th>
            <th>accuracy</th>
            <th>efficiency</th>
            <th>hygiene</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{s.answerability}</td>
            <td>{s.accuracy ?? "– (no gold answers)"}</td>
            <td>{s.efficiency}</td>
            <td>{s.hygiene}</td>
          </tr>
        </tbody>
      </table>
      {it.actions.length > 0 ? (
        <section>
          <h4>Entered the sandbox ({it.actions.length})</h4>
          <ul className="campaign-actions">
            {it.actions.map((a) => (
              <li key={a.text}>
                <code>{a.text}</code> <span className={`badge badge--${a.confidence.toLowerCase()}`}>{a.confidence}</span> <span className="muted small">{a.evidence}: {a.why}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {it.heldBack.length > 0 ? (
        <section>
          <h4>Held back ({it.heldBack.length})</h4>
          <ul className="campaign-actions">
            {it.heldBack.map((a) => (
              <li key={a.text}>
                <code>{a.text}</code> <span className="muted small">{a.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {it.da.findings.some((f) => !f.withdrawn) ? (
        <section>
          <h4>Devil&apos;s advocate</h4>
          <ul className="campaign-actions">
            {it.da.findings
              .filter((f) => !f.withdrawn)
              .map((f) => (
                <li key={f.id}>
                  <span className={`badge ${f.severity === "CRITICAL" ? "badge--low" : "badge--quiet"}`}>{f.severity}</span> <code>{f.id}</code>: {f.challenge} — rebuttal {f.rebuttalScore}/5 ({f.rebuttal}){" "}
                  <strong>{standing.has(`${f.id}|${f.round}`) ? "stands" : "conceded"}</strong>
                </li>
              ))}
          </ul>
        </section>
      ) : null}
      {it.changeset.ops.length > 0 ? (
        <details>
          <summary>Sandbox diff ({it.changeset.ops.length} operations)</summary>
          <pre className="campaign-diff">{it.changeset.ops.map(opText).join("\n")}</pre>
        </details>
      ) : null}
      {it.memory.focusOn.length > 0 || it.memory.doNotRepropose.length > 0 ? (
        <details>
          <summary>Critique memory</summary>
          <p className="small">Focus on: {it.memory.focusOn.join(", ") || "–"}</p>
          <p className="small">Not proposed again: {it.memory.doNotRepropose.length}</p>
        </details>
      ) : null}
    </div>
  );
}
