import type { Suggestion } from "../api/proposal-types";
import { Spinner } from "../ui/states";

interface SuggestionListProps {
  suggestions: Suggestion[];
  /** Replaces the action with this one; the server reviews it again at once. */
  onTake: (suggestion: Suggestion) => void;
  isBusy: boolean;
  isEditable: boolean;
}

export function SuggestionList({ suggestions, onTake, isBusy, isEditable }: SuggestionListProps) {
  if (suggestions.length === 0) return null;
  return (
    <ol className="suggestions" data-testid="suggestions">
      {suggestions.map((s) => (
        <li key={s.text} className="suggestion">
          <div className="suggestion__main">
            <code className="suggestion__text">{s.text}</code>
            <span className="muted small">{s.reason}</span>
          </div>
          <span className="suggestion__score" title="How strongly the review ranks this replacement (0 to 1)">
            {s.score.toFixed(2)}
          </span>
          {isEditable ? (
            <button type="button" className="button button--small" disabled={isBusy} onClick={() => onTake(s)} data-testid="take-suggestion">
              {isBusy ? <Spinner size={12} /> : null}
              Use this
            </button>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
