/**
 * Which nodes an action's names stand for. Review and apply both call `resolveActionNames`, and
 * it only wraps `resolveName` (lib/graph/resolve-name.ts, the one resolver), so a name reviewed
 * as "node exists" is the node apply touches: the reference tool matched ids in review but
 * labels in apply and created duplicates of nodes it had just called existing (reference.md §1.3).
 */
import type { KnowledgeGraph } from "../graph/model";
import type { Resolution } from "../graph/resolve-name";
import { resolveName } from "../graph/resolve-name";
import type { RefinementAction } from "../loop/types";
import type { ActionReview, ResolvedName } from "./types";

export type ResolvedAction = ActionReview["resolved"];

/** A resolver result as the review reports it: `nodeId` only for an exact, unique match. */
export function toResolvedName(resolution: Resolution): ResolvedName {
  return {
    name: resolution.name,
    status: resolution.status,
    nodeId: resolution.status === "exact" ? (resolution.best?.id ?? null) : null,
    candidates: resolution.candidates,
  };
}

/**
 * Resolves one name, memoised per call site: a 1,000-action refinement repeats names, and a
 * not-found name costs a fuzzy scan over every node.
 */
export type NameResolver = (name: string) => ResolvedName;

export function createNameResolver({ graph }: { graph: KnowledgeGraph }): NameResolver {
  const cache = new Map<string, ResolvedName>();
  return (name) => {
    let hit = cache.get(name);
    if (!hit) cache.set(name, (hit = toResolvedName(resolveName({ graph, name }))));
    return hit;
  };
}

/**
 * The resolved names of an action: `subject`/`object` for edges, `old`/`new` for replace_node.
 * exact → nodeId; ambiguous → nodeId null with the ranked candidates; not_found → nodeId null
 * with fuzzy suggestions (an insert then creates the node). `file::label` resolves exactly when
 * it names one node.
 */
export function resolveActionNames({
  graph,
  action,
  resolve = createNameResolver({ graph }),
}: {
  graph: KnowledgeGraph;
  action: RefinementAction;
  /** A shared memoising resolver, for callers that resolve many actions. */
  resolve?: NameResolver;
}): ResolvedAction {
  if (action.type === "replace_node") return { old: resolve(action.old), new: resolve(action.new) };
  return { subject: resolve(action.subject), object: resolve(action.object) };
}
