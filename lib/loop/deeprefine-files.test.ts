import { beforeAll, describe, expect, it } from "vitest";
import type { AppError } from "../errors";
import type { KnowledgeGraph } from "../graph/model";
import type { DeepRefineTraceJson } from "./deeprefine-files";
import {
  deepRefineFileNames,
  loadDeepRefineTrace,
  parseDeepRefineTrace,
  refinementActionsText,
  traceToDeepRefineJson,
  validateTrace,
} from "./deeprefine-files";
import { parseRefinement } from "./parse-output";
import { runHopLoop } from "./run-hop-loop";
import { documentLoader, httpx, metaqa, musique, scriptedProvider } from "./test-support";
import type { RunTrace } from "./types";
import { DEFAULT_LOOP_CONFIG } from "./types";

const YES = "<judge>Yes</judge>";
const NO = "<judge>No</judge>";
const ABDUCTION = "<abduction>The KG lacks the first president of the publisher.</abduction>";
const REFINEMENT = '<refinement>insert_edge("G. Stanley Hall", "first president of", "American Psychological Association")</refinement>';
const APA_QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
const FILES = deepRefineFileNames("5a1e0c2b9f3d4e61");

async function loop(graph: KnowledgeGraph, question: string, judge: string[], docs = musique().documents): Promise<RunTrace> {
  return runHopLoop({
    graph,
    question,
    provider: scriptedProvider({ judge, abduction: [ABDUCTION], refinement: [REFINEMENT] }),
    queryId: "5a1e0c2b9f3d4e61",
    loadDocuments: documentLoader(graph, docs),
  });
}

/** A deep copy of the file object, for tampering. */
function fileOf(trace: RunTrace): DeepRefineTraceJson {
  return JSON.parse(JSON.stringify(traceToDeepRefineJson(trace, { refinementActionFile: FILES.refinement }))) as DeepRefineTraceJson;
}

function check(file: unknown, graph?: KnowledgeGraph) {
  return validateTrace({ trace: loadDeepRefineTrace(file, { source: FILES.trace }), config: DEFAULT_LOOP_CONFIG, graph });
}

describe("DeepRefine trace files", () => {
  let graph: KnowledgeGraph;
  let refined: RunTrace;
  let early: RunTrace;
  beforeAll(async () => {
    graph = musique().graph;
    refined = await loop(graph, APA_QUESTION, [NO, NO, YES]);
    early = await loop(graph, APA_QUESTION, [YES]);
  });

  it("writes the skill's loop_trace object, with graph ids beside the labels", () => {
    const file = traceToDeepRefineJson(refined, { refinementActionFile: FILES.refinement });
    expect(Object.keys(file)).toEqual([
      "schema_version",
      "mode",
      "query",
      "query_id",
      "constants",
      "interaction_history",
      "error_abduction_reason",
      "error_abduction_raw",
      "refinement_action_file",
      "early_exit",
    ]);
    expect(file.constants).toEqual({ max_hops: 4, increment_hop: 1, base_top_k: 10, max_triple_num_by_step: [5, 10, 15, 20], history_horizon_size: 4 });
    expect(file.interaction_history.map((s) => [s.step, s.num_hops, s.base_top_k, s.retrieval.method, s.retrieved_subgraph.length, s.answerable])).toEqual([
      [1, 0, 10, "graphify_query", 5, false],
      [2, 1, 10, "k_hop_expansion", 10, false],
      [3, 2, 10, "k_hop_expansion", 15, true],
    ]);
    // The skill's triple fields, with the graph ids beside the labels (a triples graph: id = label).
    const shown = file.interaction_history[0]?.retrieved_subgraph[2];
    expect(Object.keys(shown ?? {})).toEqual(["subject", "relation", "object", "subject_id", "object_id"]);
    expect([shown?.subject_id, shown?.object_id]).toEqual([shown?.subject, shown?.object]);
    expect(file.interaction_history.flatMap((s) => s.retrieved_subgraph)).toContainEqual({
      subject: "Journal of Psychotherapy Integration",
      relation: "published by",
      object: "American Psychological Association",
      subject_id: "Journal of Psychotherapy Integration",
      object_id: "American Psychological Association",
    });
    expect(file.interaction_history[2]?.judgement_raw).toBe(YES);
    expect([file.error_abduction_reason, file.error_abduction_raw, file.refinement_action_file, file.early_exit]).toEqual([
      "The KG lacks the first president of the publisher.",
      ABDUCTION,
      "refinement_actions_5a1e0c2b9f3d4e61.txt",
      false,
    ]);
    expect(refinementActionsText(refined)).toBe(`${REFINEMENT}\n`);
    expect(parseRefinement(refinementActionsText(refined), { maxActions: 10 })).toEqual({ ok: true, actions: refined.actions, warnings: [] });

    const earlyFile = traceToDeepRefineJson(early, { refinementActionFile: FILES.refinement });
    expect([earlyFile.early_exit, earlyFile.refinement_action_file, earlyFile.error_abduction_raw]).toEqual([true, null, null]);
  });

  it("validates its own traces (file round trip and RunTrace) against config and graph", () => {
    for (const trace of [refined, early]) {
      const text = JSON.stringify(traceToDeepRefineJson(trace, { refinementActionFile: FILES.refinement }), null, 2);
      const loaded = parseDeepRefineTrace(text, { source: FILES.trace });
      expect(loaded.steps.length).toBe(trace.steps.length);
      expect(loaded.steps[0]?.triples?.[0]).toEqual({ ...trace.steps[0]?.triples[0] });
      expect(validateTrace({ trace: loaded, graph })).toEqual({ ok: true, errors: [] });
      expect(validateTrace({ trace, graph })).toEqual({ ok: true, errors: [] });
    }
    expect(validateTrace({ trace: refined, graph, refinementText: refinementActionsText(refined) }).ok).toBe(true);
  });

  it("checks the constants against Refinery's config, not the file's", () => {
    const file = fileOf(refined);
    file.constants.max_hops = 3;
    file.constants.max_triple_num_by_step = [10, 50, 90];
    expect(check(file).errors).toEqual([
      "constants.max_hops is 3 but Refinery's config has 4",
      "constants.max_triple_num_by_step is [10,50,90] but Refinery's config has [5,10,15,20]",
    ]);
    // A file cannot widen its own caps: 12 triples at step 2 exceed 10 + 2.
    const wide = fileOf(refined);
    wide.interaction_history[1]?.retrieved_subgraph.push(...(wide.interaction_history[2]?.retrieved_subgraph.slice(10, 13) ?? []));
    expect(check(wide).errors).toEqual(["step 2: 13 triples exceed the cap of 10 (max_triple_num_by_step)"]);
  });

  it("checks every triple against the graph, in stored direction", () => {
    const file = fileOf(refined);
    const steps = file.interaction_history;
    const last = steps[2]?.retrieved_subgraph ?? [];
    // Beyond the first three (the skill looks no further).
    const t7 = last[6];
    const t9 = last[8];
    const t12 = last[11];
    if (!t7 || !t9 || !t12) throw new Error("fixture");
    t7.relation = "founded";
    [t9.subject, t9.object, t9.subject_id, t9.object_id] = [t9.object, t9.subject, t9.object_id, t9.subject_id];
    t12.subject = "Sigmund Freud";
    const errors = check(file, graph).errors;
    expect(errors).toEqual([
      `step 3: triple 7 (${t7.subject}, founded, ${t7.object}): no "founded" edge from ${JSON.stringify(t7.subject)} to ${JSON.stringify(t7.object)} in the graph`,
      `step 3: triple 9 (${t9.subject}, ${t9.relation}, ${t9.object}): the graph stores this edge the other way round (${t9.object} → ${t9.subject})`,
      `step 3: triple 12 (Sigmund Freud, ${t12.relation}, ${t12.object}): subject "Sigmund Freud" is not the label of node ${JSON.stringify(t12.subject_id)} (${JSON.stringify(t12.subject_id)})`,
    ]);
    // Without ids, by exact label.
    for (const s of steps) for (const t of s.retrieved_subgraph) {
        delete t.subject_id;
        delete t.object_id;
      }
    expect(check(file, graph).errors.map((e) => e.replace(/ \(.*?\): /, ": "))).toEqual([
      `step 3: triple 7: no "founded" edge from ${JSON.stringify(t7.subject)} to ${JSON.stringify(t7.object)} in the graph`,
      `step 3: triple 9: the graph stores this edge the other way round (${t9.object} → ${t9.subject})`,
      'step 3: triple 12: subject "Sigmund Freud" is not a node label of the graph',
    ]);
    expect(check(file).ok).toBe(true); // no graph: no graph check
  });

  it("rejects a Yes before the last step, a judge tag that disagrees, and a No that stops early", () => {
    const file = fileOf(refined);
    const [s1, s2] = file.interaction_history;
    if (!s1 || !s2) throw new Error("fixture");
    s1.answerable = true;
    s1.judgement_raw = YES;
    s2.judgement_raw = "<judge>Yes</judge>";
    expect(check(file).errors).toEqual([
      "step 1: answerable=true but the loop continued; it must stop at the first Yes",
      "step 2: answerable=false disagrees with the <judge> tag",
    ]);
    const stopped = fileOf(refined);
    stopped.interaction_history.pop();
    expect(check(stopped).errors).toEqual(["the loop stopped at step 2 on No before max_hops (4)"]);
    const noTag = fileOf(refined);
    if (noTag.interaction_history[0]) noTag.interaction_history[0].judgement_raw = "No.";
    expect(check(noTag).errors).toEqual(["step 1: judgement_raw must contain <judge>Yes</judge> or <judge>No</judge> (no <judge>…</judge> tag in the output)"]);
  });

  it("names missing keys, empty retrieval and wrong step numbers", () => {
    const file = fileOf(refined) as unknown as { interaction_history: Record<string, unknown>[] };
    const s2 = file.interaction_history[1] as Record<string, unknown>;
    delete s2.retrieval;
    delete s2.judgement_raw;
    s2.num_hops = 2;
    const s3 = file.interaction_history[2] as Record<string, unknown>;
    s3.retrieval = { method: "vector_search", evidence: "  " };
    s3.step = 7;
    expect(check(file).errors).toEqual([
      'step 2: missing field "judgement_raw"',
      'step 2: missing field "retrieval"',
      "step 2: num_hops is 2, expected 1",
      "step 2: retrieval.method required",
      "step 2: retrieval.evidence required",
      'step 3: "step" is 7, expected 3',
      'step 3: retrieval.method "vector_search" must be one of k_hop_expansion, graphify_query+k_hop_expansion, graphify_query',
      "step 3: retrieval.evidence required",
    ]);
  });

  it("checks the early and refinement paths", () => {
    const earlyFile = fileOf(early);
    earlyFile.error_abduction_raw = ABDUCTION;
    earlyFile.refinement_action_file = FILES.refinement;
    expect(check(earlyFile).errors).toEqual(["early_exit: must not run error abduction", "early_exit: must not propose refinement actions"]);

    const file = fileOf(refined);
    file.error_abduction_raw = "The KG is incomplete.";
    file.refinement_action_file = null;
    file.early_exit = true;
    expect(check(file).errors).toEqual([
      "early_exit=true but 3 step(s) give false",
      "missing error_abduction_raw with <abduction>...</abduction> (no <abduction>…</abduction> block in the output)",
      "missing refinement_action_file (or refinement text)",
    ]);
    const mismatch = fileOf(refined);
    mismatch.error_abduction_reason = "Something else.";
    expect(check(mismatch).errors).toEqual(["error_abduction_reason differs from the text inside <abduction> of error_abduction_raw"]);
    expect(validateTrace({ trace: refined, refinementText: "insert_edge(a, b, c)" }).errors).toEqual([
      "refinement text: no <refinement>…</refinement> block in the output",
    ]);
    // With refineAfterFinalYes off, a final Yes needs no refinement and must have none.
    const config = { ...DEFAULT_LOOP_CONFIG, refineAfterFinalYes: false };
    expect(validateTrace({ trace: refined, config }).errors).toEqual([
      "last step said Yes and refineAfterFinalYes is off: must not run error abduction",
      "last step said Yes and refineAfterFinalYes is off: must not propose refinement actions",
    ]);
  });

  it("checks schema and mode", () => {
    const file = fileOf(early) as unknown as Record<string, unknown>;
    file.schema_version = 2;
    file.mode = "pipeline";
    delete file.constants;
    expect(check(file).errors).toEqual(['schema_version must be 1 (found 2)', 'mode must be "agent-loop" (found "pipeline")', "constants missing"]);
    file.interaction_history = [];
    expect(check(file).errors.at(-1)).toBe("interaction_history is empty: run hops 1..N first");
  });

  it("reads hand-written skill traces: labels only, extra keys, and clear errors naming the field", () => {
    const skill = {
      schema_version: 1,
      mode: "agent-loop",
      query: APA_QUESTION,
      query_id: "0123456789abcdef",
      constants: { max_hops: 4, increment_hop: 1, base_top_k: 10, max_triple_num_by_step: [5, 10, 15, 20], history_horizon_size: 4 },
      interaction_history: [
        {
          step: 1,
          num_hops: 0,
          base_top_k: 10,
          query: APA_QUESTION,
          retrieval: { method: "graphify_query", evidence: "NODE Journal of Psychotherapy Integration [src= loc= community=]", command: "graphify query" },
          retrieved_subgraph: [{ subject: "Journal of Psychotherapy Integration", relation: "published by", object: "American Psychological Association" }],
          answerable: true,
          judgement_raw: "<judge>Yes</judge>",
          note: "extra keys are kept out of the way",
        },
      ],
      error_abduction_reason: null,
      error_abduction_raw: null,
      refinement_action_file: null,
      early_exit: true,
    };
    expect(check(skill, graph)).toEqual({ ok: true, errors: [] });

    const bad = (mutate: (o: typeof skill) => void) => {
      const copy = JSON.parse(JSON.stringify(skill)) as typeof skill;
      mutate(copy);
      try {
        parseDeepRefineTrace(JSON.stringify(copy), { source: "loop_trace_0123456789abcdef.json" });
        return "parsed";
      } catch (e) {
        return `${(e as AppError).code}: ${(e as AppError).message}`;
      }
    };
    expect(bad((o) => ((o.interaction_history[0]?.retrieved_subgraph[0] as Record<string, unknown>).subject = 42))).toBe(
      'INVALID_INPUT: loop_trace_0123456789abcdef.json: field "interaction_history.0.retrieved_subgraph.0.subject": Invalid input: expected string, received number',
    );
    expect(bad((o) => delete (o as Partial<typeof skill>).query)).toMatch(/^INVALID_INPUT: .*field "query"/);
    expect(bad((o) => ((o as Record<string, unknown>).interaction_history = "none"))).toMatch(/field "interaction_history"/);
    expect(() => parseDeepRefineTrace("{ not json", { source: "t.json" })).toThrow(/^t\.json: invalid JSON/);
  });

  it("validates a graphify trace by labels, including labels shared by several nodes", async () => {
    const { graph: code, documents } = httpx();
    const trace = await loop(code, "What does Client send call to handle auth?", [NO, YES], documents);
    expect(validateTrace({ trace, graph: code })).toEqual({ ok: true, errors: [] });
    const file = fileOf(trace);
    for (const s of file.interaction_history) for (const t of s.retrieved_subgraph) {
        delete t.subject_id;
        delete t.object_id;
      }
    const labels = file.interaction_history.flatMap((s) => s.retrieved_subgraph.flatMap((t) => [t.subject, t.object]));
    expect(labels.some((l) => [...code.nodes.values()].filter((n) => n.label === l).length > 1)).toBe(true);
    expect(check(file, code)).toEqual({ ok: true, errors: [] });
  });

  it("validates a MetaQA run against the 128k-triple graph", async () => {
    const kb = metaqa();
    const trace = await loop(kb, "which person directed the movies starred by [John Krasinski]", [NO, NO, NO, NO], []);
    expect(trace.steps.length).toBe(4);
    expect(validateTrace({ trace, graph: kb })).toEqual({ ok: true, errors: [] });
  });
});
