import type { ReviewWarning } from "../api/proposal-types";

/** Warnings that force LOW are said to; the informational ones are shown as such. */
const BLOCKING = new Set(["UNPARSEABLE", "UNKNOWN_ENTITY", "AMBIGUOUS_NAME", "GENERIC_NAME", "GENERIC_OBJECT", "CROSS_COMMUNITY_NO_PATH", "DELETE_MISSING", "SELF_LOOP"]);

export function ReviewWarnings({ warnings }: { warnings: ReviewWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="review-warnings" data-testid="warnings">
      {warnings.map((w, i) => (
        <li key={i} className={BLOCKING.has(w.code) ? "review-warning review-warning--blocking" : "review-warning"}>
          <span className="warning-code">{w.code}</span>
          <span>
            {w.message}
            {BLOCKING.has(w.code) ? <span className="muted small"> (forces LOW)</span> : null}
          </span>
          {w.candidates && w.candidates.length > 0 ? (
            <span className="review-warning__candidates small">
              Candidates:{" "}
              {w.candidates.slice(0, 6).map((c, j) => (
                <span key={c.id}>
                  {j > 0 ? ", " : ""}
                  <span className="mono">{c.qualified}</span>
                </span>
              ))}
              {w.candidates.length > 6 ? ` and ${w.candidates.length - 6} more` : ""}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
