/**
 * The JSON of the version and diff endpoints, as the browser sees it. Types only: they vanish
 * at build time, so sharing them with lib/ and lib/server keeps one definition and no drift.
 */
import type { GraphDiff } from "@/lib/changes/diff";
import type { DiffGraph } from "@/lib/changes/diff-graph";
import type { VersionInfo } from "@/lib/server/proposals/changesets";

export type { DiffEdge, DiffNode, GraphDiff } from "@/lib/changes/diff";
export type { DiffGraph, DiffGraphEdge, DiffGraphNode, DiffStatus } from "@/lib/changes/diff-graph";
export type { VersionInfo };

export type VersionKind = VersionInfo["kind"];

/** GET /api/graphs/{name}/diff?from=&to= */
export interface VersionDiff {
  diff: GraphDiff & { from: number; to: number };
  graph: DiffGraph;
}

/** POST /api/graphs/{name}/versions/{version}/revert */
export interface RevertResult {
  version: number;
  changesetId: number;
  reverted: number;
  diff: GraphDiff;
}

/** Whether the change that created a version can still be undone from the UI. */
export function canUndo(version: VersionInfo): boolean {
  return version.kind !== "import" && version.revertedBy === null;
}
