/**
 * Which of an ask's triples step 1 of the loop keeps first (`graph_rft_plan`): the cap is small
 * (5), so the chains that lead from the question's entities to the answers come before the
 * other triples the tools saw. For each answer, best first, the shortest chain in the ask's
 * subgraph from an entity the plan starts from; then every other triple in the trace's order.
 */
import type { AskTrace } from "../ask/types";
import type { Triple } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";

const key = (t: Triple) => `${t.subject_id}\u0000${t.relation}\u0000${t.object_id}`;

export function orderPlanTriples(trace: Pick<AskTrace, "plan" | "answers" | "subgraph">): Triple[] {
  const triples = trace.subgraph;
  const incident = new Map<string, Triple[]>();
  for (const t of triples) {
    for (const id of [t.subject_id, t.object_id]) incident.set(id, [...(incident.get(id) ?? []), t]);
  }
  const heads = new Set(trace.plan.flatMap((s) => (s.op === "search" && "entity" in s.head ? [normalizeLabel(s.head.entity)] : [])));
  const roots = new Set<string>();
  for (const t of triples) {
    if (heads.has(normalizeLabel(t.subject))) roots.add(t.subject_id);
    if (heads.has(normalizeLabel(t.object))) roots.add(t.object_id);
  }
  // Breadth-first from every root at once: the triple that first reached each node.
  const via = new Map<string, Triple | null>([...roots].map((id) => [id, null]));
  const queue = [...roots];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    for (const t of incident.get(id) ?? []) {
      const next = t.subject_id === id ? t.object_id : t.subject_id;
      if (via.has(next)) continue;
      via.set(next, t);
      queue.push(next);
    }
  }
  const out: Triple[] = [];
  const seen = new Set<string>();
  const push = (t: Triple) => {
    if (seen.has(key(t))) return;
    seen.add(key(t));
    out.push(t);
  };
  for (const answer of trace.answers) {
    if (answer.id === null || !via.has(answer.id)) continue;
    const chain: Triple[] = [];
    let at: string = answer.id;
    for (let t = via.get(at); t; t = via.get(at)) {
      chain.push(t);
      at = t.subject_id === at ? t.object_id : t.subject_id;
    }
    chain.reverse().forEach(push);
  }
  triples.forEach(push);
  return out;
}
