/**
 * Moot actions: an action the graph already agrees with, so applying it as written would change
 * nothing — the edge it inserts exists, the edge it deletes is gone, the node it replaces was
 * merged into the one it names. A pending action that a new version made moot (a copy of it
 * proposed by another run was applied, or someone else made the same change) is obsolete; the
 * server compares the graph before and after each commit (lib/server/proposals/obsolete-actions.ts).
 *
 * Names resolve with the resolver review and apply use (lib/review/resolve-action.ts); an
 * ambiguous name is never moot: a person must pick the node.
 */
import type { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import type { RefinementAction } from "../loop/types";
import type { NameResolver } from "../review/resolve-action";
import { createNameResolver, resolveActionNames } from "../review/resolve-action";
import type { ResolvedName } from "../review/types";
import type { Changeset } from "./changeset";
import { findTouchedItems } from "./touched-items";

function hasEdge(graph: KnowledgeGraph, source: string, target: string, relation: string): boolean {
  return graph.outEdges(source).some((e) => e.target === target && e.relation === relation);
}

function labelOf(graph: KnowledgeGraph, name: ResolvedName): string {
  return (name.nodeId ? graph.getNode(name.nodeId)?.label : null) ?? name.name.trim();
}

/** Why this action would change nothing on this graph, in words, or null when it still would (or cannot be planned). */
export function findMootReason(options: { graph: KnowledgeGraph; action: RefinementAction; resolve?: NameResolver }): string | null {
  const { graph, action } = options;
  const names = resolveActionNames({ graph, action, resolve: options.resolve ?? createNameResolver({ graph }) });
  if (action.type === "replace_node") {
    const old = names.old as ResolvedName;
    const into = names.new as ResolvedName;
    if (old.status === "ambiguous" || into.status === "ambiguous" || !into.nodeId) return null;
    if (old.nodeId === into.nodeId) return `${JSON.stringify(action.old)} and ${JSON.stringify(action.new)} are one node`;
    if (old.status === "not_found") return `${JSON.stringify(action.old)} is gone and ${JSON.stringify(labelOf(graph, into))} exists`;
    return null;
  }
  const s = names.subject as ResolvedName;
  const o = names.object as ResolvedName;
  const relation = action.relation.trim();
  if (s.status === "ambiguous" || o.status === "ambiguous") return null;
  if (action.type === "insert_edge") {
    if (!s.nodeId || !o.nodeId || !hasEdge(graph, s.nodeId, o.nodeId, relation)) return null;
    return `the edge ${labelOf(graph, s)} --${relation}--> ${labelOf(graph, o)} exists`;
  }
  for (const n of [s, o]) if (!n.nodeId) return `there is no node ${JSON.stringify(n.name.trim())} any more`;
  if (hasEdge(graph, s.nodeId as string, o.nodeId as string, relation)) return null;
  return `there is no edge ${labelOf(graph, s)} --${relation}--> ${labelOf(graph, o)} any more`;
}

function nameKeys(name: string): string[] {
  const trimmed = name.trim();
  const last = trimmed.includes("::") ? (trimmed.split("::").at(-1) ?? trimmed) : trimmed;
  return [...new Set([trimmed, last].flatMap((n) => [n, normalizeLabel(n), normalizeLabel(n.replace(/\(\)$/, ""))]))];
}

function aliasesIn(attrs: Record<string, unknown>): string[] {
  const value = attrs.aliases;
  return Array.isArray(value) ? value.filter((a): a is string => typeof a === "string") : [];
}

/**
 * The names a changeset could have changed the meaning of: ids, labels and aliases (as
 * written and normalised) of every node it touches — as they were (`before`, the graph it was
 * committed on) and as the changeset writes them (added and updated nodes). A name resolves
 * exactly only through a node's id, label or alias, so an action none of whose names is here
 * kept both its resolution and the edges between its nodes: its mootness did not change. Needs
 * no graph after the commit, so a big graph is loaded only when some action is concerned.
 */
export function findTouchedNames(options: { changeset: Changeset; before: KnowledgeGraph }): Set<string> {
  const keys = new Set<string>();
  const add = (texts: string[]) => {
    for (const text of texts) for (const k of nameKeys(text)) keys.add(k);
  };
  for (const id of findTouchedItems(options.changeset).nodes) {
    keys.add(id);
    const node = options.before.getNode(id);
    if (node) add([node.label, ...node.aliases]);
  }
  for (const op of options.changeset.ops) {
    if (op.op === "add_node" || op.op === "remove_node") add([op.node.label, ...aliasesIn(op.node.attrs)]);
    if (op.op === "update_node") add([op.before.label, op.after.label, ...aliasesIn(op.before.attrs), ...aliasesIn(op.after.attrs)]);
  }
  return keys;
}

/** Could the commit behind `touched` have changed whether this action is moot? */
export function isConcernedBy(action: RefinementAction, touched: ReadonlySet<string>): boolean {
  const names = action.type === "replace_node" ? [action.old, action.new] : [action.subject, action.object];
  return names.some((n) => nameKeys(n).some((k) => touched.has(k)));
}
