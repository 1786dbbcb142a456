import type { RefinementAction } from "../api/run-types";
import { ACTION_TYPE_LABEL } from "./describe-action";
import { NodeName } from "./node-names";

/**
 * The action's arguments as chips: each name as the node's label (where it is from only when
 * another node has the same label; the id behind a details button). Names from the graph render
 * as text, whatever they contain.
 */
export function ActionLabel({ action, text }: { action: RefinementAction; text?: string }) {
  // An entry that did not parse is stored as an empty placeholder: show what was submitted.
  if (text !== undefined && action.type === "insert_edge" && !action.subject && !action.relation && !action.object) {
    return (
      <span className="action-label">
        <span className="action__type">does not parse</span> <code className="mono">{text}</code>
      </span>
    );
  }
  return (
    <span className="action-label">
      <span className={`action__type action__type--${action.type}`}>{ACTION_TYPE_LABEL[action.type]}</span>
      {action.type === "replace_node" ? (
        <span className="action__args">
          <NodeName written={action.old} />
          <span className="action__arrow" aria-label="becomes">
            →
          </span>
          <NodeName written={action.new} />
        </span>
      ) : (
        <span className="action__args">
          <NodeName written={action.subject} />
          <span className="triple__relation">{action.relation}</span>
          <NodeName written={action.object} />
        </span>
      )}
    </span>
  );
}
