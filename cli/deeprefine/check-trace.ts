/**
 * Trace validation as `loop validate`, `loop finish`, `review` and `apply` run it: Refinery's
 * validateTrace with Refinery's own constants (never the file's) and the project's graph, plus
 * the query id check the skill leaves out.
 */
import fs from "node:fs";
import path from "node:path";
import type { KnowledgeGraph } from "../../lib/graph/model";
import type { LoadedTrace } from "../../lib/loop/deeprefine-files";
import { validateTrace } from "../../lib/loop/deeprefine-files";
import { DEFAULT_LOOP_CONFIG } from "../../lib/loop/types";
import { queryIdOf } from "../../lib/questions/query-id";
import type { ProjectPaths } from "./project";
import { isFile, readText, resolveInput } from "./project";

export function traceErrors({ trace, graph, refinementText }: { trace: LoadedTrace; graph: KnowledgeGraph; refinementText?: string }): string[] {
  const errors = validateTrace({ trace, config: DEFAULT_LOOP_CONFIG, graph, refinementText }).errors;
  const question = trace.question.trim();
  if (question && trace.queryId !== null && trace.queryId !== queryIdOf(question)) {
    errors.push(`query_id ${JSON.stringify(trace.queryId)} is not the id of the query (expected ${queryIdOf(question)}: first 16 hex of sha256 of the stripped query)`);
  }
  return errors;
}

export interface TraceCheck {
  errors: string[];
  /** Set when the triples matched an earlier version of the graph (the one before apply n), not the current one. */
  matchedVersion: number | null;
}

/**
 * Check against the current graph; when that fails, against the graph before each apply, newest
 * first. A trace is made before its apply, and the apply may delete or merge the very triples
 * it retrieved: `loop finish` after `apply` must still accept it.
 */
export function checkTraceAcrossVersions({
  trace,
  graph,
  refinementText,
  earlier,
}: {
  trace: LoadedTrace;
  graph: KnowledgeGraph;
  refinementText?: string;
  earlier: () => Iterable<{ version: number; graph: () => KnowledgeGraph }>;
}): TraceCheck {
  const errors = traceErrors({ trace, graph, refinementText });
  if (errors.length === 0) return { errors, matchedVersion: null };
  for (const v of earlier()) {
    if (traceErrors({ trace, graph: v.graph(), refinementText }).length === 0) return { errors: [], matchedVersion: v.version };
  }
  return { errors, matchedVersion: null };
}

/**
 * The refinement text for a check: `--refinement-file` when given (it must exist), else the
 * trace's `refinement_action_file` when that file exists (what the skill's validate does).
 */
export function refinementTextFor({
  refinementFile,
  trace,
  paths,
  cwd,
}: {
  refinementFile?: string;
  trace: LoadedTrace;
  paths: ProjectPaths;
  cwd: string;
}): { text: string | undefined; file: string | null } {
  if (refinementFile !== undefined) {
    const file = resolveInput(refinementFile, paths, cwd);
    return { text: readText(file), file };
  }
  if (trace.refinementActionFile) {
    const file = resolveInput(trace.refinementActionFile, paths, cwd);
    if (isFile(file)) return { text: readText(file), file };
  }
  return { text: undefined, file: null };
}

/** Version folders holding a backup graph.json, newest first (for `checkTraceAcrossVersions`). */
export function backupVersionDirs(paths: ProjectPaths): { version: number; dir: string }[] {
  if (!fs.existsSync(paths.versions)) return [];
  return fs
    .readdirSync(paths.versions)
    .filter((n) => /^[1-9]\d*$/.test(n))
    .map((n) => ({ version: Number(n), dir: path.join(paths.versions, n) }))
    .filter((v) => isFile(path.join(v.dir, "graph.json")))
    .sort((a, b) => b.version - a.version);
}
