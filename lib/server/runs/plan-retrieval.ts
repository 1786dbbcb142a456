/**
 * The loop's planned retrieval (`graph_rft_plan`, issue #11) as the server injects it: the
 * heuristic Ask plans over the run's graph version (no model: the loop's provider judges, the
 * planner only retrieves), and its subgraph, chains to the answers first, becomes step 1.
 */
import { runAsk } from "../../ask/run-ask";
import { orderPlanTriples } from "../../loop/order-plan-triples";
import type { PlanRetrieval } from "../../loop/types";
import { plural } from "../../text/plural";

export function createPlanRetrieval(options: { graphName: string; graphVersion: number }): PlanRetrieval {
  return async ({ question, graph, signal }) => {
    const trace = await runAsk({ graph, question, graphName: options.graphName, graphVersion: options.graphVersion, corpusFallback: false, signal });
    const steps = trace.plan.length;
    const evidence =
      trace.status === "failed"
        ? `Ask plan failed at ${trace.error?.step ?? "?"}: ${trace.error?.message ?? "unknown error"}`
        : `Ask plan (heuristic, ${plural(steps, "sub-problem")}, ${plural(trace.calls.length, "tool call")}${trace.answers.length > 0 ? `, answer ${trace.answers.slice(0, 3).map((a) => a.label).join(", ")}` : ", no answer"})`;
    return { triples: orderPlanTriples(trace), evidence };
  };
}
