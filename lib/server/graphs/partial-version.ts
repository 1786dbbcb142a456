/**
 * Approving, applying and reverting on graphs retrieved through SQL (issue #17 item 4): over
 * `REFINERY_SQL_RETRIEVAL_EDGES` on PostgreSQL no app instance holds the graph, so the pure
 * code of a commit — planActions, findConflicts, the obsolete-action check, the diff and its
 * drawing — runs on a small partial graph of one version holding what it reads: the changeset's
 * nodes and edges (by id and key), the nodes the actions name (by label and alias, from
 * `NodeKey`), and the edges of the nodes whose adjacency it follows.
 *
 * Why the results are the same as on the whole graph: the partial graph (sql-partial-graph.ts)
 * records every node, label and adjacency read it cannot answer completely; the code runs, what
 * it missed is fetched, and it runs again until a run misses nothing (`settleOverSql`), so it
 * read only complete answers. Two reads the partial graph cannot record are fetched up front:
 *   - edges by key (findConflicts' `edges.get`): every key of the changeset (`fetchChangeset`);
 *   - whole-graph reads of planActions: the first edge in file order (its attributes decide the
 *     style of new edges) and whether any node has a community (new nodes then get one) — each
 *     graph holds the first edge and, when there is one, a node with a community (`fetchExemplars`).
 * Rows are added in file order ((ord, pk)), as a whole load adds them, so each node's edges come
 * in the whole graph's order (a delete keeps "the first copy in file order").
 *
 * Loaded only on PostgreSQL over the setting (it loads the driver); proposals/commit-over-sql.test.ts
 * compares every path with the in-memory one.
 */
import { AppError } from "../../errors";
import type { Changeset } from "../../changes/changeset";
import type { GraphNode, KnowledgeGraph } from "../../graph/model";
import { resolveDatabaseUrl } from "../db/database-url";
import { getPgPool } from "../db/pg-pool";
import type { SqlGraphSource } from "./sql-retrieval";
import { PartialGraph } from "./sql-partial-graph";
import type { PartialGraphKnowledge } from "./sql-partial-graph";
import { ensureNodeKeys } from "./sql-node-keys";
import { metaFromText, nodeFromColumns } from "./graph-rows";

const LIVE = (alias: string, v: string) => `${alias}"validFrom" <= ${v} AND (${alias}"validTo" IS NULL OR ${alias}"validTo" > ${v})`;
const NODE_COLUMNS = `n."pk", n."nodeId", n."label", n."normLabel", n."ord", n."data"`;
const EDGE_COLUMNS = `e."pk", e."edgeKey", e."source", e."target", e."relation", e."ord", e."data"`;
/** The partial btree index on NodeKey keeps keys up to this length (migration node_keys). */
const INDEXED_KEY = 1000;
/** Rounds before giving up: a plan needs a few (names, then adjacency, then a merge's neighbours). */
const MAX_ROUNDS = 40;

/**
 * A node's live degree at version $2 (resolveName ranks tied candidates by degree): counted from
 * the partial endpoint indexes of migration edge_live_degree_indexes (index-only, no heap read).
 */
const DEGREE = ["source", "target"]
  .map(
    (end) => `(SELECT COUNT(*) FROM "Edge" d WHERE d."graphId" = n."graphId" AND d."${end}" = n."nodeId" AND d."validTo" IS NULL AND d."validFrom" <= $2)
  + (SELECT COUNT(*) FROM "Edge" d WHERE d."graphId" = n."graphId" AND d."${end}" = n."nodeId" AND d."validTo" IS NOT NULL AND d."validFrom" <= $2 AND d."validTo" > $2)`,
  )
  .join("\n  + ");

interface NodeRow {
  node: GraphNode;
  pk: number;
}

/**
 * Degrees of the held nodes, counted only when read: only resolveName's tie-break among several
 * matches reads one, and counting beside every row (a hub's thousands of neighbours) cost
 * 60–400 ms a statement at 1M edges. `has` is true for every held node (so the partial graph
 * takes it as held); `get` is undefined until counted, and the read is recorded as a miss of
 * the id, which `fetchIds` answers by counting.
 */
class LazyDegrees implements ReadonlyMap<string, number> {
  readonly counted = new Map<string, number>();
  constructor(private readonly held: ReadonlyMap<string, unknown>) {}
  get size(): number {
    return this.held.size;
  }
  has(id: string): boolean {
    return this.held.has(id);
  }
  get(id: string): number | undefined {
    return this.counted.get(id);
  }
  forEach(visit: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (const [k, v] of this.counted) visit(v, k, this);
  }
  entries(): MapIterator<[string, number]> {
    return this.counted.entries();
  }
  keys(): MapIterator<string> {
    return this.counted.keys();
  }
  values(): MapIterator<number> {
    return this.counted.values();
  }
  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.counted.entries();
  }
}

interface EdgeRow {
  key: string;
  source: string;
  target: string;
  relation: string;
  ord: number;
  data: string | null;
  pk: number;
}

/** SQL statements run by the commit paths of this process (the tests and the bench read it). */
export const sqlCommitStats = { queries: 0, sqlMs: 0, rounds: 0 };

async function rows(text: string, values: unknown[]): Promise<unknown[][]> {
  sqlCommitStats.queries++;
  const t0 = performance.now();
  try {
    return (await getPgPool(resolveDatabaseUrl()).query({ text, values, rowMode: "array" })).rows as unknown[][];
  } finally {
    sqlCommitStats.sqlMs += performance.now() - t0;
  }
}

/** What one version's partial graph has fetched; the knowledge its PartialGraph answers from. */
export class CommitRows implements PartialGraphKnowledge {
  readonly nodes = new Map<string, NodeRow>();
  readonly edges = new Map<string, EdgeRow>();
  readonly degrees = new LazyDegrees(this.nodes);
  readonly complete = new Set<string>();
  readonly absent = new Set<string>();
  readonly norms = new Set<string>();

  constructor(readonly source: SqlGraphSource) {}

  private take(r: unknown[], at: number): void {
    const id = r[at + 1] as string;
    if (this.nodes.has(id)) return;
    const node = nodeFromColumns(id, r[at + 2] as string, r[at + 3] as string, Number(r[at + 4]), r[at + 5] as string | null);
    this.nodes.set(id, { node, pk: Number(r[at]) });
    this.absent.delete(id);
  }

  private takeEdge(r: unknown[]): EdgeRow {
    const row: EdgeRow = { pk: Number(r[0]), key: r[1] as string, source: r[2] as string, target: r[3] as string, relation: r[4] as string, ord: Number(r[5]), data: r[6] as string | null };
    if (!this.edges.has(row.key)) this.edges.set(row.key, row);
    return row;
  }

  /** Rows of these ids (absent ones remembered). */
  async fetchIds(ids: Iterable<string>): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.nodes.has(id) && !this.absent.has(id));
    if (wanted.length === 0) return;
    const { graphId, version } = this.source;
    const result = await rows(`SELECT ${NODE_COLUMNS} FROM "Node" n WHERE n."graphId" = $1 AND n."nodeId" = ANY($3) AND ${LIVE("n.", "$2")}`, [graphId, version, wanted]);
    for (const r of result) this.take(r, 0);
    for (const id of wanted) if (!this.nodes.has(id)) this.absent.add(id);
  }

  /** What a run missed by id: the rows of ids not held, the degrees of held nodes it read one of. */
  async fetchMissedIds(ids: Iterable<string>): Promise<void> {
    const unique = [...new Set(ids)];
    const uncounted = unique.filter((id) => this.nodes.has(id) && !this.degrees.counted.has(id));
    const count = async () => {
      if (uncounted.length === 0) return;
      const { graphId, version } = this.source;
      const result = await rows(`SELECT n."nodeId", ${DEGREE} FROM "Node" n WHERE n."graphId" = $1 AND n."nodeId" = ANY($3) AND ${LIVE("n.", "$2")}`, [graphId, version, uncounted]);
      for (const r of result) this.degrees.counted.set(r[0] as string, Number(r[1]));
    };
    await Promise.all([this.fetchIds(unique), count()]);
  }

  /** Nodes whose normalised label or a normalised alias is one of `norms` (the graph's label index). */
  async fetchNorms(norms: Iterable<string>): Promise<void> {
    const wanted = [...new Set(norms)].filter((n) => !this.norms.has(n));
    if (wanted.length === 0) return;
    const { graphId, version } = this.source;
    await ensureNodeKeys(graphId, version);
    const short = wanted.filter((k) => k.length <= INDEXED_KEY);
    const long = wanted.filter((k) => k.length > INDEXED_KEY);
    const statements: Promise<unknown[][]>[] = [];
    if (short.length > 0) {
      statements.push(
        rows(
          `SELECT ${NODE_COLUMNS} FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}
           WHERE k."graphId" = $1 AND k."kind" IN ('l', 'a') AND k."key" = ANY($3) AND length(k."key") <= ${INDEXED_KEY}`,
          [graphId, version, short],
        ),
      );
    }
    for (const key of long) {
      statements.push(
        rows(
          `SELECT ${NODE_COLUMNS} FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}
           WHERE k."graphId" = $1 AND k."kind" IN ('l', 'a') AND k."key" = $3`,
          [graphId, version, key],
        ),
      );
    }
    for (const result of await Promise.all(statements)) for (const r of result) this.take(r, 0);
    for (const n of wanted) this.norms.add(n);
  }

  /** Every live edge of `ids` and the nodes at their other ends. */
  async fetchAdjacency(ids: Iterable<string>): Promise<void> {
    const asked = [...new Set(ids)].filter((id) => !this.complete.has(id));
    if (asked.length === 0) return;
    await this.fetchIds(asked);
    const present = asked.filter((id) => this.nodes.has(id));
    if (present.length === 0) return;
    const { graphId, version } = this.source;
    // Two index scans (by source, by target) rather than one OR the planner may not split.
    const result = await rows(
      `SELECT ${EDGE_COLUMNS} FROM "Edge" e WHERE e."graphId" = $1 AND e."source" = ANY($3) AND ${LIVE("e.", "$2")}
       UNION
       SELECT ${EDGE_COLUMNS} FROM "Edge" e WHERE e."graphId" = $1 AND e."target" = ANY($3) AND ${LIVE("e.", "$2")}`,
      [graphId, version, present],
    );
    const ends: string[] = [];
    for (const r of result) {
      const row = this.takeEdge(r);
      ends.push(row.source, row.target);
    }
    await this.fetchIds(ends);
    for (const id of present) this.complete.add(id);
  }

  /** Edges by key (live at this version) and their endpoints. */
  async fetchEdges(keys: Iterable<string>): Promise<void> {
    const wanted = [...new Set(keys)].filter((k) => !this.edges.has(k));
    if (wanted.length === 0) return;
    const { graphId, version } = this.source;
    const result = await rows(`SELECT ${EDGE_COLUMNS} FROM "Edge" e WHERE e."graphId" = $1 AND e."edgeKey" = ANY($3) AND ${LIVE("e.", "$2")}`, [graphId, version, wanted]);
    const ends: string[] = [];
    for (const r of result) {
      const row = this.takeEdge(r);
      ends.push(row.source, row.target);
    }
    await this.fetchIds(ends);
  }

  /**
   * What findConflicts reads of a changeset: its nodes and edge endpoints by id, its edges by key,
   * every edge of the nodes it removes.
   */
  async fetchChangeset(changeset: Changeset): Promise<void> {
    const ids: string[] = [];
    const keys: string[] = [];
    const removed: string[] = [];
    for (const op of changeset.ops) {
      if (op.op === "add_node" || op.op === "remove_node") ids.push(op.node.id);
      if (op.op === "remove_node") removed.push(op.node.id);
      if (op.op === "update_node") ids.push(op.before.id, op.after.id);
      if (op.op === "add_edge" || op.op === "remove_edge") {
        keys.push(op.edge.key);
        ids.push(op.edge.source, op.edge.target);
      }
      if (op.op === "update_edge") {
        keys.push(op.before.key, op.after.key);
        ids.push(op.before.source, op.before.target, op.after.source, op.after.target);
      }
    }
    await Promise.all([this.fetchIds(ids), this.fetchEdges(keys), this.fetchAdjacency(removed)]);
  }

  /** The first edge in file order and a node with a community (if any): what planActions looks at over the whole graph. */
  async fetchExemplars(): Promise<void> {
    const { graphId, version } = this.source;
    const [first, community] = await Promise.all([
      rows(`SELECT ${EDGE_COLUMNS} FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")} ORDER BY e."ord", e."pk" LIMIT 1`, [graphId, version]),
      communityNode(this.source),
    ]);
    const ends: string[] = [];
    for (const r of first) {
      const row = this.takeEdge(r);
      ends.push(row.source, row.target);
    }
    if (community) ends.push(community);
    await this.fetchIds(ends);
  }

  /** The partial graph of what is fetched, nodes and edges in the order a whole load adds them. */
  build(): PartialGraph {
    const graph = new PartialGraph(metaFromText(this.source.meta), this);
    const byOrd = <T extends { pk: number }>(ord: (x: T) => number) => (a: T, b: T) => ord(a) - ord(b) || a.pk - b.pk;
    for (const { node } of [...this.nodes.values()].sort(byOrd<NodeRow>((x) => x.node.ord ?? 0))) graph.addNode({ ...node });
    for (const e of [...this.edges.values()].sort(byOrd<EdgeRow>((x) => x.ord))) {
      if (this.nodes.has(e.source) && this.nodes.has(e.target)) graph.addEdgeRow(e.key, e.source, e.target, e.relation, e.ord, e.data);
    }
    return graph;
  }
}

// ---------------------------------------------------------------------------------------------
// Whether any node has a community: one scan per graph and process, carried across versions

/** Per graph: the version last checked, and a node of it with a community (null: none). */
const communities = new Map<string, { version: number; nodeId: string | null }>();

/** Candidate rows whose data has a non-null `"community"` (checked again on the parsed node). */
const COMMUNITY_PAGE = 200;

async function scanCommunity(source: SqlGraphSource): Promise<string | null> {
  let after = 0;
  for (;;) {
    const page = await rows(
      `SELECT ${NODE_COLUMNS} FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")} AND n."pk" > $3
         AND n."data" ~ '"community"\\s*:\\s*[^\\sn]' ORDER BY n."pk" LIMIT ${COMMUNITY_PAGE}`,
      [source.graphId, source.version, after],
    );
    for (const r of page) {
      const node = nodeFromColumns(r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null);
      if (node.community !== null) return node.id;
    }
    if (page.length < COMMUNITY_PAGE) return null;
    after = Number((page[page.length - 1] as unknown[])[0]);
  }
}

/**
 * A node of the version with a community, or null. Carried over from the version last checked
 * (older or newer) when the changesets between them say it still holds — the node is there with
 * a community at this version; or there was none and no changeset between mentions a community —
 * otherwise the nodes are scanned.
 */
async function communityNode(source: SqlGraphSource): Promise<string | null> {
  const known = communities.get(source.graphId);
  let found: string | null | undefined;
  if (known && known.version === source.version) found = known.nodeId;
  else if (known && known.nodeId !== null) {
    const [r] = await rows(`SELECT ${NODE_COLUMNS} FROM "Node" n WHERE n."graphId" = $1 AND n."nodeId" = $3 AND ${LIVE("n.", "$2")}`, [source.graphId, source.version, known.nodeId]);
    if (r && nodeFromColumns(r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null).community !== null) found = known.nodeId;
  } else if (known) {
    // Ops carry the nodes they add, remove or update with their attributes: a community among them is in their text.
    const [r] = await rows(`SELECT COUNT(*) FROM "Changeset" WHERE "graphId" = $1 AND "version" > $2 AND "version" <= $3 AND "ops" LIKE '%"community"%'`, [
      source.graphId,
      Math.min(known.version, source.version),
      Math.max(known.version, source.version),
    ]);
    if (Number(r?.[0]) === 0) found = null;
  }
  if (found === undefined) found = await scanCommunity(source);
  if (!known || known.version <= source.version) communities.set(source.graphId, { version: source.version, nodeId: found });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Running pure code on a partial graph until it reads nothing the graph lacks

export interface Settled<T> {
  result: T;
  graph: KnowledgeGraph;
  rows: CommitRows;
  rounds: number;
}

/**
 * Run `run` on partial graphs of `source` until a run misses nothing. A run that throws (a plan
 * refusing "no node named …") counts only once it missed nothing: a name not fetched yet is not
 * a name the graph lacks. `prefetch` fetches what the graph cannot record (edges by key); `more`
 * (after a run that missed nothing) fetches reads the graph cannot record either and says whether
 * it found anything new (then the run is repeated). `exemplars: false` skips the community
 * exemplars a commit's review reads (the explorer does not).
 */
export async function settleOverSql<T>(
  source: SqlGraphSource,
  run: (graph: KnowledgeGraph) => T,
  prefetch?: (rows: CommitRows) => Promise<void>,
  rows = new CommitRows(source),
  options: { exemplars?: boolean; more?: (rows: CommitRows, graph: KnowledgeGraph) => Promise<boolean> } = {},
): Promise<Settled<T>> {
  await Promise.all([options.exemplars === false ? null : rows.fetchExemplars(), prefetch?.(rows)]);
  for (let round = 1; ; round++) {
    sqlCommitStats.rounds++;
    const graph = rows.build();
    let outcome: { ok: true; result: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: run(graph) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (!graph.hasMisses() && !(options.more && (await options.more(rows, graph)))) {
      if (!outcome.ok) throw outcome.error;
      return { result: outcome.result, graph, rows, rounds: round };
    }
    if (round >= MAX_ROUNDS) throw new AppError("INTERNAL", `the partial graph of version ${source.version} did not settle after ${MAX_ROUNDS} rounds`);
    if (!graph.hasMisses()) continue;
    const { ids, adjacency, norms } = graph.misses;
    await Promise.all([rows.fetchNorms(norms), rows.fetchMissedIds(ids), rows.fetchAdjacency(adjacency)]);
  }
}
