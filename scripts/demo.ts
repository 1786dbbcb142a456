/**
 * `npm run demo`: import the bundled demo graph and run its suggested questions (once, see
 * demo-seed.ts), build the app if needed, and start it.
 * Uses the default database (prisma/refinery.db) unless DATABASE_URL says otherwise.
 */
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { findGraphs } from "../lib/server/graphs/graph-store";
import { isSetupNeeded } from "../lib/server/auth/is-setup-needed";
import { seedDemo } from "./demo-seed";

const root = path.resolve(import.meta.dirname, "..");
const DEMO_NAME = "httpx-demo";
const port = process.env.PORT ?? "3000";

async function main(): Promise<void> {
  process.chdir(root);
  const graphs = await findGraphs();
  if (!graphs.some((g) => g.name === DEMO_NAME)) {
    console.log("importing the demo graph and running its suggested questions (offline heuristic provider)…");
    const { report, runs } = await seedDemo({ root, name: DEMO_NAME });
    console.log(`imported the demo graph ${DEMO_NAME}: ${report.graph.nodes} nodes, ${report.graph.edges} edges, ${report.graph.documents} source files`);
    for (const run of runs) console.log(`  ${run.question} → ${run.status}, ${run.actions} proposed change${run.actions === 1 ? "" : "s"}`);
    console.log("their proposals wait in the review queue (demo/README.md says which gaps they find)");
  } else {
    console.log(`demo graph ${DEMO_NAME} already imported`);
  }
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("building the app (first run only, about a minute)…");
    const build = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: process.env });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  console.log(`\nRefinery is starting on http://localhost:${port}  (LLM provider: heuristic, offline — not an LLM)\n`);
  if (await isSetupNeeded()) {
    // There is no default password: the first visitor becomes the admin, so say it loudly.
    const lines = [
      "FIRST RUN: no account exists yet. Open the address above now:",
      `it takes you to http://localhost:${port}/setup to create the admin.`,
      "There is no default password: whoever opens /setup first is admin.",
    ];
    const width = Math.max(...lines.map((l) => l.length)) + 2;
    console.log(`┌${"─".repeat(width)}┐`);
    for (const line of lines) console.log(`│ ${line.padEnd(width - 2)} │`);
    console.log(`└${"─".repeat(width)}┘\n`);
  } else {
    console.log("Sign in with your account (an admin creates more on the Users page).\n");
  }
  const server = spawn("npx", ["next", "start", "-p", port], { stdio: "inherit", env: process.env });
  server.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
