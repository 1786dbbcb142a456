/**
 * The actions a version applied, as sentences with readable node names. Since summaries are
 * stored as data (a `change` with ids and labels, and its sentence made when the version was
 * committed), new rows are read as they are. Rows committed before that kept only a text naming
 * node ids: those are read back into a change (lib/changes/parse-legacy-summary.ts) and named by
 * the labels in the changeset's own ops, or else the node's latest stored row.
 */
import type { ActionChange } from "../../changes/describe-change";
import { parseLegacySummary } from "../../changes/parse-legacy-summary";
import { parseChangeset } from "../../changes/changeset";
import type { PlannedAction } from "../../changes/plan-actions";
import { findNodeNames } from "../graphs";
import { describeChange, nameFromDisplayNames, nodeRefsOf } from "../../changes/describe-change";
import { getSql } from "../db/sql";

export interface VersionAction {
  index: number;
  /** A sentence naming nodes by label. */
  summary: string;
  skipped: boolean;
  /** The change as data (node ids and labels); null for an old row whose text has no known shape. */
  change: ActionChange | null;
}

interface StoredAction {
  index: number;
  summary: string;
  skipped: boolean;
  change?: ActionChange;
}

/** What the Changeset row stores in its `summary` column. */
export function storedActions(actions: PlannedAction[]): string {
  return JSON.stringify(actions.map((a) => ({ index: a.index, summary: a.summary, skipped: a.skipped, change: a.change })));
}

/** Up to this many ids per label query (SQLite's parameter limit is far above; PostgreSQL's too). */
const IDS_PER_QUERY = 500;

async function labelsOfIds(graphId: string, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY);
    // Newest row last, so a later label wins: the name the node has now or had last.
    const rows = await getSql().query<{ nodeId: string; label: string }>(
      `SELECT "nodeId", "label" FROM "Node" WHERE "graphId" = ? AND "nodeId" IN (${chunk.map(() => "?").join(", ")}) ORDER BY "validFrom"`,
      [graphId, ...chunk],
    );
    for (const r of rows) out.set(r.nodeId, r.label);
  }
  return out;
}

/** Every id an old summary text could name: the changeset's nodes and edge ends, with the labels its ops carry. */
function labelsInOps(ops: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const op of parseChangeset(ops).ops) {
    if (op.op === "add_node" || op.op === "remove_node") out.set(op.node.id, op.node.label);
    else if (op.op === "update_node") out.set(op.before.id, op.before.label);
    else {
      const edge = op.op === "update_edge" ? op.before : op.edge;
      for (const end of [edge.source, edge.target]) if (!out.has(end)) out.set(end, undefined);
    }
  }
  return out;
}

/** The readable actions of changeset rows, by version. */
export async function readVersionActions(graphId: string, rows: { version: number; summary: string; ops: string }[]): Promise<Map<number, VersionAction[]>> {
  const out = new Map<number, VersionAction[]>();
  const legacy: { version: number; actions: StoredAction[]; labels: Map<string, string | undefined> }[] = [];
  for (const row of rows) {
    const actions = JSON.parse(row.summary) as StoredAction[];
    if (actions.every((a) => a.change)) {
      out.set(
        row.version,
        actions.map((a) => ({ index: a.index, summary: a.summary, skipped: a.skipped, change: a.change ?? null })),
      );
    } else legacy.push({ version: row.version, actions, labels: labelsInOps(row.ops) });
  }
  if (legacy.length === 0) return out;
  const unknown = new Set<string>();
  for (const l of legacy) for (const [id, label] of l.labels) if (label === undefined) unknown.add(id);
  const stored = await labelsOfIds(graphId, [...unknown]);
  for (const l of legacy) {
    const labelOf = (id: string) => l.labels.get(id) ?? stored.get(id);
    out.set(
      l.version,
      l.actions.map((a) => {
        const change = a.change ?? parseLegacySummary(a.summary, labelOf);
        return { index: a.index, summary: change ? describeChange(change) : a.summary, skipped: a.skipped, change };
      }),
    );
  }
  return out;
}

/**
 * Planned actions named as the proposal page names nodes: passage titles where two nodes share
 * a label (the plan itself only knows files). Names are looked up on the graph's current version.
 */
export async function describePlannedActions<T extends { change: ActionChange; summary: string }>(graph: string, actions: T[]): Promise<T[]> {
  const ids = actions.flatMap((a) => nodeRefsOf(a.change).map((r) => r.id));
  if (ids.length === 0) return actions;
  const names = await findNodeNames({ graph, ids });
  if (!names.some((n) => n.secondary !== null)) return actions;
  const nameOf = nameFromDisplayNames(names);
  return actions.map((a) => ({ ...a, summary: describeChange(a.change, nameOf) }));
}
