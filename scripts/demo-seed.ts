/**
 * The demo's first-run content: import the bundled demo graph (demo/httpx, with its sources),
 * queue the suggested questions (demo/questions.ts) and run each once with the offline heuristic
 * provider, so the review queue a newcomer opens first holds real proposals (HIGH, MEDIUM and
 * LOW, each with the code or graph evidence the review found). Used by `npm run demo` and by its
 * test; the runs have no starter, so whoever signs in may approve them.
 */
import path from "node:path";
import { DEMO_QUESTIONS } from "../demo/questions";
import { createHeuristicProvider } from "../lib/providers/heuristic";
import { importGraphFromPath, type ImportReport } from "../lib/server/graphs/import-graph";
import { addQuestions } from "../lib/server/runs/questions";
import { startRun } from "../lib/server/runs/runs";

export interface SeedDemoResult {
  report: ImportReport;
  runs: { question: string; status: string; actions: number }[];
}

export async function seedDemo({ root, name }: { root: string; name: string }): Promise<SeedDemoResult> {
  const report = await importGraphFromPath({ path: path.join(root, "demo", "httpx"), name });
  await addQuestions({ graph: name, texts: [...DEMO_QUESTIONS], source: "user" });
  const provider = createHeuristicProvider();
  const runs: SeedDemoResult["runs"] = [];
  // One after the other: each run's proposal is reviewed on the graph as imported.
  for (const question of DEMO_QUESTIONS) {
    const { done } = await startRun({ graph: name, question, provider });
    const run = await done;
    runs.push({ question, status: run.status, actions: run.actions });
  }
  return { report, runs };
}
