import Link from "next/link";
import type { EvidenceItem } from "../api/proposal-types";
import { HighlightText } from "./highlight-text";
import { sourceHref, sourceText } from "./source-href";

const KIND_LABEL: Record<EvidenceItem["kind"], string> = {
  node: "node",
  edge: "existing link",
  path: "path",
  relation_usage: "relation use",
  retrieved: "run subgraph",
  text: "text",
  code: "code",
};

function PathChain({ path }: { path: NonNullable<EvidenceItem["path"]> }) {
  return (
    <span className="path-chain">
      {path.map((t, i) => (
        <span key={i} className="path-chain__hop">
          {i === 0 ? <span className="action__name">{t.subject}</span> : null}
          <span className="triple__relation">{t.relation}</span>
          <span className="action__name">{t.object}</span>
        </span>
      ))}
    </span>
  );
}

/** What the review read: quotes first (they are what a person can check), then graph facts. */
export function EvidenceList({ graph, evidence }: { graph: string; evidence: EvidenceItem[] }) {
  if (evidence.length === 0) return <p className="muted small">The review found no evidence either way.</p>;
  const ordered = [...evidence].sort((a, b) => Number(Boolean(b.quote)) - Number(Boolean(a.quote)));
  return (
    <ul className="evidence" data-testid="evidence">
      {ordered.map((item, i) => {
        const href = sourceHref(graph, item);
        return (
          <li key={i} className={`evidence__item evidence__item--${item.kind}`}>
            <span className="evidence__kind">{KIND_LABEL[item.kind]}</span>
            <div className="evidence__body">
              {item.quote ? (
                <blockquote className={item.kind === "code" ? "evidence__quote evidence__quote--code" : "evidence__quote"} data-testid="evidence-quote">
                  <HighlightText text={item.quote} terms={item.highlights ?? []} />
                </blockquote>
              ) : null}
              {item.path && item.path.length > 0 ? <PathChain path={item.path} /> : <span className="evidence__summary">{item.summary}</span>}
              {href ? (
                <Link className="evidence__source mono" href={href} target="_blank" prefetch={false} data-testid="evidence-source">
                  {sourceText(item)}
                </Link>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
