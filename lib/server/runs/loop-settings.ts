/**
 * Per-graph settings of the hop loop: which retrieval step 1 uses (the keyword query, or the
 * Ask plan's subgraph, `graph_rft_plan`). Stored on the graph row; changes are audited.
 */
import type { Actor } from "../../auth/permissions";
import type { Step1Retrieval } from "../../loop/types";
import { STEP1_RETRIEVALS } from "../../loop/types";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getGraphRecord } from "../graphs";

export interface LoopSettings {
  graph: string;
  step1Retrieval: Step1Retrieval;
}

function step1Of(value: string): Step1Retrieval {
  return (STEP1_RETRIEVALS as readonly string[]).includes(value) ? (value as Step1Retrieval) : "graphify_query";
}

export async function getLoopSettings(options: { graph: string }): Promise<LoopSettings> {
  const row = await getGraphRecord(options.graph);
  return { graph: row.name, step1Retrieval: step1Of(row.loopRetrieval) };
}

export async function updateLoopSettings(options: { graph: string; step1Retrieval: Step1Retrieval; actor: Actor }): Promise<LoopSettings> {
  const row = await getGraphRecord(options.graph);
  const before = await getLoopSettings({ graph: row.name });
  if (before.step1Retrieval === options.step1Retrieval) return before;
  await getDb().$transaction(async (tx) => {
    await tx.graph.update({ where: { id: row.id }, data: { loopRetrieval: options.step1Retrieval } });
    await recordAudit(
      options.actor,
      {
        action: "settings.update",
        summary: `set step 1 retrieval of ${row.name}'s loop to ${options.step1Retrieval} (was ${before.step1Retrieval})`,
        graphName: row.name,
        targetType: "graph",
        targetId: row.name,
        details: { step1Retrieval: { from: before.step1Retrieval, to: options.step1Retrieval } },
      },
      tx,
    );
  });
  return { graph: row.name, step1Retrieval: options.step1Retrieval };
}
