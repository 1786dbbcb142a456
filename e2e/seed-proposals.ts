/**
 * Proposals for the review e2e, created the way a run or `refinery review --refinement-file`
 * creates them: every action is reviewed against the graph's current version by the server's
 * own `reviewForGraph`, then stored pending with `createProposal`. Nothing is applied.
 *
 *   DATABASE_URL=file:e2e/.tmp/e2e.db npx tsx e2e/seed-proposals.ts < spec.json
 *
 * stdin: {graph, proposals: [{question?, runId?, actions: RefinementAction[]}]}
 * stdout: {ids: string[]} in the order given.
 */
import fs from "node:fs";
import { disconnectDb } from "../lib/server/db";
import { getGraphRecord } from "../lib/server/graph-store";
import { createProposal, reviewForGraph } from "../lib/server/proposals";
import type { RefinementAction } from "../lib/loop/types";

interface SeedSpec {
  graph: string;
  proposals: { question?: string; runId?: string; actions: RefinementAction[] }[];
}

async function main(): Promise<void> {
  const spec = JSON.parse(fs.readFileSync(0, "utf8")) as SeedSpec;
  const record = await getGraphRecord(spec.graph);
  const ids: string[] = [];
  for (const p of spec.proposals) {
    const reviews = await reviewForGraph({ graph: spec.graph, actions: p.actions });
    ids.push(
      await createProposal({
        graph: spec.graph,
        baseVersion: record.currentVersion,
        source: p.runId ? "run" : "api",
        runId: p.runId ?? null,
        question: p.question ?? null,
        actions: p.actions,
        reviews,
      }),
    );
  }
  process.stdout.write(JSON.stringify({ ids }));
  await disconnectDb();
}

await main();
