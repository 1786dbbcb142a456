import Link from "next/link";
import type { EvidenceItem, ScoreSignal } from "@/lib/review/types";
import { HighlightText } from "./highlight-text";
import { repeatsSignal } from "./repeats-signal";
import { formatContribution } from "./score-tag";
import { sourceHref, sourceText } from "./source-href";

const SIGNAL_LABEL: Record<ScoreSignal["kind"], string> = {
  text: "text",
  rule: "rule",
  signature: "signature",
  functional: "functional",
  disjoint: "disjoint",
  code: "code",
  graph: "graph",
  name: "name",
  llm: "LLM check",
  warning: "warning",
};

function SignalEvidence({ graph, item, signalSummary }: { graph: string; item: EvidenceItem; signalSummary: string }) {
  const href = sourceHref(graph, item);
  const summary = item.summary && !repeatsSignal(item.summary, signalSummary) ? item.summary : null;
  if (!item.quote && !summary && !href) return null;
  return (
    <div className="signal__evidence">
      {item.quote ? (
        <blockquote className={item.kind === "code" ? "evidence__quote evidence__quote--code" : "evidence__quote"}>
          <HighlightText text={item.quote} terms={item.highlights ?? []} />
        </blockquote>
      ) : summary ? (
        <span className="muted">{summary}</span>
      ) : null}
      {href ? (
        <Link className="evidence__source mono" href={href} target="_blank" prefetch={false}>
          {sourceText(item)}
        </Link>
      ) : null}
    </div>
  );
}

/**
 * Why the score is what it is: each signal with its signed contribution, strongest first, and
 * the evidence it rests on (the quote or path the review found, with its source).
 */
export function SignalList({ graph, signals, evidence }: { graph: string; signals: ScoreSignal[] | undefined; evidence: EvidenceItem[] }) {
  if (!signals || signals.length === 0) {
    return <p className="muted small" data-testid="signals-none">No score signals: this action was reviewed before scores existed. Editing it reviews it again.</p>;
  }
  const ordered = [...signals].sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution));
  return (
    <ul className="signals" data-testid="signals">
      {ordered.map((s, i) => {
        const item = s.evidence !== undefined ? evidence[s.evidence] : undefined;
        const tone = s.contribution > 0 ? "pos" : s.contribution < 0 ? "neg" : "zero";
        return (
          <li key={i} className={`signal signal--${tone}`} data-testid="signal" data-kind={s.kind}>
            <span className="signal__contribution mono">{formatContribution(s.contribution)}</span>
            <span className="signal__kind">{SIGNAL_LABEL[s.kind]}</span>
            <div className="signal__body">
              <span className="signal__summary">
                {s.summary}
                {s.strong && s.contribution < 0 ? (
                  <span className="signal__positive signal__positive--against" title="Strong evidence against: it keeps the action from HIGH whatever else speaks for it">
                    strong evidence against
                  </span>
                ) : s.contribution <= 0 ? null : s.strong ? (
                  <span className="signal__positive" title="States or strongly predicts the fact: what HIGH needs">
                    strong evidence
                  </span>
                ) : s.positive ? (
                  <span className="signal__positive signal__positive--partial" title="Evidence for the action: without any, it stays LOW whatever the score">
                    evidence for
                  </span>
                ) : (
                  <span
                    className="signal__positive signal__positive--none"
                    data-testid="signal-not-evidence"
                    title="Weighs in the score but is not evidence for this fact (the kind of node, or a measured signal too weak): on its own it leaves the action LOW"
                  >
                    not evidence
                  </span>
                )}
              </span>
              {item ? <SignalEvidence graph={graph} item={item} signalSummary={s.summary} /> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
