/**
 * Start a worker thread from a TypeScript file of lib/server/graphs, in every way the code runs:
 * tsx (CLI, scripts), vitest, and the Next.js server bundle. The worker runs from its source
 * through tsx (a runtime dependency): beside this module when `import.meta.url` is a real file,
 * else under the working directory — inside the bundle `import.meta.url` points into `.next/`,
 * where the worker's source is not (the same fallback as wordnet-lexicon.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

export function workerFile(name: string): string {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(/*turbopackIgnore: true*/ path.dirname(fileURLToPath(import.meta.url)), `${name}.ts`));
  } catch {
    // Not a file: URL (a bundle); the working directory below.
  }
  candidates.push(path.resolve(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "graphs", `${name}.ts`));
  for (const file of candidates) if (fs.existsSync(file)) return file;
  throw new Error(`cannot find the ${name} worker (looked in ${candidates.join(", ")}); run the server from the project folder`);
}

/** tsx's ESM API, found in the working directory's node_modules (a bundle cannot resolve it for us). */
function tsxApi(): string {
  const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "tsx", "dist", "esm", "api", "index.mjs");
  if (!fs.existsSync(file)) throw new Error(`cannot find tsx (${file}); run the server from the project folder with its dependencies installed`);
  return file;
}

/**
 * A small bootstrap registers tsx in the new thread, then imports the worker's source (Node 20
 * applies `--import` loaders to a worker's entry too late for a .ts entry).
 */
export function startWorker(name: string, workerData: unknown): Worker {
  const api = JSON.stringify(pathToFileURL(tsxApi()).href);
  const entry = JSON.stringify(pathToFileURL(workerFile(name)).href);
  const bootstrap = `import(${api}).then((tsx) => { tsx.register(); return import(${entry}); }).catch((error) => { process.nextTick(() => { throw error; }); });`;
  return new Worker(bootstrap, { eval: true, workerData, env: { ...process.env } });
}
