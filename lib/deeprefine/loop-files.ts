/**
 * The loop's files under `graphify-out/.deeprefine/` (reference.md §1.2): the trace template
 * `loop init` writes, the paths it tells the agent, and the row `loop finish` appends to
 * `refinement_results_<YYYYMMDD>.jsonl`.
 */
import type { JsonObject, JsonValue } from "../json/lossless-json";
import type { DeepRefineTraceJson } from "../loop/deeprefine-files";
import { deepRefineFileNames } from "../loop/deeprefine-files";
import type { LoopConfig } from "../loop/types";
import { queryIdOf } from "../questions/query-id";

export function traceConstants(config: LoopConfig): DeepRefineTraceJson["constants"] {
  return {
    max_hops: config.maxHops,
    increment_hop: config.incrementHop,
    base_top_k: config.baseTopK,
    max_triple_num_by_step: [...config.maxTripleNumByStep],
    history_horizon_size: config.historyHorizon,
  };
}

/** The empty trace the agent fills in hop by hop (the skill's `default_trace`). */
export function traceTemplate({ query, config }: { query: string; config: LoopConfig }): DeepRefineTraceJson {
  const q = query.trim();
  return {
    schema_version: 1,
    mode: "agent-loop",
    query: q,
    query_id: queryIdOf(q),
    constants: traceConstants(config),
    interaction_history: [],
    error_abduction_reason: null,
    error_abduction_raw: null,
    refinement_action_file: null,
    early_exit: null,
  };
}

export interface LoopInitInfo {
  query: string;
  query_id: string;
  trace_file: string;
  refinement_file: string;
  constants: DeepRefineTraceJson["constants"];
}

/**
 * What `loop init` prints: the id, where to write the trace and the refinement (relative to the
 * project root, as the skill's traces record them) and the constants the trace must carry.
 */
export function loopInitInfo({ query, config, stateDir }: { query: string; config: LoopConfig; stateDir: string }): LoopInitInfo {
  const q = query.trim();
  const id = queryIdOf(q);
  const names = deepRefineFileNames(id);
  const dir = stateDir.replace(/\/+$/, "");
  return {
    query: q,
    query_id: id,
    trace_file: `${dir}/${names.trace}`,
    refinement_file: `${dir}/${names.refinement}`,
    constants: traceConstants(config),
  };
}

/** `refinement_results_20260131.jsonl`: the local date, like the skill's `time.strftime("%Y%m%d")`. */
export function resultsFileName(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `refinement_results_${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}.jsonl`;
}

/**
 * The results row of a finished trace, keys in the skill's order. `trace` is the trace file as
 * parsed (lossless), so interaction_history is logged exactly as the agent wrote it.
 */
export function resultsRow({
  trace,
  refinementText,
  traceFile,
}: {
  trace: JsonObject;
  refinementText: string | null;
  traceFile: string;
}): JsonObject {
  const query = typeof trace.query === "string" ? trace.query.trim() : "";
  const queryId = typeof trace.query_id === "string" && trace.query_id ? trace.query_id : queryIdOf(query);
  const history: JsonValue = trace.interaction_history ?? null;
  return {
    query,
    query_id: queryId,
    interaction_history: history,
    error_abduction_reason: trace.error_abduction_reason ?? null,
    refinement_action_raw: refinementText,
    early_exit: Array.isArray(history) ? history.length <= 1 : true,
    mode: "agent-loop",
    trace_file: traceFile,
  };
}
