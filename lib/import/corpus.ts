/**
 * The text behind a graph: corpus passages (bundles) or the source files of a graphify
 * project. Later steps quote it as evidence, so it is stored with the graph.
 */
import type { GraphEdge, GraphNode } from "../graph/model";

export interface CorpusDocument {
  /** How the graph refers to it: a passage id, or a node's `source_file` value verbatim. */
  docId: string;
  kind: "passage" | "file";
  title: string | null;
  /** For files: the path relative to the project root it was read from. */
  path: string | null;
  text: string;
}

/** Document ids behind a node or edge (`source_passage` for bundles, `source_file` for graphify). */
export function documentIdsOf(item: GraphNode | GraphEdge): string[] {
  const ids: string[] = [];
  const passage = item.attrs.source_passage;
  if (typeof passage === "string") ids.push(passage);
  const file = item.attrs.source_file;
  if (typeof file === "string" && file) ids.push(file);
  return ids;
}

/** `L42` or `L42-L50` → line numbers (1-based), or null. */
export function parseSourceLocation(location: string | null | undefined): { start: number; end: number } | null {
  if (!location) return null;
  const m = /^L(\d+)(?:\s*[-:]\s*L?(\d+))?/.exec(location.trim());
  if (!m) return null;
  const start = Number(m[1]);
  const end = m[2] ? Number(m[2]) : start;
  return { start, end: Math.max(start, end) };
}

/**
 * Candidate relative paths for a `source_file` value under a project root: the value itself,
 * then with leading folders dropped one by one (graphify records `worked/httpx/raw/client.py`
 * or absolute paths from the machine that built the graph). Never yields `..` segments or
 * absolute paths: callers must still confine the result to the root.
 */
export function sourcePathCandidates(sourceFile: string): string[] {
  const parts = sourceFile.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) return [];
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) out.push(parts.slice(i).join("/"));
  return out;
}
