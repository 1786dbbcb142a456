import type { ReviewWarning } from "../api/proposal-types";
import { NodeName } from "./node-names";
import { WARNING_SENTENCE, asSentence, isBlockingWarning } from "./warning-text";

/** Each warning as a sentence, then the review's detail; the ones that force LOW say so. */
export function ReviewWarnings({ warnings }: { warnings: ReviewWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="review-warnings" data-testid="warnings">
      {warnings.map((w, i) => {
        const blocking = isBlockingWarning(w.code);
        return (
          <li key={i} className={blocking ? "review-warning review-warning--blocking" : "review-warning"} data-code={w.code} data-testid="warning">
            <span>
              <strong>{WARNING_SENTENCE[w.code]}</strong> {asSentence(w.message)}
              {blocking ? <span className="muted small"> This keeps it LOW.</span> : null}
            </span>
            {w.candidates && w.candidates.length > 0 ? (
              <span className="review-warning__candidates small">
                It could be:{" "}
                {w.candidates.slice(0, 6).map((c, j) => (
                  <span key={c.id}>
                    {j > 0 ? ", " : ""}
                    <NodeName written={c.qualified} id={c.id} />
                  </span>
                ))}
                {w.candidates.length > 6 ? ` and ${w.candidates.length - 6} more` : ""}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
