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
          // A relation of h that does not fit r at all is listed (the seed lists h's top 15) but dimmed.
          <li key={r.relation} className={r.score > 0 ? "chip" : "chip chip--dim"} title={r.score > 0 ? `relevance ${r.score.toFixed(2)}` : "does not match the relation asked for"}>
            <span className="chip__label mono">{r.relation}</span>
            {r.score > 0 ? <span className="chip__meta">{r.score.toFixed(2)}</span> : null}
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
  // The quotes themselves are in the Corpus passages section: here only which documents matched.
  return (
    <p className="small tool-call__entities">
      {passages.length === 1 ? "1 passage: " : `${passages.length} passages: `}
      {passages.map((p, i) => (
        <span key={`${p.origin}:${p.docId}`}>
          {i > 0 ? ", " : null}
          <span className="mono">[{p.docId}]</span>
        </span>
      ))}
      <span className="muted"> (quoted below)</span>
    </p>
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
