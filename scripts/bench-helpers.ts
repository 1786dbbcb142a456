/**
 * What `npm run bench` (bench.ts) and `npm run bench:scale` (bench-scale.ts) share: sample
 * summaries, the probe request that measures how long others wait during a piece of work, and
 * FB15k-237 replicated with entity suffixes to reach millions of edges from real data, and the
 * PostgreSQL benches' command line, set-up and child processes.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { KnowledgeGraph } from "../lib/graph/model";
import type { RefinementAction } from "../lib/loop/types";

export const benchRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const benchData = path.resolve(benchRoot, "..", "shared", "data");

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] as number;
}

export function summarize(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(2)} ms, p95 ${percentile(s, 95).toFixed(2)} ms, max ${percentile(s, 100).toFixed(2)} ms (n=${s.length})`;
}

export interface ProbedWork<T> {
  result: T;
  ms: number;
  /** CPU of every thread of this process (an import worker's too): the shared machine's load inflates wall time. */
  cpuS: number;
  probes: number[];
}

/**
 * A probe request every 50 ms over HTTP (a server in this process answering with the graph
 * list, as GET /api/graphs does) while `work` runs: how long does anyone else wait?
 */
export async function withProbe<T>(work: () => Promise<T>): Promise<ProbedWork<T>> {
  const http = await import("node:http");
  const { findGraphs } = await import("../lib/server/graphs/graph-store");
  const server = http.createServer((_req, res) => {
    findGraphs().then(
      (graphs) => res.end(JSON.stringify(graphs)),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const agent = new http.Agent({ keepAlive: true });
  const probes: number[] = [];
  let running = true;
  const probeOnce = () =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      http
        .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
          res.resume();
          res.on("end", () => {
            probes.push(performance.now() - t);
            resolve();
          });
        })
        .on("error", () => resolve());
    });
  const loop = (async () => {
    while (running) {
      const next = performance.now() + 50;
      await probeOnce();
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  })();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const result = await work();
    const cpu = process.cpuUsage(cpu0);
    return { result, ms: performance.now() - t0, cpuS: (cpu.user + cpu.system) / 1e6, probes };
  } finally {
    running = false;
    await loop;
    agent.destroy();
    await new Promise((r) => server.close(r));
  }
}

/**
 * FB15k-237 train × copies, entities suffixed `~k` per copy (relations shared), as one TSV file
 * in `dir` (written line by line: 3M edges would be a 180 MB string). An existing file of the
 * same name is reused.
 */
export async function replicateFb15k(copies: number, dir: string): Promise<string> {
  const zlib = await import("node:zlib");
  const file = path.join(dir, `fb15k237x${copies}.tsv`);
  if (fs.existsSync(file)) return file;
  const lines = zlib.gunzipSync(fs.readFileSync(path.join(benchData, "fb15k237", "train.tsv.gz"))).toString("utf8").split("\n");
  const partial = `${file}.partial`;
  const fd = fs.openSync(partial, "w");
  try {
    for (let k = 0; k < copies; k++) {
      const out: string[] = [];
      for (const raw of lines) {
        const line = raw.replace(/\r$/, "");
        if (!line) continue;
        const [h, r, t] = line.split("\t");
        out.push(`${h}~${k}\t${r}\t${t}~${k}\n`);
      }
      fs.writeSync(fd, out.join(""));
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(partial, file);
  return file;
}

/** Questions built from real entity labels and relations of the graph, deterministic. */
export function benchQuestions(graph: KnowledgeGraph, count = 200): string[] {
  const edges = [...graph.edges.values()];
  const questions: string[] = [];
  for (let i = 0; i < count; i++) {
    const e = edges[(i * 7919) % edges.length];
    if (!e) continue;
    const subject = graph.getNode(e.source)?.label ?? e.source;
    const relation = e.relation.split(/[/._]/).filter(Boolean).slice(-2).join(" ");
    questions.push(`What is the ${relation} of ${subject}?`);
  }
  return questions;
}

/** 10 actions (5 inserts, 3 deletes, 2 renames) on real nodes and edges, different per round. */
export function benchActions(graph: KnowledgeGraph, round: number): RefinementAction[] {
  const nodes = [...graph.nodes.values()];
  const edges = [...graph.edges.values()];
  const pick = (i: number) => nodes[(round * 101 + i * 7919) % nodes.length] as { id: string };
  return [
    ...[0, 1, 2, 3, 4].map((i) => ({ type: "insert_edge" as const, subject: pick(i).id, relation: `bench_related_${round}`, object: pick(i + 50).id })),
    ...[0, 1, 2].map((i) => {
      const e = edges[(round * 997 + i * 104729) % edges.length] as { source: string; relation: string; target: string };
      return { type: "delete_edge" as const, subject: e.source, relation: e.relation, object: e.target };
    }),
    ...[7, 8].map((i) => ({ type: "replace_node" as const, old: pick(i + 200).id, new: `Renamed entity ${round}.${i}` })),
  ];
}

/**
 * Runs `script` in a child Node process (tsx, GC exposed, a 12 GB heap) and resolves with the
 * JSON of the last line it prints; stderr passes through. `what` names it in the error.
 */
export function runJsonChild<T>(script: string, args: readonly string[], what: string, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const argv = ["--expose-gc", "--max-old-space-size=12288", "--import", "tsx", script, ...args];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, argv, { cwd: benchRoot, env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    proc.on("error", reject);
    proc.on("close", (code) => {
      const line = out.trim().split("\n").at(-1);
      if (code !== 0 || !line) reject(new Error(`${what} exited with ${code}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

/** The value after `--name` on the command line, or `fallback`. */
export function benchOption(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? fallback;
}

/** Progress to stderr, stamped with the bench's name and the time; the figures go to stdout. */
export function benchLog(bench: string): (message: string) => void {
  return (m) => void process.stderr.write(`[${bench} ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
}

/**
 * The PostgreSQL benches' set-up: a throwaway test database with FB15k-237 replicated `copies`
 * times imported through the product (graph `fb<copies>x`), the connection closed so each mode
 * runs in a fresh child process; `work` gets the graph's name and edge count, and the database
 * is dropped afterwards whatever happens.
 */
export async function withReplicatedPostgresGraph(
  database: string,
  copies: number,
  log: (message: string) => void,
  work: (graph: { name: string; edges: number }) => Promise<void>,
  afterImport?: () => Promise<void>,
): Promise<void> {
  process.env.REFINERY_TEST_DATABASE = "postgres";
  const { useTestDatabase } = await import("../lib/server/db/test-database");
  const db = await useTestDatabase(database);
  try {
    const { importGraphFromPath } = await import("../lib/server/graphs/import-graph");
    const file = await replicateFb15k(copies, os.tmpdir());
    const name = `fb${copies}x`;
    const t0 = performance.now();
    const imported = await importGraphFromPath({ path: file, name });
    log(`imported ${imported.graph.edges} edges in ${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    await afterImport?.();
    const { disconnectDb } = await import("../lib/server/db/close");
    await disconnectDb();
    await work({ name, edges: imported.graph.edges });
  } finally {
    await db.cleanup();
  }
}

/** A bench script's entry: `child(args after --child)` in a child process, else `main()`; an error exits 1. */
export function runBench(main: () => Promise<void>, child: (args: string[]) => Promise<void>): void {
  const i = process.argv.indexOf("--child");
  (i >= 0 ? child(process.argv.slice(i + 1)) : main()).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
