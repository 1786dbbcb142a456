import type { Confidence } from "../api/proposal-types";
import { CONFIDENCE_MEANING } from "./confidence";

/** Colour, shape and text all carry the label, so it reads without colour vision too. */
export function ConfidenceBadge({ confidence, count }: { confidence: Confidence; count?: number }) {
  return (
    <span className={`conf conf--${confidence}`} title={CONFIDENCE_MEANING[confidence]} data-testid="confidence" data-confidence={confidence}>
      <span className="conf__icon" aria-hidden="true" />
      {confidence}
      {count !== undefined ? <span className="conf__count">{count}</span> : null}
    </span>
  );
}
