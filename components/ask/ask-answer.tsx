import type { AskAnswer, AskDetails } from "../api/ask-types";
import { VIA_LABEL } from "./ask-format";

const SHOWN = 12;

/** The answers, best first, each with what states it (the chain's last triple, or the quote). */
export function AskAnswerList({ answers }: { answers: AskAnswer[] }) {
  return (
    <ol className="ask-answers" data-testid="ask-answers">
      {answers.slice(0, SHOWN).map((a, i) => (
        <li key={`${a.id ?? a.label}#${i}`} className="ask-answer" data-testid="ask-answer">
          <span className="ask-answer__label">{a.label}</span>
          <span className={`via via--${a.via}`}>{VIA_LABEL[a.via]}</span>
          <Evidence answer={a} />
        </li>
      ))}
      {answers.length > SHOWN ? <li className="muted small">… {answers.length - SHOWN} more</li> : null}
    </ol>
  );
}

function Evidence({ answer }: { answer: AskAnswer }) {
  const passage = answer.evidence?.passage;
  if (passage) {
    return (
      <span className="ask-answer__evidence small muted">
        <span className="mono">[{passage.docId}]</span> “{passage.quote}”
      </span>
    );
  }
  const chain = answer.evidence?.triples ?? [];
  if (chain.length === 0) return null;
  return (
    <span className="ask-answer__evidence small muted">
      {chain.map((t, i) => (
        <span key={i} className="ask-answer__triple">
          {t.subject} <span className="mono">--{t.relation}→</span> {t.object}
        </span>
      ))}
    </span>
  );
}

/** One sentence on why there is no answer, for the "no answer" and failed states. */
export function noAnswerText(ask: AskDetails): string {
  const trace = ask.trace;
  if (ask.status === "failed" || ask.status === "interrupted") return ask.error ?? "no message was recorded";
  if (!trace) return "The ask finished without a trace.";
  const corpus = trace.options.corpusFallback ? " and no passage of the corpus states it" : " (searching the corpus was off)";
  return `The graph has no chain of relations that answers this${corpus}.`;
}
