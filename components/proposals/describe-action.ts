import type { ActionReview } from "../api/proposal-types";
import type { RefinementAction } from "../api/run-types";

type Resolved = ActionReview["resolved"][keyof ActionReview["resolved"]];

export const ACTION_TYPE_LABEL: Record<RefinementAction["type"], string> = {
  insert_edge: "add link",
  delete_edge: "remove link",
  replace_node: "rename / merge",
};

/** How a sentence names a node: its readable name (see node-names.tsx), or the name as written. */
export type NameOf = (written: string) => string;

const quoted: NameOf = (written) => JSON.stringify(written);

function nameNote(role: string, resolved: Resolved, willCreate: boolean, nameOf: NameOf): string | null {
  // An exact match needs no note: the chip shows the node's name, its id is in its details.
  if (!resolved || resolved.status === "exact") return null;
  const name = `"${resolved.name}"`;
  if (resolved.status === "ambiguous") return `${role} ${name} matches ${resolved.candidates.length} nodes equally: pick one of them or edit the name.`;
  return willCreate ? `${role} ${nameOf(resolved.name)} is not in the graph: approving creates it as a new node.` : `${role} ${name} names no node in the graph.`;
}

/** What approving does, in one sentence, and the names that do not map onto one node. */
export function describeAction(action: RefinementAction, review: ActionReview | null, nameOf: NameOf = quoted): { headline: string; notes: string[] } {
  const r = review?.resolved ?? {};
  if (action.type === "replace_node") {
    const isMerge = r.new?.status === "exact";
    const [from, to] = [nameOf(action.old), nameOf(action.new)];
    const headline = isMerge ? `Merge ${from} into ${to}: its links move over and ${from} disappears.` : `Rename ${from} to ${to}; the old name stays as an alias.`;
    return { headline, notes: [nameNote("Old name", r.old, false, nameOf), isMerge ? nameNote("New name", r.new, false, nameOf) : null].filter((n): n is string => n !== null) };
  }
  const link = `"${action.relation}" link from ${nameOf(action.subject)} to ${nameOf(action.object)}`;
  const isInsert = action.type === "insert_edge";
  return {
    headline: isInsert ? `Add a ${link}.` : `Remove the ${link}.`,
    notes: [nameNote("Subject", r.subject, isInsert, nameOf), nameNote("Object", r.object, isInsert, nameOf)].filter((n): n is string => n !== null),
  };
}
