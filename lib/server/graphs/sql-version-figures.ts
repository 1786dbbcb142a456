/**
 * The whole-graph figures of a version retrieved through SQL (issue #17 items 1 and 4), at what
 * the version changed: node count, edges and numeric-object edges per relation, string contexts
 * with their edge counts, and the degree histogram (nodes with an edge, per degree), plus every
 * node's degree in `NodeDegree`. sql-retrieval.ts turns them into the retrieval's figures.
 *
 * A version's figures are stored in `VersionFigures` (one small JSON row per version, for every
 * instance). The first version of a graph an instance sees, and any version whose predecessors
 * within MAX_CHAIN versions have no stored figures or no stored changeset, gets them from one
 * pass over its rows (`wholePass`, seconds at 10M edges). Otherwise each version after the
 * newest known one is derived from its predecessor's figures and its stored changeset
 * (`Changeset.ops`, applies and reverts alike): what the figures sum over — live nodes, live
 * edges, their endpoints' degrees — changes only in the rows the ops name, so the difference
 * of sums over those rows at the version and at the one before it is the difference of the
 * whole sums (`touchedFigures`; edges whose target's numeric-ness changed are among them).
 *
 * `NodeDegree` holds, for a version's base (a version whose degrees were counted whole: every
 * node with an edge has a row), one row per node and, for each later version of its chain, rows
 * only for the nodes whose degree the version changed (0 included). A node's degree at V with
 * base B is its row with the greatest version in [B, V]; no row there (rows deleted by another
 * instance's pruning) means counted, never 0. Pruning keeps what the newest DEGREE_VERSIONS
 * versions read: rows older than their oldest base, and rows superseded by a later row at or
 * before the oldest kept version (their readers read that one).
 */
import type { ChangeOp } from "../../changes/changeset";
import { parseChangeset } from "../../changes/changeset";
import { resolveDatabaseUrl } from "../db/database-url";
import { getPgPool } from "../db/pg-pool";
import type { SqlExecutor } from "../db/sql";
import { getSql } from "../db/sql";

const LIVE = (alias: string, v: string) => `${alias}"validFrom" <= ${v} AND (${alias}"validTo" IS NULL OR ${alias}"validTo" > ${v})`;
/** The ranker's numbers-or-dates test (NUMERIC_OBJECT) on the trimmed label of node `n`. */
const NUMERIC_LABEL = `regexp_replace(n."label", '^\\s+|\\s+$', '', 'g') ~ '^([0-9]{3,4}|[0-9]{4}-[0-9]{2}(-[0-9]{2})?|[0-9]+(\\.[0-9]+)?)$'`;

/** `NodeDegree` serves the degrees of this many newest versions of a graph; older versions count edges. */
export const DEGREE_VERSIONS = 4;
/** Versions derived one after another from the newest stored figures before a whole pass is cheaper. */
const MAX_CHAIN = 16;

/** A version's whole-graph figures, in a canonical order (sorted keys). */
export interface RawFigures {
  nodeCount: number;
  /** [relation, live edges, of them with a numeric-or-date target] */
  relations: [string, number, number][];
  /** [string context, live edges with it] */
  contexts: [string, number][];
  /** [degree ≥ 1, nodes with it], by degree */
  histogram: [number, number][];
}

export interface KnownFigures {
  figures: RawFigures;
  /** The base of the version's rows in `NodeDegree`, or null when its degrees are not there. */
  degreeBase: number | null;
}

/** What this process did (tests and the bench read it); `derive: false` forces whole passes (the bench's "before"). */
export const versionFigureStats = { wholePasses: 0, derived: 0, fullDegrees: 0, deltaDegrees: 0, derive: true };

function pool() {
  return getPgPool(resolveDatabaseUrl());
}

async function rows(text: string, values: unknown[]): Promise<unknown[][]> {
  return (await pool().query({ text, values, rowMode: "array" })).rows as unknown[][];
}

/**
 * A node's live degree at version $2, node `n` (columns "graphId", "nodeId"), counted from the
 * partial endpoint indexes of migration edge_live_degree_indexes (index-only, no heap read).
 */
export function countedDegreeSql(): string {
  return ["source", "target"]
    .map(
      (end) => `(SELECT COUNT(*) FROM "Edge" e WHERE e."graphId" = n."graphId" AND e."${end}" = n."nodeId" AND e."validTo" IS NULL AND e."validFrom" <= $2)
  + (SELECT COUNT(*) FROM "Edge" e WHERE e."graphId" = n."graphId" AND e."${end}" = n."nodeId" AND e."validTo" IS NOT NULL AND e."validFrom" <= $2 AND e."validTo" > $2)`,
    )
    .join("\n  + ");
}

/**
 * A node's live degree at $2 beside its row `n`: with the version's degrees tabled (`base`),
 * its newest `NodeDegree` row in [base, $2] (one backward probe of the (graphId, nodeId,
 * version) index), else — no row, or not tabled — counted.
 */
export function degreeSql(base: number | null): string {
  if (base === null) return countedDegreeSql();
  return `COALESCE((SELECT d."degree" FROM "NodeDegree" d WHERE d."graphId" = n."graphId" AND d."nodeId" = n."nodeId" AND d."version" <= $2 AND d."version" >= ${Math.trunc(base)} ORDER BY d."version" DESC LIMIT 1), ${countedDegreeSql()})`;
}

/**
 * The base of the version's degrees when every node's degree can be read from `NodeDegree` now
 * (the explorer's hubs read them all): tabled, among the newest DEGREE_VERSIONS versions, and
 * the base's rows not pruned. Null: count.
 */
export async function tabledDegreeBase(graphId: string, version: number): Promise<number | null> {
  const [r] = await rows(
    `SELECT f."degreeBase" FROM "VersionFigures" f JOIN "Graph" g ON g."id" = f."graphId"
     WHERE f."graphId" = $1 AND f."version" = $2 AND f."degreeBase" IS NOT NULL AND f."version" > g."currentVersion" - ${DEGREE_VERSIONS}
       AND EXISTS (SELECT 1 FROM "NodeDegree" d WHERE d."graphId" = f."graphId" AND d."version" = f."degreeBase")`,
    [graphId, version],
  );
  return r ? Number(r[0]) : null;
}

// ---------------------------------------------------------------------------------------------

function parseKnown(figures: unknown, degreeBase: unknown): KnownFigures | null {
  if (typeof figures !== "string") return null;
  return { figures: JSON.parse(figures) as RawFigures, degreeBase: degreeBase === null || degreeBase === undefined ? null : Number(degreeBase) };
}

async function readKnown(graphId: string, version: number): Promise<{ known: KnownFigures | null; degreeBase: number | null } | null> {
  const [r] = await rows(`SELECT "figures", "degreeBase" FROM "VersionFigures" WHERE "graphId" = $1 AND "version" = $2`, [graphId, version]);
  if (!r) return null;
  return { known: parseKnown(r[0], r[1]), degreeBase: r[1] === null ? null : Number(r[1]) };
}

async function newestVersion(graphId: string, version: number): Promise<number> {
  const [r] = await rows(`SELECT "currentVersion" FROM "Graph" WHERE "id" = $1`, [graphId]);
  return Math.max(version, Number(r?.[0] ?? version));
}

const inWindow = (version: number, newest: number) => version > newest - DEGREE_VERSIONS;

/** The version's figures: stored, derived from its predecessors', or from a whole pass. */
export async function versionFiguresOf(graphId: string, version: number): Promise<KnownFigures> {
  const stored = await readKnown(graphId, version);
  if (stored?.known && (stored.known.degreeBase !== null || !inWindow(version, await newestVersion(graphId, version)))) return stored.known;
  const chain = versionFigureStats.derive ? await planChain(graphId, version) : null;
  if (!chain) return wholePass(graphId, version);
  let previous = chain.from;
  for (const step of chain.steps) previous = await deriveStep(graphId, step.version, previous, step.ops);
  return previous;
}

/** The newest stored figures within MAX_CHAIN versions before `version` and the changesets after them, or null. */
async function planChain(graphId: string, version: number): Promise<{ from: KnownFigures; steps: { version: number; ops: ChangeOp[] }[] } | null> {
  const [r] = await rows(
    `SELECT "version", "figures", "degreeBase" FROM "VersionFigures" WHERE "graphId" = $1 AND "version" < $2 AND "version" >= $3 AND "figures" IS NOT NULL ORDER BY "version" DESC LIMIT 1`,
    [graphId, version, version - MAX_CHAIN],
  );
  const from = r ? parseKnown(r[1], r[2]) : null;
  if (!r || !from) return null;
  const start = Number(r[0]);
  const changesets = await rows(`SELECT "version", "ops" FROM "Changeset" WHERE "graphId" = $1 AND "version" > $2 AND "version" <= $3 ORDER BY "version"`, [graphId, start, version]);
  // Versions written without a changeset (none in the app; tests write rows directly) cannot be derived.
  if (changesets.length !== version - start || changesets.some((c, i) => Number(c[0]) !== start + 1 + i)) return null;
  return { from, steps: changesets.map((c) => ({ version: Number(c[0]), ops: parseChangeset(c[1] as string).ops })) };
}

const lock = (tx: SqlExecutor, graphId: string) => tx.query(`SELECT pg_advisory_xact_lock(hashtext(?))`, [`refinery-node-degrees:${graphId}`]);

async function store(tx: SqlExecutor, graphId: string, version: number, figures: RawFigures | null, degreeBase: number | null): Promise<void> {
  await tx.execute(
    `INSERT INTO "VersionFigures" ("graphId", "version", "figures", "degreeBase") VALUES (?, ?, ?, ?)
     ON CONFLICT ("graphId", "version") DO UPDATE SET "figures" = COALESCE(EXCLUDED."figures", "VersionFigures"."figures"), "degreeBase" = COALESCE("VersionFigures"."degreeBase", EXCLUDED."degreeBase")`,
    [graphId, version, figures ? JSON.stringify(figures) : null, degreeBase],
  );
}

/** Version `version`'s figures from its predecessor's and its changeset's ops, with its degrees when they can be had. */
async function deriveStep(graphId: string, version: number, previous: KnownFigures, ops: readonly ChangeOp[]): Promise<KnownFigures> {
  return getSql().transaction(async (tx) => {
    await lock(tx, graphId);
    const newest = await newestVersion(graphId, version);
    const stored = await readKnown(graphId, version);
    // A base whose rows were pruned carries nothing on: start again from a counted base then.
    const base = previous.degreeBase !== null && (await baseHasRows(graphId, previous.degreeBase)) ? previous.degreeBase : null;
    if (stored?.known && (stored.degreeBase !== null || (base === null && !inWindow(version, newest)))) return stored.known;
    const delta = await touchedFigures(graphId, version, ops);
    const figures = stored?.known?.figures ?? applyDelta(previous.figures, delta);
    let degreeBase = stored?.degreeBase ?? null;
    if (degreeBase === null) {
      if (base !== null) {
        await writeDeltaDegrees(tx, graphId, version, delta.degrees);
        degreeBase = base;
      } else if (inWindow(version, newest)) {
        await writeFullDegrees(tx, graphId, version);
        degreeBase = version;
      }
    }
    await store(tx, graphId, version, figures, degreeBase);
    if (degreeBase !== null) await prune(tx, graphId, version, newest);
    versionFigureStats.derived++;
    return { figures, degreeBase };
  });
}

async function baseHasRows(graphId: string, base: number): Promise<boolean> {
  const [r] = await rows(`SELECT EXISTS (SELECT 1 FROM "NodeDegree" WHERE "graphId" = $1 AND "version" = $2)`, [graphId, base]);
  return r?.[0] === true;
}

/** What a version's ops change in the figures: sums over the rows they name, at the version minus at the one before. */
export interface FiguresDelta {
  nodes: number;
  relations: Map<string, [number, number]>;
  contexts: Map<string, number>;
  /** Endpoints of the changed edges: degree [before, after]. */
  degrees: Map<string, [number, number]>;
}

export async function touchedFigures(graphId: string, version: number, ops: readonly ChangeOp[]): Promise<FiguresDelta> {
  const keys = new Set<string>();
  const ids = new Set<string>();
  const ends = new Set<string>();
  const edge = (e: { key: string; source: string; target: string }) => {
    keys.add(e.key);
    ends.add(e.source);
    ends.add(e.target);
  };
  for (const op of ops) {
    if (op.op === "add_node" || op.op === "remove_node") ids.add(op.node.id);
    else if (op.op === "update_node") ids.add(op.before.id).add(op.after.id);
    else if (op.op === "add_edge" || op.op === "remove_edge") edge(op.edge);
    else {
      edge(op.before);
      edge(op.after);
    }
  }
  const idList = [...ids];
  const keyList = [...keys];
  const endList = [...ends];
  const at = async (v: number) => {
    const [nodes, numeric, degrees, contexts] = await Promise.all([
      idList.length === 0 ? [[0]] : rows(`SELECT COUNT(*) FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")} AND n."nodeId" = ANY($3::text[])`, [graphId, v, idList]),
      idList.length === 0 ? [] : rows(`SELECT DISTINCT n."nodeId" FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")} AND n."nodeId" = ANY($3::text[]) AND ${NUMERIC_LABEL}`, [graphId, v, idList]),
      endList.length === 0 ? [] : rows(`SELECT n."nodeId", ${countedDegreeSql()} FROM (SELECT $1::text AS "graphId", x AS "nodeId" FROM unnest($3::text[]) x) n`, [graphId, v, endList]),
      keyList.length === 0
        ? []
        : rows(
            `SELECT ctx, COUNT(*) FROM (
               SELECT (e."data"::jsonb) ->> 'context' AS ctx, jsonb_typeof((e."data"::jsonb) -> 'context') AS t
               FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")} AND e."edgeKey" = ANY($3::text[]) AND e."data" LIKE '%"context"%'
             ) c WHERE t = 'string' GROUP BY ctx`,
            [graphId, v, keyList],
          ),
    ]);
    return { nodes: Number(nodes[0]?.[0] ?? 0), numeric: new Set(numeric.map((r) => r[0] as string)), degrees: new Map(degrees.map((r) => [r[0] as string, Number(r[1])])), contexts };
  };
  const [before, after] = await Promise.all([at(version - 1), at(version)]);
  // Nodes whose numeric-ness changed: every live edge into them counts differently.
  const flipped = idList.filter((id) => before.numeric.has(id) !== after.numeric.has(id));
  const relationsAt = (v: number) =>
    keyList.length === 0 && flipped.length === 0
      ? Promise.resolve([] as unknown[][])
      : rows(
          `WITH touched AS MATERIALIZED (
             SELECT e."relation", e."target" FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")} AND e."edgeKey" = ANY($3::text[])
             UNION ALL
             SELECT e."relation", e."target" FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")} AND e."target" = ANY($4::text[]) AND NOT (e."edgeKey" = ANY($3::text[]))
           ), numeric AS MATERIALIZED (
             SELECT n."nodeId" FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")} AND n."nodeId" IN (SELECT "target" FROM touched) AND ${NUMERIC_LABEL}
           )
           SELECT "relation", COUNT(*), COUNT(*) FILTER (WHERE "target" IN (SELECT "nodeId" FROM numeric)) FROM touched GROUP BY "relation"`,
          [graphId, v, keyList, flipped],
        );
  const [relBefore, relAfter] = await Promise.all([relationsAt(version - 1), relationsAt(version)]);
  const relations = new Map<string, [number, number]>();
  for (const [sign, list] of [[-1, relBefore], [1, relAfter]] as const) {
    for (const [relation, n, numeric] of list) {
      const d = relations.get(relation as string) ?? [0, 0];
      relations.set(relation as string, [d[0] + sign * Number(n), d[1] + sign * Number(numeric)]);
    }
  }
  const contexts = new Map<string, number>();
  for (const [sign, list] of [[-1, before.contexts], [1, after.contexts]] as const) {
    for (const [ctx, n] of list) contexts.set(ctx as string, (contexts.get(ctx as string) ?? 0) + sign * Number(n));
  }
  const degrees = new Map<string, [number, number]>();
  for (const id of endList) degrees.set(id, [before.degrees.get(id) ?? 0, after.degrees.get(id) ?? 0]);
  return { nodes: after.nodes - before.nodes, relations, contexts, degrees };
}

/** The figures after a version from those before it and what its ops changed. */
export function applyDelta(previous: RawFigures, delta: FiguresDelta): RawFigures {
  const relations = new Map(previous.relations.map(([r, n, numeric]) => [r, [n, numeric] as [number, number]]));
  for (const [r, [n, numeric]] of delta.relations) {
    const old = relations.get(r) ?? [0, 0];
    relations.set(r, [old[0] + n, old[1] + numeric]);
  }
  const contexts = new Map(previous.contexts);
  for (const [c, n] of delta.contexts) contexts.set(c, (contexts.get(c) ?? 0) + n);
  const histogram = new Map(previous.histogram);
  const bump = (d: number, by: number) => {
    if (d > 0) histogram.set(d, (histogram.get(d) ?? 0) + by);
  };
  for (const [before, after] of delta.degrees.values()) {
    bump(before, -1);
    bump(after, 1);
  }
  return canonical({
    nodeCount: previous.nodeCount + delta.nodes,
    relations: [...relations].map(([r, [n, numeric]]) => [r, n, numeric]),
    contexts: [...contexts],
    histogram: [...histogram],
  });
}

/** Sorted, without zero entries: equal figures are equal JSON. */
function canonical(f: RawFigures): RawFigures {
  const byKey = <T extends [string, ...number[]]>(a: T, b: T) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return {
    nodeCount: f.nodeCount,
    relations: f.relations.filter(([, n]) => n !== 0).sort(byKey),
    contexts: f.contexts.filter(([, n]) => n !== 0).sort(byKey),
    histogram: f.histogram.filter(([, n]) => n !== 0).sort((a, b) => a[0] - b[0]),
  };
}

/** Rows for the nodes whose degree the version changed (0 included: an older row must not answer). */
async function writeDeltaDegrees(tx: SqlExecutor, graphId: string, version: number, degrees: ReadonlyMap<string, [number, number]>): Promise<void> {
  const changed: Record<string, number> = {};
  for (const [id, [before, after]] of degrees) if (before !== after) changed[id] = after;
  versionFigureStats.deltaDegrees++;
  if (Object.keys(changed).length === 0) return;
  await tx.execute(
    `INSERT INTO "NodeDegree" ("graphId", "version", "nodeId", "degree") SELECT ?, ?, x."key", x."value"::int FROM jsonb_each_text(?::jsonb) x
     ON CONFLICT ("graphId", "version", "nodeId") DO UPDATE SET "degree" = EXCLUDED."degree"`,
    [graphId, version, JSON.stringify(changed)],
  );
}

/** Every node's live degree at `version` (a new base): one pass over the version's edges. */
async function writeFullDegrees(tx: SqlExecutor, graphId: string, version: number): Promise<void> {
  versionFigureStats.fullDegrees++;
  await tx.execute(`DELETE FROM "NodeDegree" WHERE "graphId" = ? AND "version" = ?`, [graphId, version]);
  const written = await tx.execute(
    `INSERT INTO "NodeDegree" ("graphId", "version", "nodeId", "degree")
     SELECT ?, ?, id, COUNT(*) FROM (
       SELECT e."source" AS id FROM "Edge" e WHERE e."graphId" = ? AND ${LIVE("e.", "?")}
       UNION ALL SELECT e."target" FROM "Edge" e WHERE e."graphId" = ? AND ${LIVE("e.", "?")}
     ) ends GROUP BY id`,
    [graphId, version, graphId, version, version, graphId, version, version],
  );
  if (written >= 10_000) await tx.execute(`ANALYZE "NodeDegree"`);
}

/**
 * Keep what the newest DEGREE_VERSIONS versions read: no rows below the oldest base they read
 * through, and (once per version leaving the window, `version` - DEGREE_VERSIONS + 1) no rows
 * superseded by that version's rows. A reader of an older version then finds no row and counts.
 */
async function prune(tx: SqlExecutor, graphId: string, version: number, newest: number): Promise<void> {
  const oldest = await tx.get<{ base: number | null }>(
    `SELECT MIN("degreeBase") AS "base" FROM "VersionFigures" WHERE "graphId" = ? AND "version" > ? AND "degreeBase" IS NOT NULL`,
    [graphId, newest - DEGREE_VERSIONS],
  );
  const keepFrom = oldest?.base === null || oldest?.base === undefined ? null : Number(oldest.base);
  if (keepFrom !== null) await tx.execute(`DELETE FROM "NodeDegree" WHERE "graphId" = ? AND "version" < ?`, [graphId, keepFrom]);
  const leaving = version - DEGREE_VERSIONS + 1;
  if (keepFrom !== null && leaving > keepFrom) {
    await tx.execute(
      `DELETE FROM "NodeDegree" d WHERE d."graphId" = ? AND d."version" < ? AND d."nodeId" IN (SELECT s."nodeId" FROM "NodeDegree" s WHERE s."graphId" = ? AND s."version" = ?)`,
      [graphId, leaving, graphId, leaving],
    );
  }
}

/**
 * Figures counted over the whole version (and its degrees, a new base, when among the newest
 * versions), stored for every instance. Exported for the tests: `store` false computes only.
 */
export async function wholePass(graphId: string, version: number, options: { store?: boolean } = {}): Promise<KnownFigures> {
  const keep = options.store !== false;
  if (keep) versionFigureStats.wholePasses++;
  // The degrees beside the other passes, on a connection of their own (the pass the histogram needs anyway).
  const degrees = keep
    ? getSql().transaction(async (tx) => {
        await lock(tx, graphId);
        const stored = await readKnown(graphId, version);
        if (stored?.degreeBase !== null && stored?.degreeBase !== undefined) return stored.degreeBase;
        const newest = await newestVersion(graphId, version);
        if (!inWindow(version, newest)) return null;
        await writeFullDegrees(tx, graphId, version);
        await store(tx, graphId, version, null, version);
        await prune(tx, graphId, version, newest);
        return version;
      })
    : Promise.resolve(null);
  const [nodeCount, relations, [degreeBase, histogram], contexts] = await Promise.all([
    rows(`SELECT COUNT(*) FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")}`, [graphId, version]),
    // The few numeric nodes first, then one pass over the edges against them (a hashed subplan, no join).
    rows(
      `WITH numeric AS MATERIALIZED (
         SELECT n."nodeId" FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")} AND ${NUMERIC_LABEL}
       )
       SELECT e."relation", COUNT(*), COUNT(*) FILTER (WHERE e."target" IN (SELECT "nodeId" FROM numeric))
       FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")} GROUP BY e."relation"`,
      [graphId, version],
    ),
    degrees.then(async (base) => {
      const text =
        base === version
          ? `SELECT "degree", COUNT(*) FROM "NodeDegree" WHERE "graphId" = $1 AND "version" = $2 GROUP BY "degree" ORDER BY "degree"`
          : `SELECT d, COUNT(*) FROM (
         SELECT id, COUNT(*) AS d FROM (
           SELECT e."source" AS id FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")}
           UNION ALL SELECT e."target" FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")}
         ) ends GROUP BY id
       ) degrees GROUP BY d ORDER BY d`;
      return [base, await rows(text, [graphId, version])] as const;
    }),
    rows(
      `SELECT ctx, COUNT(*) FROM (
         SELECT (e."data"::jsonb) ->> 'context' AS ctx, jsonb_typeof((e."data"::jsonb) -> 'context') AS t
         FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")} AND e."data" LIKE '%"context"%'
       ) c WHERE t = 'string' GROUP BY ctx`,
      [graphId, version],
    ),
  ]);
  const figures = canonical({
    nodeCount: Number(nodeCount[0]?.[0] ?? 0),
    relations: relations.map(([r, n, numeric]) => [r as string, Number(n), Number(numeric)]),
    contexts: contexts.map(([c, n]) => [c as string, Number(n)]),
    histogram: histogram.map(([d, n]) => [Number(d), Number(n)]),
  });
  if (keep) await getSql().transaction((tx) => store(tx, graphId, version, figures, null));
  return { figures, degreeBase };
}
