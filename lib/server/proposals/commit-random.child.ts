/**
 * Another process committing to a graph, for advance-versions.test.ts: plans one random
 * changeset on the graph's current version and commits it through the ordinary path.
 *
 *   DATABASE_URL=… node --import tsx lib/server/proposals/commit-random.child.ts <graph> <seed>
 */
import { planRandom, randomSource } from "../../test/random-changesets";
import { closeSql } from "../db/sql";
import { disconnectDb } from "../db/db";
import { loadGraph } from "../graphs";
import { commitChangeset } from "./changesets";

async function main(): Promise<void> {
  const [name, seed] = process.argv.slice(2);
  if (!name || !seed) throw new Error("usage: commit-random.child.ts <graph> <seed>");
  const { graph, version } = await loadGraph(name);
  const edgeKeyPrefix = `v${version + 1}.`;
  const changeset = planRandom(graph, randomSource(Number(seed)), Number(seed), edgeKeyPrefix);
  const result = await commitChangeset({ graph: name, baseVersion: version, changeset, kind: "apply", message: "Another process.", edgeKeyPrefix });
  process.stdout.write(JSON.stringify({ version: result.version }));
  await disconnectDb();
  await closeSql();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
