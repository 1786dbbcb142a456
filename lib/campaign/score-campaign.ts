/**
 * A campaign's score of one sandbox state, from the loop traces and Ask traces of its questions
 * and the sandbox's changes. Every sub-score is 0–100 and the overall is computed from them
 * (decide-iteration.ts `overallOf`), with its band.
 *
 * - answerability: % of questions the loop judge answered Yes at some step;
 * - accuracy (gold questions only): % whose best Ask answer is a gold answer AND is reached
 *   through evidence: a graph chain whose every triple is an edge of the sandbox (the campaign's
 *   own edges got there only through the claim-evidence gate), or a quoted passage; an answer in
 *   the model's own words never counts;
 * - efficiency: per question 100·(maxHops − (steps − 1))/maxHops when answerable, else 0;
 * - hygiene: 100·(1 − problems/changes) over the sandbox's changes, where a problem is an edge
 *   that duplicates an existing one, a node left without edges, or a second value of a
 *   one-valued relation; 100 when nothing changed.
 */
import type { AskTrace } from "../ask/types";
import type { Changeset } from "../changes/changeset";
import type { KnowledgeGraph, Triple } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import type { RunTrace } from "../loop/types";
import { isFunctionalRelation } from "../providers/heuristic";
import { bandOf, overallOf } from "./decide-iteration";
import type { CampaignQuestion, CampaignScore, HygieneReport, QuestionResult } from "./types";

const round1 = (x: number) => Math.round(x * 10) / 10;

function hasEdge(graph: KnowledgeGraph, t: Triple): boolean {
  return graph.outEdges(t.subject_id).some((e) => e.target === t.object_id && e.relation === t.relation) || graph.outEdges(t.object_id).some((e) => e.target === t.subject_id && e.relation === t.relation);
}

/** Does `label` (or the answer node's aliases) equal a gold answer, after normalisation? */
export function matchesGold({ graph, label, id, gold }: { graph: KnowledgeGraph; label: string; id: string | null; gold: readonly string[] }): boolean {
  const names = new Set([normalizeLabel(label)]);
  const node = id ? graph.getNode(id) : undefined;
  if (node) for (const a of [node.label, ...node.aliases]) names.add(normalizeLabel(a));
  return gold.some((g) => names.has(normalizeLabel(g)));
}

export function judgeAnswer({ graph, question, ask }: { graph: KnowledgeGraph; question: CampaignQuestion; ask: AskTrace }): Pick<QuestionResult, "answer" | "correct" | "accuracyNote"> {
  const gold = question.answers ?? [];
  const best = ask.answers[0];
  if (ask.status === "failed") return { answer: null, correct: false, accuracyNote: `ask failed: ${ask.error?.message ?? "unknown error"}` };
  if (!best) return { answer: null, correct: false, accuracyNote: "no answer" };
  const right = matchesGold({ graph, label: best.label, id: best.id, gold });
  if (best.via === "model") return { answer: best.label, correct: false, accuracyNote: "the answer is the model's own words, not reached through evidence" };
  if (best.via === "graph") {
    const triples = best.evidence?.triples ?? [];
    const missing = triples.filter((t) => !hasEdge(graph, t));
    if (triples.length === 0 || missing.length > 0) return { answer: best.label, correct: false, accuracyNote: "the answer's chain is not made of edges of the graph" };
  }
  if (best.via === "corpus" && !best.evidence?.passage?.quote) return { answer: best.label, correct: false, accuracyNote: "no passage quoted" };
  return { answer: best.label, correct: right, accuracyNote: right ? `reached via ${best.via}` : `wrong answer (gold: ${gold.join(" / ")})` };
}

export function questionResult({ question, trace }: { question: CampaignQuestion; trace: RunTrace }): QuestionResult {
  const yes = trace.steps.findIndex((s) => s.answerable);
  return {
    id: question.id,
    question: question.question,
    answerable: yes >= 0,
    steps: yes >= 0 ? yes + 1 : trace.steps.length,
    error: trace.status === "failed" ? trace.error : null,
  };
}

export function measureHygiene({ sandbox, live, changeset }: { sandbox: KnowledgeGraph; live: KnowledgeGraph; changeset: Changeset }): HygieneReport {
  const report: HygieneReport = { changes: 0, duplicates: [], dangling: [], conflicts: [] };
  const touchedNodes = new Set<string>();
  for (const op of changeset.ops) {
    const edge = op.op === "add_edge" ? op.edge : op.op === "update_edge" ? op.after : null;
    if (op.op === "add_node") {
      report.changes++;
      touchedNodes.add(op.node.id);
    }
    if (op.op === "remove_edge") for (const end of [op.edge.source, op.edge.target]) touchedNodes.add(end);
    if (op.op === "update_edge") for (const end of [op.before.source, op.before.target]) touchedNodes.add(end);
    if (!edge || !sandbox.edges.has(edge.key)) continue;
    report.changes++;
    const text = `${edge.source} --${edge.relation}--> ${edge.target}`;
    const copies = sandbox.outEdges(edge.source).filter((e) => e.target === edge.target && e.relation === edge.relation);
    if (copies.length > 1) report.duplicates.push(text);
    if (isFunctionalRelation(edge.relation)) {
      const objects = new Set(sandbox.outEdges(edge.source).filter((e) => e.relation === edge.relation).map((e) => e.target));
      const before = new Set(live.outEdges(edge.source).filter((e) => e.relation === edge.relation).map((e) => e.target));
      if (objects.size > 1 && objects.size > before.size) report.conflicts.push(`${text} (one-valued, ${objects.size} values)`);
    }
  }
  for (const id of touchedNodes) {
    if (sandbox.getNode(id) && sandbox.degree(id) === 0 && (live.degree(id) > 0 || !live.getNode(id))) report.dangling.push(id);
  }
  return report;
}

export interface ScoreCampaignOptions {
  sandbox: KnowledgeGraph;
  live: KnowledgeGraph;
  changeset: Changeset;
  questions: readonly CampaignQuestion[];
  /** Same order as `questions`. */
  traces: readonly RunTrace[];
  /** Ask traces by question id, for gold questions (absent: accuracy is not scored). */
  asks?: ReadonlyMap<string, AskTrace>;
  maxHops: number;
}

export function scoreCampaign({ sandbox, live, changeset, questions, traces, asks, maxHops }: ScoreCampaignOptions): CampaignScore {
  const results = questions.map((question, i) => {
    const trace = traces[i];
    if (!trace) throw new Error(`no loop trace for question ${question.id}`);
    const result = questionResult({ question, trace });
    const ask = asks?.get(question.id);
    if (ask && question.answers && question.answers.length > 0) Object.assign(result, judgeAnswer({ graph: sandbox, question, ask }));
    return result;
  });
  const n = Math.max(1, results.length);
  const answerability = round1((100 * results.filter((r) => r.answerable).length) / n);
  const efficiency = round1(results.reduce((acc, r) => acc + (r.answerable ? (100 * Math.max(0, maxHops - (r.steps - 1))) / maxHops : 0), 0) / n);
  const gold = results.filter((r) => r.correct !== undefined);
  const accuracy = gold.length > 0 ? round1((100 * gold.filter((r) => r.correct === true).length) / gold.length) : null;
  const hygiene = measureHygiene({ sandbox, live, changeset });
  const problems = hygiene.duplicates.length + hygiene.dangling.length + hygiene.conflicts.length;
  const hygieneScore = hygiene.changes === 0 ? 100 : round1(Math.max(0, 100 * (1 - problems / hygiene.changes)));
  const sub = { answerability, accuracy, efficiency, hygiene: hygieneScore };
  const overall = overallOf(sub);
  return { sub, overall, band: bandOf(overall), questions: results, hygiene };
}
