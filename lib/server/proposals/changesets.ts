/**
 * Committing changesets as new graph versions, reverting them, and diffing versions.
 *
 * A commit is one write transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: the Graph row locked
 * FOR UPDATE, so writers of one graph are serialised on either): it checks
 * the graph is still at the version the changeset was checked against (if not, and nothing it
 * touches changed, it is checked and tried again on the new version), closes the rows of
 * removed/updated nodes and edges (validTo = new version), inserts the new rows, bumps the
 * version and records the changeset with its inverse and its audit event. Anything that fails
 * rolls it all back.
 */
import { AppError } from "../../errors";
import type { ChangeOp, Changeset, EdgeState, NodeState } from "../../changes/changeset";
import { findConflicts, invertChangeset, parseChangeset, serializeChangeset } from "../../changes/changeset";
import type { GraphDiff } from "../../changes/diff";
import { diffChangesets } from "../../changes/diff";
import type { DiffGraph } from "../../changes/diff-graph";
import { buildDiffGraph } from "../../changes/diff-graph";
import type { Merge, PlannedAction } from "../../changes/plan-actions";
import { edgeFromState, nodeFromState } from "../../changes/changeset";
import type { Conflict } from "../../changes/changeset";
import type { KnowledgeGraph } from "../../graph/model";
import { advanceCachedGraph, findSqlRunGraph, findVersionCounts, getGraphRecord, loadGraph, versionSource } from "../graphs";
import type { SqlGraphSource } from "../graphs";
import { settleOnSql } from "../graphs";
import { edgeToRow, nodeToRow } from "../graphs";
import { dismissStaleApprovalsAfterCommit } from "../policies";
import { markObsoleteActionsAfterCommit } from "./obsolete-actions";
import type { SqlExecutor } from "../db/sql";
import { getSql } from "../db/sql";
import type { Actor } from "../../auth/permissions";
import type { AuditInput } from "../audit";
import { recordAuditSql } from "../audit";
import { revertAuditInput } from "./record-revert";
import type { VersionAction } from "./version-actions";
import { readVersionActions, storedActions } from "./version-actions";

export interface CommitOptions {
  graph: string;
  baseVersion: number;
  changeset: Changeset;
  merges?: Merge[];
  actions?: PlannedAction[];
  kind: "apply" | "revert";
  message: string;
  proposalId?: string | null;
  revertOf?: number | null;
  actor?: string | null;
  /** Extra writes that must commit or fail together with the version (proposal statuses). */
  inTransaction?: (tx: SqlExecutor, version: number) => Promise<void> | void;
  /** The prefix new edge keys were planned with (`v7.`): moved to the version actually written. */
  edgeKeyPrefix?: string;
  /** The audit event of the change, written in the commit's own transaction. */
  audit?: (version: number) => { actor: Actor; input: AuditInput };
}

export interface CommitResult {
  version: number;
  changesetId: number;
  diff: GraphDiff;
}

/** How often a commit is tried again when only the version moved (another commit landed first). */
const MAX_COMMIT_ATTEMPTS = 30;

/** Thrown inside the commit transaction when another commit moved the graph since it was loaded. */
class VersionMoved extends Error {
  constructor(readonly currentVersion: number) {
    super(`the graph moved to version ${currentVersion}`);
  }
}

/**
 * Commit a changeset as the next version. A commit conflicts only when what it touches changed:
 * if another commit merely moved the version meanwhile, the changeset is checked again against
 * the new version and tried again (up to MAX_COMMIT_ATTEMPTS times; each round one writer wins).
 */
export async function commitChangeset(options: CommitOptions): Promise<CommitResult> {
  const record = await getGraphRecord(options.graph);
  for (let attempt = 1; ; attempt++) {
    const current = await readCurrent(options, (version) => rekeyAddedEdges(options.changeset, options.edgeKeyPrefix, version + 1));
    const { changeset, conflicts } = current;
    if (conflicts.length > 0) {
      throw new AppError(
        "CONFLICT",
        `${options.kind === "revert" ? `later versions changed what version ${options.baseVersion} touched` : `the graph changed since version ${options.baseVersion} in ways this change touches`} (now at version ${current.version}): ${conflicts
          .slice(0, 5)
          .map((c) => c.message)
          .join("; ")}${conflicts.length > 5 ? `; and ${conflicts.length - 5} more` : ""}. Nothing was changed.`,
        { conflicts, currentVersion: current.version },
      );
    }
    const version = current.version + 1;
    let written: { changesetId: number; changeset: Changeset };
    try {
      written = await writeVersion({ options, changeset, graphId: record.id, current });
    } catch (error) {
      if (!(error instanceof VersionMoved)) throw error;
      if (attempt >= MAX_COMMIT_ATTEMPTS) {
        throw new AppError("CONFLICT", `the graph kept moving (now at version ${error.currentVersion}) while this change was being applied; nothing was changed, try again`, {
          currentVersion: error.currentVersion,
          retryable: true,
        });
      }
      // A little jitter so writers that lost the same round do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5 * attempt)));
      continue;
    }
    // Only now that the transaction committed: the cached graph moves to the new version in
    // O(change), with the positions the rows were written at; `current.graph` keeps showing its own.
    // A graph retrieved through SQL has no whole version in memory to move.
    if (!current.sql) advanceCachedGraph({ graphId: record.id, from: current.version, to: version, changeset: written.changeset, prepare: versionSource(record).prepare });
    const changesetId = written.changesetId;
    await dismissStaleApprovalsAfterCommit({ graph: options.graph });
    await markObsoleteActionsAfterCommit({
      graph: options.graph,
      version,
      changeset,
      before: current.graph,
      ...(current.sql ? { sql: { before: current.sql, after: { ...current.sql, version } } } : {}),
    });
    return { version, changesetId, diff: current.diff() };
  }
}

/** The graph a commit is checked against: the current version whole, or (over SQL) the partial graph of what the changeset touches. */
interface CurrentGraph {
  version: number;
  graph: KnowledgeGraph;
  changeset: Changeset;
  conflicts: Conflict[];
  /** The version's counts when known without the graph (over SQL). */
  counts: { nodes: number; edges: number } | null;
  sql: SqlGraphSource | null;
  diff(): GraphDiff;
}

async function readCurrent(options: CommitOptions, plan: (version: number) => Changeset): Promise<CurrentGraph> {
  const sql = await findSqlRunGraph(options.graph);
  const diffOn = (graph: KnowledgeGraph, changeset: Changeset) => diffChangesets({ changesets: [changeset], merges: options.merges, labelOf: (id) => graph.getNode(id)?.label ?? id });
  if (!sql) {
    const loaded = await loadGraph(options.graph);
    const changeset = plan(loaded.version);
    return { version: loaded.version, graph: loaded.graph, changeset, conflicts: findConflicts(loaded.graph, changeset), counts: null, sql: null, diff: () => diffOn(loaded.graph, changeset) };
  }
  const changeset = plan(sql.source.version);
  // The diff names nodes by their labels in this version: computed on the same partial graph, settled with the check.
  const settled = await settleOnSql(
    sql.source,
    (graph) => ({ conflicts: findConflicts(graph, changeset), diff: diffOn(graph, changeset) }),
    (rows) => rows.fetchChangeset(changeset),
  );
  const counts = await findVersionCounts(sql.source.graphId, sql.source.version);
  return {
    version: sql.source.version,
    graph: settled.graph,
    changeset,
    conflicts: settled.result.conflicts,
    counts: counts && { nodes: counts.nodeCount, edges: counts.edgeCount },
    sql: sql.source,
    diff: () => settled.result.diff,
  };
}

/**
 * New edge keys are planned as `v<next version>.<n>`; when the version moved, two commits would
 * both write `v7.0`, so the keys of a changeset planned under `prefix` move to the version it
 * is actually written as (only keys the changeset itself creates, never re-added old edges).
 */
function rekeyAddedEdges(changeset: Changeset, prefix: string | undefined, version: number): Changeset {
  const target = `v${version}.`;
  if (!prefix || prefix === target) return changeset;
  const rename = (key: string) => (key.startsWith(prefix) ? `${target}${key.slice(prefix.length)}` : key);
  return {
    ...changeset,
    ops: changeset.ops.map((op) => {
      switch (op.op) {
        case "add_edge":
          return { ...op, edge: { ...op.edge, key: rename(op.edge.key) } };
        case "remove_edge":
          return { ...op, edge: { ...op.edge, key: rename(op.edge.key) } };
        case "update_edge":
          return { ...op, before: { ...op.before, key: rename(op.before.key) }, after: { ...op.after, key: rename(op.after.key) } };
        default:
          return op;
      }
    }),
  };
}

/** Writes the version; returns the changeset as written (added and updated items with their positions). */
async function writeVersion(args: { options: CommitOptions; changeset: Changeset; graphId: string; current: CurrentGraph }): Promise<{ changesetId: number; changeset: Changeset }> {
  const { options, changeset: planned, graphId, current } = args;
  const now = new Date();
  const version = current.version + 1;
  return getSql().transaction(async (db) => {
    const row = await db.get<{ currentVersion: number }>(`SELECT "currentVersion" FROM "Graph" WHERE "id" = ?${db.forUpdate}`, [graphId]);
    if (!row) throw new AppError("NOT_FOUND", `graph ${JSON.stringify(options.graph)} was deleted`);
    if (row.currentVersion !== current.version) throw new VersionMoved(row.currentVersion);
    const changeset = await writeOps(db, graphId, version, planned);
    const inverse = invertChangeset(changeset);
    // Counts move by the ops' adds and removes: no scan of a 272k-edge table per apply.
    const previous = await db.get<{ nodeCount: number; edgeCount: number }>(
      `SELECT "nodeCount", "edgeCount" FROM "GraphVersion" WHERE "graphId" = ? AND "version" = ?`,
      [graphId, current.version],
    );
    const delta = countDelta(changeset);
    const before = previous ?? (current.counts ? { nodeCount: current.counts.nodes, edgeCount: current.counts.edges } : { nodeCount: current.graph.nodes.size, edgeCount: current.graph.edges.size });
    const counts = { nodes: Number(before.nodeCount) + delta.nodes, edges: Number(before.edgeCount) + delta.edges };
    await db.execute(`UPDATE "Graph" SET "currentVersion" = ?, "updatedAt" = ? WHERE "id" = ?`, [version, now, graphId]);
    await db.execute(`INSERT INTO "GraphVersion" ("graphId", "version", "message", "nodeCount", "edgeCount", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`, [
      graphId,
      version,
      options.message,
      counts.nodes,
      counts.edges,
      now,
    ]);
    const inserted = await db.get<{ id: number }>(
      `INSERT INTO "Changeset" ("graphId", "version", "baseVersion", "kind", "ops", "inverse", "merges", "summary", "message", "proposalId", "revertOf", "actor", "createdAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id"`,
      [
        graphId,
        version,
        options.baseVersion,
        options.kind,
        serializeChangeset(changeset),
        serializeChangeset(inverse),
        JSON.stringify(options.merges ?? []),
        storedActions(options.actions ?? []),
        options.message,
        options.proposalId ?? null,
        options.revertOf ?? null,
        options.actor ?? null,
        now,
      ],
    );
    await options.inTransaction?.(db, version);
    // The event exists exactly when the version does (a kill between the two loses neither).
    const audit = options.audit?.(version);
    if (audit) await recordAuditSql(db, audit.actor, audit.input);
    return { changesetId: Number(inserted?.id), changeset };
  });
}

function countDelta(changeset: Changeset): { nodes: number; edges: number } {
  let nodes = 0;
  let edges = 0;
  for (const op of changeset.ops) {
    if (op.op === "add_node") nodes++;
    else if (op.op === "remove_node") nodes--;
    else if (op.op === "add_edge") edges++;
    else if (op.op === "remove_edge") edges--;
  }
  return { nodes, edges };
}

/**
 * The rows of a version. Returns the changeset with every added or updated item's position
 * (`ord`) as written, so the stored ops (and an in-memory advance) place items as a load does.
 */
async function writeOps(db: SqlExecutor, graphId: string, version: number, changeset: Changeset): Promise<Changeset> {
  const maxOrd = async (table: "Node" | "Edge") =>
    (await db.get<{ m: number }>(`SELECT COALESCE(MAX("ord"), -1) AS "m" FROM "${table}" WHERE "graphId" = ?`, [graphId]))?.m ?? -1;
  let nextNodeOrd = (await maxOrd("Node")) + 1;
  let nextEdgeOrd = (await maxOrd("Edge")) + 1;
  const closeNode = `UPDATE "Node" SET "validTo" = ? WHERE "graphId" = ? AND "nodeId" = ? AND "validTo" IS NULL RETURNING "ord"`;
  const closeEdge = `UPDATE "Edge" SET "validTo" = ? WHERE "graphId" = ? AND "edgeKey" = ? AND "validTo" IS NULL RETURNING "ord"`;
  const insertNode = `INSERT INTO "Node" ("graphId", "nodeId", "label", "normLabel", "ord", "data", "validFrom") VALUES (?, ?, ?, ?, ?, ?, ?)`;
  const insertEdge = `INSERT INTO "Edge" ("graphId", "edgeKey", "source", "target", "relation", "ord", "data", "validFrom") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
  const close = async (statement: string, id: string, what: string): Promise<number> => {
    const row = await db.get<{ ord: number }>(statement, [version, graphId, id]);
    if (!row) throw new AppError("CONFLICT", `${what} ${JSON.stringify(id)} is no longer live; nothing was changed`);
    return row.ord;
  };
  const addNode = async (state: NodeState, ord: number): Promise<NodeState> => {
    const r = nodeToRow(nodeFromState(state), ord);
    await db.execute(insertNode, [graphId, r.nodeId, r.label, r.normLabel, r.ord, r.data, version]);
    return { ...state, ord };
  };
  const addEdge = async (state: EdgeState, ord: number): Promise<EdgeState> => {
    const r = edgeToRow(edgeFromState(state), ord);
    await db.execute(insertEdge, [graphId, r.edgeKey, r.source, r.target, r.relation, r.ord, r.data, version]);
    return { ...state, ord };
  };
  const ops: ChangeOp[] = [];
  for (const op of changeset.ops) {
    switch (op.op) {
      case "add_node":
        // A re-added node (an undo) goes back to its old position.
        ops.push({ ...op, node: await addNode(op.node, op.node.ord ?? nextNodeOrd++) });
        break;
      case "remove_node":
        await close(closeNode, op.node.id, "node");
        ops.push(op);
        break;
      case "update_node":
        // The new row keeps the old row's position, so exports keep the file order.
        ops.push({ ...op, after: await addNode(op.after, await close(closeNode, op.before.id, "node")) });
        break;
      case "add_edge":
        ops.push({ ...op, edge: await addEdge(op.edge, op.edge.ord ?? nextEdgeOrd++) });
        break;
      case "remove_edge":
        await close(closeEdge, op.edge.key, "edge");
        ops.push(op);
        break;
      case "update_edge":
        ops.push({ ...op, after: await addEdge(op.after, await close(closeEdge, op.before.key, "edge")) });
        break;
    }
  }
  return { ops };
}

interface ChangesetRow {
  id: number;
  version: number;
  baseVersion: number;
  kind: string;
  ops: string;
  inverse: string;
  merges: string;
  summary: string;
  message: string;
  proposalId: string | null;
  revertOf: number | null;
  actor: string | null;
  /** Prisma's text on SQLite, a Date on PostgreSQL. */
  createdAt: string | Date;
}

/** The largest INTEGER column value PostgreSQL accepts (a bigger parameter is an error there). */
const MAX_INT32 = 2 ** 31 - 1;

function changesetRows(graphId: string, fromExclusive: number, toInclusive: number): Promise<ChangesetRow[]> {
  return getSql().query<ChangesetRow>(`SELECT * FROM "Changeset" WHERE "graphId" = ? AND "version" > ? AND "version" <= ? ORDER BY "version"`, [
    graphId,
    fromExclusive,
    toInclusive,
  ]);
}

export interface RevertOptions {
  graph: string;
  /** Undo the changeset that created this version. */
  version: number;
  actor?: string | null;
  inTransaction?: CommitOptions["inTransaction"];
  /** Who reverts, for the `changeset.revert` audit event written in the revert's own transaction. */
  auditAs?: Actor;
}

export async function revertVersion(options: RevertOptions): Promise<CommitResult & { reverted: number }> {
  const record = await getGraphRecord(options.graph);
  if (options.version <= 1) throw new AppError("INVALID_INPUT", "version 1 is the import; there is no change to undo");
  const [row] = await changesetRows(record.id, options.version - 1, options.version);
  if (!row) throw new AppError("NOT_FOUND", `graph ${JSON.stringify(options.graph)} has no version ${options.version}`);
  const already = await getSql().get<{ version: number }>(
    `SELECT "version" FROM "Changeset" WHERE "graphId" = ? AND "kind" = 'revert' AND "revertOf" = ? ORDER BY "version" DESC LIMIT 1`,
    [record.id, options.version],
  );
  if (already) {
    throw new AppError("CONFLICT", `version ${options.version} was already undone by version ${already.version}; revert version ${already.version} to redo it`);
  }
  const inverse = parseChangeset(row.inverse);
  const merges = (JSON.parse(row.merges) as Merge[]).map((m) => ({ from: m.into, into: m.from }));
  try {
    const result = await commitChangeset({
      graph: options.graph,
      // The inverse expects the state right after `version`: that is the version it is checked against.
      baseVersion: options.version,
      changeset: inverse,
      merges,
      kind: "revert",
      message: `Undid version ${options.version} (${row.message.replace(/\.$/, "")}).`,
      revertOf: options.version,
      actor: options.actor,
      proposalId: row.proposalId,
      audit: options.auditAs ? (version) => ({ actor: options.auditAs as Actor, input: revertAuditInput({ graph: options.graph, reverted: options.version, version }) }) : undefined,
      inTransaction: async (db, version) => {
        // Actions this version applied go back to "reverted": the proposal shows they were undone.
        await db.execute(`UPDATE "ProposalAction" SET "status" = 'reverted' WHERE "appliedIn" = ? AND "proposalId" = ? AND "status" = 'applied'`, [
          options.version,
          row.proposalId,
        ]);
        await options.inTransaction?.(db, version);
      },
    });
    return { ...result, reverted: options.version };
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") {
      throw new AppError("CONFLICT", `cannot undo version ${options.version}: later changes touch the same nodes or edges (${error.message})`, error.details);
    }
    throw error;
  }
}

export interface VersionInfo {
  version: number;
  message: string;
  nodes: number;
  edges: number;
  createdAt: string;
  kind: "import" | "apply" | "revert";
  revertOf: number | null;
  revertedBy: number | null;
  proposalId: string | null;
  actor: string | null;
  /** What each applied action did, as a sentence naming nodes by label, and as data (`change`, with ids). */
  actions: VersionAction[];
}

export async function findVersions(graph: string): Promise<VersionInfo[]> {
  const record = await getGraphRecord(graph);
  const versions = await getSql().query<{ version: number; message: string; nodeCount: number; edgeCount: number; createdAt: string | Date }>(
    `SELECT "version", "message", "nodeCount", "edgeCount", "createdAt" FROM "GraphVersion" WHERE "graphId" = ? ORDER BY "version" DESC`,
    [record.id],
  );
  const changes = new Map((await changesetRows(record.id, 0, MAX_INT32)).map((c) => [c.version, c]));
  const actions = await readVersionActions(record.id, [...changes.values()]);
  const revertedBy = new Map<number, number>();
  for (const c of changes.values()) if (c.revertOf !== null) revertedBy.set(c.revertOf, c.version);
  return versions.map((v) => {
    const c = changes.get(v.version);
    return {
      version: v.version,
      message: v.message,
      nodes: v.nodeCount,
      edges: v.edgeCount,
      createdAt: new Date(v.createdAt).toISOString(),
      kind: c ? (c.kind === "revert" ? "revert" : "apply") : "import",
      revertOf: c?.revertOf ?? null,
      revertedBy: revertedBy.get(v.version) ?? null,
      proposalId: c?.proposalId ?? null,
      actor: c?.actor ?? null,
      actions: actions.get(v.version) ?? [],
    };
  });
}

/** Net difference between two versions of a graph (either order). */
export async function diffVersions(options: { graph: string; from: number; to: number }): Promise<GraphDiff & { from: number; to: number }> {
  const record = await getGraphRecord(options.graph);
  for (const v of [options.from, options.to]) {
    if (!Number.isInteger(v) || v < 1 || v > record.currentVersion) {
      throw new AppError("NOT_FOUND", `graph ${JSON.stringify(options.graph)} has versions 1..${record.currentVersion}, not ${v}`);
    }
  }
  const forward = options.from <= options.to;
  const rows = await changesetRows(record.id, Math.min(options.from, options.to), Math.max(options.from, options.to));
  const changesets = forward ? rows.map((r) => parseChangeset(r.ops)) : rows.reverse().map((r) => parseChangeset(r.inverse));
  const merges = rows.flatMap((r) => {
    const m = JSON.parse(r.merges) as Merge[];
    return forward ? m : m.map((x) => ({ from: x.into, into: x.from }));
  });
  const diffOn = (graph: KnowledgeGraph) => diffChangesets({ changesets, merges, labelOf: (id) => graph.getNode(id)?.label ?? id });
  const sql = await findSqlRunGraph(options.graph, options.to);
  let diff: GraphDiff;
  if (sql) {
    // Over SQL: the labels of the diff's nodes in `to`, read from their rows.
    diff = (await settleOnSql(sql.source, diffOn)).result;
  } else diff = diffOn((await loadGraph(options.graph, options.to)).graph);
  return { ...diff, from: options.from, to: options.to };
}

/** A version diff drawn over the neighbourhood in the older version, for the visual diff. */
export async function diffVersionsGraph(options: { graph: string; from: number; to: number }): Promise<{ diff: GraphDiff & { from: number; to: number }; graph: DiffGraph }> {
  const diff = await diffVersions(options);
  const older = Math.min(options.from, options.to);
  const sql = await findSqlRunGraph(options.graph, older);
  if (sql) {
    // Over SQL: the neighbourhood the drawing reads (the diff's nodes and their edges), fetched.
    return { diff, graph: (await settleOnSql(sql.source, (base) => buildDiffGraph({ base, diff }))).result };
  }
  const base = await loadGraph(options.graph, older);
  return { diff, graph: buildDiffGraph({ base: base.graph, diff }) };
}
