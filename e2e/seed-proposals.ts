/**
 * Proposals for the review e2e, created the way a run or `refinery review --refinement-file`
 * creates them: every action is reviewed against the graph's current version by the server's
 * own `reviewForGraph`, then stored pending with `createProposal`. Nothing is applied, unless
 * the spec says `apply: true`: then each proposal is committed at once through the internal
 * commit path — test set-up for specs about version history, not an approval (no route can do
 * this; the browser and the API apply only under the approval policy).
 *
 *   DATABASE_URL=file:e2e/.tmp/e2e.db npx tsx e2e/seed-proposals.ts < spec.json
 *
 * stdin: {graph, apply?, proposals: [{question?, runId?, actions: RefinementAction[]}]}
 * stdout: {ids: string[], versions: (number | null)[]} in the order given.
 */
import fs from "node:fs";
import { disconnectDb } from "../lib/server/db/db";
import { getGraphRecord } from "../lib/server/graphs/graph-store";
import { applyProposal, createProposal, reviewForGraph } from "../lib/server/proposals/proposals";
import type { RefinementAction } from "../lib/loop/types";

interface SeedSpec {
  graph: string;
  apply?: boolean;
  proposals: { question?: string; runId?: string; actions: RefinementAction[] }[];
}

async function main(): Promise<void> {
  const spec = JSON.parse(fs.readFileSync(0, "utf8")) as SeedSpec;
  const ids: string[] = [];
  const versions: (number | null)[] = [];
  for (const p of spec.proposals) {
    const record = await getGraphRecord(spec.graph);
    const reviews = await reviewForGraph({ graph: spec.graph, actions: p.actions });
    const id = await createProposal({
      graph: spec.graph,
      baseVersion: record.currentVersion,
      source: p.runId ? "run" : "api",
      runId: p.runId ?? null,
      question: p.question ?? null,
      actions: p.actions,
      reviews,
    });
    ids.push(id);
    versions.push(spec.apply ? (await applyProposal({ proposalId: id, allowLowConfidence: true, lowConfidenceReason: "e2e set-up", actor: "e2e" })).version : null);
  }
  process.stdout.write(JSON.stringify({ ids, versions }));
  await disconnectDb();
}

await main();
