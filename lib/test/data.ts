/** Paths to the shared real-data sets (read-only, beside the checkout: ../shared/data). */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SHARED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "data");

export function dataPath(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}

export function readData(...parts: string[]): string {
  return fs.readFileSync(dataPath(...parts), "utf8");
}

export const GRAPHIFY_GRAPHS = ["httpx", "karpathy-repos", "mixed-corpus", "rsl-siege-manager"] as const;
