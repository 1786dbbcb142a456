/**
 * The import worker thread (started by import-graph.ts): parses the input and writes the graph
 * with its audit event on its own database connection, posting progress lines, then the report
 * or the error, and exits.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ImportJob, ImportWorkerMessage } from "./import-graph";
import { runImportJob } from "./import-graph";
import { closeSql } from "../db/sql";

const port = parentPort;
if (!port) throw new Error("import-worker.ts runs as a worker thread (see import-graph.ts)");
const post = (message: ImportWorkerMessage) => port.postMessage(message);
const { job } = workerData as { job: ImportJob };

try {
  const report = await runImportJob(job, (message) => post({ type: "progress", message }), true);
  post({ type: "done", report });
} catch (error) {
  const e = error as { name?: string; message?: string; code?: unknown; details?: Record<string, unknown>; stack?: string };
  post({
    type: "error",
    error: {
      name: String(e?.name ?? "Error"),
      message: String(e?.message ?? error),
      code: typeof e?.code === "string" ? e.code : undefined,
      details: e?.details && typeof e.details === "object" ? e.details : undefined,
      stack: e?.stack,
    },
  });
} finally {
  await closeSql();
}
