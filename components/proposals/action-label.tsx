import type { RefinementAction } from "../api/run-types";
import { ACTION_TYPE_LABEL } from "./describe-action";

/** The action's arguments as chips: names from the graph render as text, whatever they contain. */
export function ActionLabel({ action }: { action: RefinementAction }) {
  return (
    <span className="action-label">
      <span className={`action__type action__type--${action.type}`} title={action.type}>
        {ACTION_TYPE_LABEL[action.type]}
      </span>
      {action.type === "replace_node" ? (
        <span className="action__args">
          <span className="action__name" data-testid="action-name">
            {action.old}
          </span>
          <span className="action__arrow" aria-label="becomes">
            →
          </span>
          <span className="action__name" data-testid="action-name">
            {action.new}
          </span>
        </span>
      ) : (
        <span className="action__args">
          <span className="action__name" data-testid="action-name">
            {action.subject}
          </span>
          <span className="triple__relation">{action.relation}</span>
          <span className="action__name" data-testid="action-name">
            {action.object}
          </span>
        </span>
      )}
    </span>
  );
}
