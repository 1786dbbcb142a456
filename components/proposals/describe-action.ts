import type { ActionReview } from "../api/proposal-types";
import type { RefinementAction } from "../api/run-types";

type Resolved = ActionReview["resolved"][keyof ActionReview["resolved"]];

export const ACTION_TYPE_LABEL: Record<RefinementAction["type"], string> = {
  insert_edge: "add link",
  delete_edge: "remove link",
  replace_node: "rename / merge",
};

function nameNote(role: string, resolved: Resolved, willCreate: boolean): string | null {
  if (!resolved) return null;
  const quoted = JSON.stringify(resolved.name);
  if (resolved.status === "exact") {
    const node = resolved.candidates.find((c) => c.id === resolved.nodeId) ?? resolved.candidates[0];
    return `${role} ${quoted} is the existing node ${node ? node.qualified : (resolved.nodeId ?? "")}.`;
  }
  if (resolved.status === "ambiguous") return `${role} ${quoted} matches ${resolved.candidates.length} nodes equally: pick one of the suggestions or edit the name.`;
  return willCreate ? `${role} ${quoted} is not in the graph: approving creates it as a new node.` : `${role} ${quoted} names no node in the graph.`;
}

/** What approving does, in one sentence, and how each name maps onto the graph. */
export function describeAction(action: RefinementAction, review: ActionReview | null): { headline: string; notes: string[] } {
  const r = review?.resolved ?? {};
  if (action.type === "replace_node") {
    const isMerge = r.new?.status === "exact";
    const headline = isMerge
      ? `Merge ${JSON.stringify(action.old)} into the existing node ${JSON.stringify(action.new)}: its links move over and ${JSON.stringify(action.old)} disappears.`
      : `Rename ${JSON.stringify(action.old)} to ${JSON.stringify(action.new)}; the old name stays as an alias.`;
    return { headline, notes: [nameNote("Old name", r.old, false), isMerge ? nameNote("New name", r.new, false) : null].filter((n): n is string => n !== null) };
  }
  const link = `${JSON.stringify(action.relation)} link from ${JSON.stringify(action.subject)} to ${JSON.stringify(action.object)}`;
  const isInsert = action.type === "insert_edge";
  return {
    headline: isInsert ? `Add a ${link}.` : `Remove the ${link}.`,
    notes: [nameNote("Subject", r.subject, isInsert), nameNote("Object", r.object, isInsert)].filter((n): n is string => n !== null),
  };
}
