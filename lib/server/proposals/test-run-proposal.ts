/**
 * Tests only: a proposal as a finished loop run leaves it — a Run row started by `startedBy`
 * (so separation of duties and solo mode see whose run it is) and the reviewed actions.
 */
import type { RefinementAction } from "../../loop/types";
import { getDb } from "../db/db";
import { getGraphSummary } from "../graphs";
import { createProposal, reviewForGraph } from "./proposals";

export async function proposeFromRun(options: { graph: string; actions: RefinementAction[]; question: string; startedBy: { userId: string; username: string } }): Promise<string> {
  const { graph, actions, question, startedBy } = options;
  const summary = await getGraphSummary(graph);
  const reviews = await reviewForGraph({ graph, version: summary.version, actions });
  const run = await getDb().run.create({
    data: {
      graphId: summary.id,
      queryId: "0123456789abcdef",
      question,
      graphVersion: summary.version,
      provider: "heuristic",
      model: "heuristic",
      isLlm: false,
      config: "{}",
      status: "awaiting_review",
      startedById: startedBy.userId,
      startedByName: startedBy.username,
    },
  });
  return createProposal({ graph, baseVersion: summary.version, source: "run", runId: run.id, question, actions, reviews });
}
