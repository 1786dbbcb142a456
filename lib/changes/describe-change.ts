/**
 * What a planned action does, as data (node ids and the labels they had when it was planned)
 * and as the sentence a person reads in the history, a preview or the CLI. The sentence names
 * nodes by label, with what tells two nodes of one label apart only where that happens (see
 * lib/graph/display-names.ts); the ids stay in the data for scripts (`--json`).
 */
import type { DisplayName } from "../graph/display-names";

export interface NodeRef {
  id: string;
  /** The label when the action was planned (a merged-away node is gone afterwards). */
  label: string;
}

export interface EdgeRef {
  source: NodeRef;
  relation: string;
  target: NodeRef;
}

export type ActionChange =
  | ({ kind: "add_edge"; created: NodeRef[] } & EdgeRef)
  | ({ kind: "edge_exists" } & EdgeRef)
  | ({ kind: "remove_edge" } & EdgeRef)
  /** Identical copies of one edge: the extras removed, the first kept (the fact stays). */
  | ({ kind: "remove_copies"; removed: number; copies: number; keptCites: string; removedCites: string[] } & EdgeRef)
  /** replace_node whose two names are one node: written names, no ids. */
  | { kind: "same_node"; old: string; new: string }
  | { kind: "merge"; from: NodeRef; into: NodeRef; rewired: number; dropped: number }
  | { kind: "rename"; node: NodeRef; to: string };

/** How a node is named in the sentence; the default is its label, quoted. */
export type NameOf = (ref: NodeRef) => string;

export function quoted(text: string): string {
  return `“${text}”`;
}

const byLabel: NameOf = (ref) => quoted(ref.label);

/** A display name (label, and what tells it apart) as it reads in a sentence: `“get” (client.py, line 212)`. */
export function nameInSentence(name: Pick<DisplayName, "label" | "secondary">): string {
  return name.secondary ? `${quoted(name.label)} (${name.secondary})` : quoted(name.label);
}

/** Names from display names by id; a node without one (gone, or new) reads as its label. */
export function nameFromDisplayNames(names: Iterable<DisplayName>): NameOf {
  const byId = new Map<string, DisplayName>();
  for (const n of names) byId.set(n.id, n);
  return (ref) => {
    const known = byId.get(ref.id);
    // A node renamed since keeps the name it had then; the hint is only for the same label.
    return known && known.label === ref.label ? nameInSentence(known) : quoted(ref.label);
  };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function edgeText(e: EdgeRef, nameOf: NameOf): string {
  return `${nameOf(e.source)} —${e.relation}→ ${nameOf(e.target)}`;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The sentence for one change. */
export function describeChange(change: ActionChange, nameOf: NameOf = byLabel): string {
  switch (change.kind) {
    case "add_edge": {
      const created = change.created.map(nameOf);
      const note = created.length === 0 ? "" : ` (${list(created)} ${created.length === 1 ? "is a new node" : "are new nodes"})`;
      return `Adds the edge ${edgeText(change, nameOf)}${note}.`;
    }
    case "edge_exists":
      return `No change: the edge ${edgeText(change, nameOf)} already exists.`;
    case "remove_edge":
      return `Removes the edge ${edgeText(change, nameOf)}.`;
    case "remove_copies": {
      const cites =
        change.removedCites.length > 0 ? ` The kept copy cites ${change.keptCites || "no source"}; the removed ones cited ${change.removedCites.join("; ")}.` : "";
      return `Removes ${change.removed} of ${change.copies} identical copies of the edge ${edgeText(change, nameOf)} and keeps one.${cites}`;
    }
    case "same_node":
      return `No change: ${quoted(change.old)} and ${quoted(change.new)} are the same node.`;
    case "merge": {
      const dropped = change.dropped > 0 ? `, ${plural(change.dropped, "edge")} dropped as duplicates or self-loops` : "";
      return `Merges ${nameOf(change.from)} into ${nameOf(change.into)} (${plural(change.rewired, "edge")} rewired${dropped}); ${quoted(change.from.label)} is kept as an alias.`;
    }
    case "rename":
      return `Renames ${nameOf(change.node)} to ${quoted(change.to)}; the old name is kept as an alias.`;
  }
}

/** The nodes a change names, for looking up their display names. */
export function nodeRefsOf(change: ActionChange): NodeRef[] {
  switch (change.kind) {
    case "add_edge":
      return [change.source, change.target, ...change.created];
    case "edge_exists":
    case "remove_edge":
    case "remove_copies":
      return [change.source, change.target];
    case "same_node":
      return [];
    case "merge":
      return [change.from, change.into];
    case "rename":
      return [change.node];
  }
}
