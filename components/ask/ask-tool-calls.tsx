import type { AskToolCall } from "../api/ask-types";
import { TOOL_LABEL, formatDuration } from "./ask-format";

const SHOWN = 8;

/** Every tool call in order, its arguments, and what it returned (structured, and the raw text). */
export function AskToolCalls({ calls }: { calls: AskToolCall[] }) {
  if (calls.length === 0) return <p className="muted small">No tool was called.</p>;
  return (
    <ol className="tool-calls" data-testid="ask-tool-calls">
      {calls.map((call) => (
        <li key={call.n} className="tool-call" data-testid="tool-call" data-tool={call.tool}>
          <div className="tool-call__head">
            <span className="tool-call__n">{call.n}</span>
            <span className={`tool-call__tool tool-call__tool--${call.tool}`}>{TOOL_LABEL[call.tool]}</span>
            <code className="tool-call__input">
              {call.tool === "web_search" ? JSON.stringify(call.input.query ?? "") : `${call.input.head ?? "?"}, ${call.input.relation ?? "?"}`}
            </code>
            {call.planStep ? <span className="badge badge--quiet">{call.planStep}</span> : null}
            <span className="muted small tool-call__ms">{formatDuration(call.ms)}</span>
          </div>
          <ToolResult call={call} />
          <details className="tool-call__raw">
            <summary className="small">What the tool returned</summary>
            <pre className="code-block">{call.output || "(empty)"}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

function ToolResult({ call }: { call: AskToolCall }) {
  if (call.error) return <p className="tool-call__error small">{call.error}</p>;
  if (call.tool === "relation_search") {
    const relations = call.relations ?? [];
    if (relations.length === 0) return <p className="muted small">No relation fits.</p>;
    return (
      <ul className="chips tool-call__chips">
        {relations.slice(0, SHOWN).map((r) => (
          <li key={r.relation} className="chip">
            <span className="chip__label mono">{r.relation}</span>
            <span className="chip__meta">{r.score.toFixed(2)}</span>
          </li>
        ))}
        {relations.length > SHOWN ? <li className="muted small">… {relations.length - SHOWN} more</li> : null}
      </ul>
    );
  }
  if (call.tool === "neighbor_search") {
    const entities = call.entities ?? [];
    if (entities.length === 0) return <p className="muted small">No neighbour through this relation.</p>;
    return (
      <p className="small tool-call__entities">
        {entities.length === 1 ? "1 entity: " : `${entities.length} entities: `}
        {entities.slice(0, SHOWN).map((e) => e.label).join(", ")}
        {entities.length > SHOWN ? <span className="muted">, … {entities.length - SHOWN} more</span> : null}
      </p>
    );
  }
  const passages = call.passages ?? [];
  if (passages.length === 0) return <p className="muted small">No passage of the corpus matches.</p>;
  return (
    <ul className="passage-quotes">
      {passages.slice(0, 3).map((p) => (
        <li key={`${p.origin}:${p.docId}`}>
          <PassageQuote passage={p} />
        </li>
      ))}
    </ul>
  );
}

export function PassageQuote({ passage }: { passage: NonNullable<AskToolCall["passages"]>[number] }) {
  return (
    <blockquote className="passage-quote" data-testid="ask-passage" data-doc={passage.docId}>
      <p>{passage.quote}</p>
      <footer className="small muted">
        <span className="mono">[{passage.docId}]</span>
        {passage.title ? ` ${passage.title}` : null}
        {passage.origin === "web" && passage.url ? (
          <>
            {" · "}
            <a href={passage.url} rel="noreferrer noopener" target="_blank">
              web
            </a>
          </>
        ) : null}
        {" · score "}
        {passage.score.toFixed(2)}
      </footer>
    </blockquote>
  );
}
