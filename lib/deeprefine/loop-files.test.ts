import { describe, expect, it } from "vitest";
import { parseLosslessJson } from "../json/lossless-json";
import type { JsonObject } from "../json/lossless-json";
import { DEFAULT_LOOP_CONFIG } from "../loop/types";
import { validateTrace, loadDeepRefineTrace } from "../loop/deeprefine-files";
import { queryIdOf } from "../questions/query-id";
import { loopInitInfo, resultsFileName, resultsRow, traceTemplate } from "./loop-files";

describe("loop files", () => {
  it("init tells the agent the id, both paths and the constants", () => {
    const info = loopInitInfo({ query: " What is X? ", config: DEFAULT_LOOP_CONFIG, stateDir: "/p/graphify-out/.deeprefine/" });
    const id = queryIdOf("What is X?");
    expect(info).toEqual({
      query: "What is X?",
      query_id: id,
      trace_file: `/p/graphify-out/.deeprefine/loop_trace_${id}.json`,
      refinement_file: `/p/graphify-out/.deeprefine/refinement_actions_${id}.txt`,
      constants: { max_hops: 4, increment_hop: 1, base_top_k: 10, max_triple_num_by_step: [5, 10, 15, 20], history_horizon_size: 4 },
    });
  });

  it("the template carries our constants and is rejected only for having no steps", () => {
    const template = traceTemplate({ query: "What is X?", config: DEFAULT_LOOP_CONFIG });
    const result = validateTrace({ trace: loadDeepRefineTrace(template), config: DEFAULT_LOOP_CONFIG });
    expect(result.errors).toEqual(["interaction_history is empty: run hops 1..N first"]);
  });

  it("names the results file by local date", () => {
    expect(resultsFileName(new Date(2026, 1, 3, 23, 59))).toBe("refinement_results_20260203.jsonl");
  });

  it("logs the trace's history verbatim, in the skill's key order", () => {
    const trace = parseLosslessJson('{"query": " q ", "interaction_history": [{"step": 1, "score": 1.0}, {"step": 2}], "error_abduction_reason": "why"}') as JsonObject;
    const row = resultsRow({ trace, refinementText: "<refinement></refinement>", traceFile: "t.json" });
    expect(Object.keys(row)).toEqual(["query", "query_id", "interaction_history", "error_abduction_reason", "refinement_action_raw", "early_exit", "mode", "trace_file"]);
    expect(row).toMatchObject({ query: "q", query_id: queryIdOf("q"), error_abduction_reason: "why", early_exit: false, mode: "agent-loop", trace_file: "t.json" });
    expect(row.interaction_history).toBe(trace.interaction_history);
  });
});
