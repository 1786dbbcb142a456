import type { AskSummary } from "../api/ask-types";
import { formatTimestamp } from "../runs/run-format";
import { AskStatusBadge } from "./ask-status-badge";

interface AskListProps {
  asks: AskSummary[];
  selectedId: string | null;
  hrefOf: (id: string) => string;
  onSelect?: (id: string) => void;
}

/** Earlier asks of the graph, newest first; each links to its result. */
export function AskList({ asks, selectedId, hrefOf, onSelect }: AskListProps) {
  return (
    <ol className="ask-list" data-testid="ask-list">
      {asks.map((a) => (
        <li key={a.id} className="ask-list__item" aria-current={a.id === selectedId ? "true" : undefined} data-testid="ask-row">
          <a
            href={hrefOf(a.id)}
            className="ask-list__link"
            onClick={
              onSelect
                ? (event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                    event.preventDefault();
                    onSelect(a.id);
                  }
                : undefined
            }
          >
            <span className="ask-list__question">{a.question}</span>
            <span className="ask-list__meta small">
              <AskStatusBadge status={a.status} />
              {a.answers.length > 0 ? (
                <span className="ask-list__answer">
                  {a.answers
                    .slice(0, 2)
                    .map((x) => x.label)
                    .join(", ")}
                  {a.answers.length > 2 ? ` +${a.answers.length - 2}` : ""}
                </span>
              ) : null}
              <time className="muted" dateTime={a.createdAt}>
                {formatTimestamp(a.createdAt)}
              </time>
              {a.proposalId ? <span className="badge badge--quiet" title="Asked again after a proposal was applied">after apply</span> : null}
            </span>
          </a>
        </li>
      ))}
    </ol>
  );
}
