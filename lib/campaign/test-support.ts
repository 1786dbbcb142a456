/**
 * Test support for campaigns: countries_S1's held-out test edges as "which region" questions,
 * and a stand-in model for them. Test-only (reads files through lib/test/data).
 */
import type { KnowledgeGraph } from "../graph/model";
import type { CompletionRequest, LlmProvider } from "../loop/types";
import { findQuestionEntities, formatRefinement } from "../providers/heuristic";
import { readData } from "../test/data";
import type { CampaignQuestion } from "./types";

/** One question per held-out test edge: "Which region is eritrea located in?" (gold: africa). */
export function countryQuestions(): { test: Array<[string, string, string]>; questions: CampaignQuestion[] } {
  const test = readData("countries_S1", "test.txt")
    .trim()
    .split("\n")
    .map((l) => l.split("\t") as [string, string, string]);
  const questions = test.map(([country, , region]) => ({ id: country, question: `Which region is ${country.replace(/_/g, " ")} located in?`, answers: [region] }));
  return { test, questions };
}

/**
 * A stand-in for a model that knows part-of hierarchies: it judges a "which region" question
 * answerable only when a retrieved triple links the question's entity straight to a top-level
 * node (one with no further edge of that relation), and proposes that shortcut edge — plus one
 * made-up edge to another top-level node, which nothing supports, so the gate must hold it back.
 */
export function hierarchyModel(): LlmProvider {
  const tops = (graph: KnowledgeGraph, relation: string) => [...graph.nodes.values()].filter((n) => graph.inEdges(n.id).some((e) => e.relation === relation) && !graph.outEdges(n.id).some((e) => e.relation === relation)).map((n) => n.id).sort();
  const entityOf = (graph: KnowledgeGraph, question: string) => findQuestionEntities({ graph, question }).mentions[0]?.nodeIds[0] ?? null;
  return {
    name: "replay",
    model: "hierarchy-stand-in",
    // Not an LLM: Ask then uses its heuristic planner, and every trace says so.
    isLlm: false,
    async complete(request: CompletionRequest) {
      const ctx = request.context;
      if (ctx.task === "judge") {
        const e = entityOf(ctx.graph, ctx.question);
        const yes = ctx.triples.some((t) => t.subject_id === e && !ctx.graph.outEdges(t.object_id).some((x) => x.relation === t.relation));
        return { text: `<judge>${yes ? "Yes" : "No"}</judge>` };
      }
      if (ctx.task === "abduction") return { text: "<abduction>the entity's own edge stops below the top of the hierarchy</abduction>" };
      const e = entityOf(ctx.graph, ctx.question);
      const actions = [];
      for (const t of ctx.triples.filter((x) => x.subject_id === e)) {
        const up = ctx.graph.outEdges(t.object_id).find((x) => x.relation === t.relation);
        if (!up || ctx.graph.outEdges(up.target).some((x) => x.relation === t.relation)) continue;
        actions.push({ type: "insert_edge" as const, subject: t.subject, relation: t.relation, object: up.target });
        const other = tops(ctx.graph, t.relation).find((id) => id !== up.target);
        if (other) actions.push({ type: "insert_edge" as const, subject: t.subject, relation: t.relation, object: other });
        break;
      }
      return { text: formatRefinement(actions) };
    },
  };
}

