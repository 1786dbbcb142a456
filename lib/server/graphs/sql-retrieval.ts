/**
 * Retrieval without the whole graph in memory, on PostgreSQL (issue #17 item 4): for graphs of
 * more than `REFINERY_SQL_RETRIEVAL_EDGES` edges, `refinery query`, MCP and the other callers of
 * `queryGraph` / `expandHops` run those same pure functions on a partial graph holding exactly
 * what they read, fetched with indexed SQL. Several app instances share one database and none
 * holds the graph. Which graphs: sql-retrieval-setting.ts.
 *
 * Why the results are the same as in memory: the partial graph (sql-partial-graph.ts) records
 * every read it cannot answer completely; the retrieval runs, what it missed is fetched, and it
 * runs again until a run misses nothing, which therefore read only complete answers. What the
 * code reads over all nodes at once — the label index behind seeds and idf, the mention index
 * of the question's entities — is prefetched by the question's words from `NodeKey`
 * (sql-node-keys.ts: the same keys those indexes use, exact lookups by btree, substrings by
 * pg_trgm), and the figures of the whole graph (node count, hub degree, relations with their
 * counts, edge kinds) come from SQL once per version, derived from the previous version's and
 * the changeset when known (sql-version-figures.ts; `setWholeGraphStatistics`, the ranker's
 * `statistics`). sql-retrieval.test.ts compares both paths step by step on shared graphs.
 *
 * Caps bound every fetch the way they bound the in-memory code: the traversal's edge budget
 * (5,000) and visit cap, expansion's per-hub budget, the seed tie pool; a round fetches the
 * adjacency of the nodes the last run asked for and the rows of their new neighbours in one
 * statement (independent lookups in parallel). A fetched node's degree comes from `NodeDegree`
 * (written with the version's figures, the newest versions only: sql-version-figures.ts) or,
 * for older versions or missing rows, from index-only counts (never read as 0); the nodes are
 * frozen and cached per version, so each round's query index reuses their label keys.
 */
import { AppError } from "../../errors";
import type { GraphNode, KnowledgeGraph } from "../../graph/model";
import { tokenize } from "../../graph/normalize";
import { wordTokens } from "../../providers/heuristic/text";
import type { ExpandHopsOptions, ExpandHopsResult } from "../../retrieve/expand-hops";
import { expandHops } from "../../retrieve/expand-hops";
import type { QueryGraphOptions, QueryGraphResult } from "../../retrieve/query-graph";
import { queryGraph, questionFocus, questionTerms, setWholeGraphStatistics } from "../../retrieve/query-graph";
import type { RelationStatistics } from "../../retrieve/rank-relations";
import { configureRelationRanker } from "../../retrieve/rank-relations";
import { MAX_NAME_WORDS } from "../../providers/heuristic/graph-index";
import { resolveDatabaseUrl } from "../db/database-url";
import { getPgPool } from "../db/pg-pool";
import { metaFromText, nodeFromColumns } from "./graph-rows";
import type { PartialGraphKnowledge } from "./sql-partial-graph";
import { PartialGraph } from "./sql-partial-graph";
import { ensureNodeKeys, MAX_PHRASE_WORDS, MIN_LABEL_WORD } from "./sql-node-keys";
import { findRelationDescriptions } from "./relation-ranking";
import { degreeSql, versionFiguresOf } from "./sql-version-figures";
import type { WholeGraphFigures } from "../../campaign/sandbox-statistics";

/** One stored version, as the SQL retrieval reads it. */
export interface SqlGraphSource {
  graphId: string;
  version: number;
  sourcePath: string | null;
  /** The graph row's meta text. */
  meta: string;
}

const LIVE = (alias: string, v: string) => `${alias}"validFrom" <= ${v} AND (${alias}"validTo" IS NULL OR ${alias}"validTo" > ${v})`;
const NODE_COLUMNS = `n."pk", n."nodeId", n."label", n."normLabel", n."ord", n."data"`;
const EDGE_COLUMNS = `e."pk", e."edgeKey", e."source", e."target", e."relation", e."ord", e."data"`;
/** The partial btree index on NodeKey keeps keys up to this length. */
const INDEXED_KEY = 1000;
/** Fetch rounds before giving up: each fetches what the previous run missed, so a retrieval needs a handful. */
const MAX_ROUNDS = 40;

function pool() {
  return getPgPool(resolveDatabaseUrl());
}

async function rows(text: string, params: unknown[]): Promise<unknown[][]> {
  return (await pool().query({ text, values: params, rowMode: "array" })).rows as unknown[][];
}

// ---------------------------------------------------------------------------------------------
// Whole-graph figures, once per version

/** A version's whole-graph figures (the retrieval index's and the relation ranker's): the pure core's type. */
export type { WholeGraphFigures };

interface VersionFigures extends WholeGraphFigures {
  rows: RowCache;
  meta: ReturnType<typeof metaFromText>;
  /** Whether any node has a source file (else file substrings need no statement). */
  hasFiles: boolean;
  /** How a fetched node's degree is read at this version (`degreeSql`). */
  degree: string;
}

const figuresCache = new Map<string, Promise<VersionFigures>>();

function versionFigures(source: SqlGraphSource): Promise<VersionFigures> {
  const key = `${source.graphId}:${source.version}`;
  let pending = figuresCache.get(key);
  if (!pending) {
    pending = readFigures(source).catch((error: unknown) => {
      figuresCache.delete(key);
      throw error;
    });
    if (figuresCache.size >= 16) figuresCache.delete(figuresCache.keys().next().value as string);
    figuresCache.set(key, pending);
  }
  return pending;
}

/**
 * The version's figures: stored per version in `VersionFigures`, derived from the previous
 * version's and the changeset, or from one pass over the rows (sql-version-figures.ts).
 */
async function readFigures(source: SqlGraphSource): Promise<VersionFigures> {
  const { graphId, version } = source;
  const [{ figures, degreeBase }, files] = await Promise.all([
    versionFiguresOf(graphId, version),
    rows(`SELECT EXISTS (SELECT 1 FROM "NodeKey" WHERE "graphId" = $1 AND "kind" = 'f')`, [graphId]),
  ]);
  const { histogram, contexts } = figures;
  const n = figures.nodeCount;
  const relationStatistics = new Map<string, RelationStatistics>();
  for (const [relation, count, numeric] of figures.relations) relationStatistics.set(relation, { n: count, numeric });
  // The in-memory hub degree: max(50, the 99th percentile of every node's degree, isolated nodes at 0).
  let withEdges = 0;
  for (const [, count] of histogram) withEdges += Number(count);
  const at = Math.min(n - 1, Math.floor(0.99 * n));
  let p99 = 0;
  let seen = n - withEdges;
  if (at >= seen) {
    for (const [d, count] of histogram) {
      seen += Number(count);
      if (seen > at) {
        p99 = Number(d);
        break;
      }
    }
  }
  const relationList = [...relationStatistics.keys()];
  const descriptions = findRelationDescriptions(source.sourcePath, new Set(relationList));
  const edgeKinds = new Set<string>(relationList);
  for (const [ctx] of contexts) edgeKinds.add(ctx);
  return {
    rows: new RowCache(),
    statistics: { nodeCount: n, hubDegree: Math.max(50, p99), edgeKinds, relations: relationList },
    ranking: { statistics: relationStatistics, ...(descriptions ? { descriptions } : {}) },
    meta: metaFromText(source.meta),
    hasFiles: files[0]?.[0] === true,
    degree: degreeSql(degreeBase),
  };
}

// ---------------------------------------------------------------------------------------------
// The rows one retrieval has fetched

interface NodeRow {
  node: GraphNode;
  pk: number;
  degree: number;
}

/** An edge as stored: added to each round's graph from its columns (`addEdgeRow`, as a whole load does). */
interface EdgeRow {
  key: string;
  source: string;
  target: string;
  relation: string;
  ord: number;
  data: string | null;
  pk: number;
}

/**
 * Rows fetched for earlier questions on one version, so a warm question costs what is new to
 * it. Bounded: past `ROW_CACHE_ITEMS` nodes and edges it starts again (a retrieval keeps the
 * rows it has taken), so memory stays far below a whole graph's.
 */
class RowCache {
  readonly nodes = new Map<string, NodeRow>();
  readonly absent = new Set<string>();
  readonly edges = new Map<string, EdgeRow>();
  /** Node id → the keys of all its edges. */
  readonly adjacency = new Map<string, string[]>();
  /** Lookup ("kind\u0000key" exact, "~kind\u0000term" substring) → node ids. */
  readonly lookups = new Map<string, string[]>();

  trim(): void {
    if (this.nodes.size + this.edges.size + this.lookups.size <= ROW_CACHE_ITEMS) return;
    this.nodes.clear();
    this.absent.clear();
    this.edges.clear();
    this.adjacency.clear();
    this.lookups.clear();
  }
}

const ROW_CACHE_ITEMS = 300_000;

class FetchedRows implements PartialGraphKnowledge {
  readonly nodes = new Map<string, NodeRow>();
  readonly edges = new Map<string, EdgeRow>();
  readonly degrees = new Map<string, number>();
  readonly complete = new Set<string>();
  readonly absent = new Set<string>();
  readonly norms = new Set<string>();
  /** Question terms whose label-word lookups are fetched (`fetchTerms`). */
  readonly terms = new Set<string>();
  /** SQL statements run and the time they took, for the bench and tests. */
  queries = 0;
  sqlMs = 0;
  /** Each statement and round step with its time (ms) and rows, when tracing (the bench's profile). */
  trace: { what: string; ms: number; rows: number }[] | null = null;

  constructor(
    private readonly source: SqlGraphSource,
    private readonly cache: RowCache,
    /** The degree column's SQL at this version (`degreeSql`). */
    private readonly degree: string,
  ) {}

  private async query(text: string, params: unknown[], what = "sql"): Promise<unknown[][]> {
    this.queries++;
    const t0 = performance.now();
    let n = 0;
    try {
      const result = await rows(text, params);
      n = result.length;
      return result;
    } finally {
      const ms = performance.now() - t0;
      this.sqlMs += ms;
      this.trace?.push({ what, ms, rows: n });
    }
  }

  private take(row: NodeRow): void {
    if (this.nodes.has(row.node.id)) return;
    this.nodes.set(row.node.id, row);
    this.degrees.set(row.node.id, row.degree);
  }

  /** A node row as selected with `${NODE_COLUMNS}, ${this.degree}` starting at column `at`. */
  private nodeRow(r: unknown[], at: number): NodeRow {
    const id = r[at + 1] as string;
    const cached = this.cache.nodes.get(id);
    if (cached) return cached;
    const node = nodeFromColumns(id, r[at + 2] as string, r[at + 3] as string, Number(r[at + 4]), r[at + 5] as string | null);
    Object.freeze(node.aliases);
    const row = { node: Object.freeze(node), pk: Number(r[at]), degree: Number(r[at + 6]) };
    this.cache.nodes.set(id, row);
    return row;
  }

  async fetchIds(ids: Iterable<string>): Promise<void> {
    const wanted: string[] = [];
    for (const id of ids) {
      if (this.nodes.has(id) || this.absent.has(id)) continue;
      const cached = this.cache.nodes.get(id);
      if (cached) this.take(cached);
      else if (this.cache.absent.has(id)) this.absent.add(id);
      else wanted.push(id);
    }
    if (wanted.length === 0) return;
    const { graphId, version } = this.source;
    const result = await this.query(`SELECT ${NODE_COLUMNS}, ${this.degree} FROM unnest($3::text[]) AS w(id) JOIN "Node" n ON n."graphId" = $1 AND n."nodeId" = w.id WHERE ${LIVE("n.", "$2")}`, [graphId, version, wanted], "ids");
    for (const r of result) this.take(this.nodeRow(r, 0));
    for (const id of wanted) {
      if (this.nodes.has(id)) continue;
      this.absent.add(id);
      this.cache.absent.add(id);
    }
  }

  /**
   * The lookups not cached, and the taking of the cached ones' nodes (a statement when some are
   * not held yet): the caller awaits it beside its own statement, not before it.
   */
  private fromCache<T>(items: T[], keyOf: (item: T) => string): { missing: T[]; taken: Promise<void> } {
    const missing: T[] = [];
    const ids: string[] = [];
    for (const item of items) {
      const hit = this.cache.lookups.get(keyOf(item));
      if (hit) ids.push(...hit);
      else missing.push(item);
    }
    return { missing, taken: this.fetchIds(ids) };
  }

  /** Stores each lookup's node ids (empty ones too) and takes the nodes. */
  private remember(lookups: string[], result: unknown[][]): void {
    const found = new Map<string, string[]>(lookups.map((l) => [l, []]));
    for (const r of result) {
      const row = this.nodeRow(r, 1);
      this.take(row);
      found.get(lookups[Number(r[0])] ?? "")?.push(row.node.id);
    }
    for (const [lookup, ids] of found) this.cache.lookups.set(lookup, ids);
  }

  /** Nodes with any of the exact keys (kind, key). */
  async fetchKeys(keys: { kind: string; key: string }[]): Promise<void> {
    const lookupOf = (k: { kind: string; key: string }) => `${k.kind}\u0000${k.key}`;
    const unique = [...new Map(keys.map((k) => [lookupOf(k), k])).values()];
    const { missing, taken } = this.fromCache(unique, lookupOf);
    if (missing.length === 0) return taken;
    await Promise.all([taken, this.queryKeys(missing, lookupOf)]);
  }

  private async queryKeys(missing: { kind: string; key: string }[], lookupOf: (k: { kind: string; key: string }) => string): Promise<void> {
    const { graphId, version } = this.source;
    const short = missing.filter((k) => k.key.length <= INDEXED_KEY);
    const long = missing.filter((k) => k.key.length > INDEXED_KEY);
    const lookups = [...short, ...long].map(lookupOf);
    const result: unknown[][] = [];
    if (short.length > 0) {
      result.push(
        ...(await this.query(
          `SELECT q.i - 1, ${NODE_COLUMNS}, ${this.degree} FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS q(kind, key, i)
           JOIN "NodeKey" k ON k."graphId" = $1 AND k."kind" = q.kind AND k."key" = q.key AND length(k."key") <= ${INDEXED_KEY}
           JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}`,
          [graphId, version, short.map((k) => k.kind), short.map((k) => k.key)],
          "keys",
        )),
      );
    }
    for (const [j, k] of long.entries()) {
      result.push(
        ...(await this.query(
          `SELECT ${short.length + j}, ${NODE_COLUMNS}, ${this.degree} FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}
           WHERE k."graphId" = $1 AND k."kind" = $3 AND k."key" = $4`,
          [graphId, version, k.kind, k.key],
          "long key",
        )),
      );
    }
    this.remember(lookups, result);
  }

  /** Nodes whose label (kind "l") or source file ("f") contains any of `terms`. */
  async fetchSubstrings(kind: "l" | "f", terms: string[]): Promise<void> {
    const lookupOf = (t: string) => `~${kind}\u0000${t}`;
    const { missing, taken } = this.fromCache([...new Set(terms)], lookupOf);
    if (missing.length === 0) return taken;
    const { graphId, version } = this.source;
    // One branch per term, each a trigram index scan (an OR of LIKEs would not say which term matched).
    const branches = missing.map(
      (_, i) =>
        `SELECT ${i}, ${NODE_COLUMNS}, ${this.degree} FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}
         WHERE k."graphId" = $1 AND k."kind" = '${kind}' AND k."key" LIKE $${i + 3}`,
    );
    const patterns = missing.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const [, result] = await Promise.all([taken, this.query(branches.join("\nUNION ALL\n"), [graphId, version, ...patterns], `substrings ${kind}`)]);
    this.remember(missing.map(lookupOf), result);
  }

  async fetchNorms(norms: Iterable<string>): Promise<void> {
    const wanted = [...norms].filter((n) => !this.norms.has(n));
    if (wanted.length === 0) return;
    await this.fetchKeys(wanted.flatMap((key) => [{ kind: "l", key }, { kind: "a", key }]));
    for (const n of wanted) this.norms.add(n);
  }

  /** Every edge of `ids` (nodes of this version) and their other endpoints. */
  async fetchAdjacency(ids: Iterable<string>): Promise<void> {
    const asked = [...new Set(ids)].filter((id) => !this.complete.has(id));
    if (asked.length === 0) return;
    await this.fetchIds(asked);
    const present = asked.filter((id) => this.nodes.has(id));
    const ends = new Set<string>();
    const takeEdge = (row: EdgeRow) => {
      if (this.edges.has(row.key)) return;
      this.edges.set(row.key, row);
      ends.add(row.source);
      ends.add(row.target);
    };
    const wanted: string[] = [];
    for (const id of present) {
      const keys = this.cache.adjacency.get(id);
      if (!keys) {
        wanted.push(id);
        continue;
      }
      for (const key of keys) {
        const row = this.cache.edges.get(key);
        if (row) takeEdge(row);
      }
    }
    if (wanted.length > 0) {
      const { graphId, version } = this.source;
      // The ids as a joined unnest, not `= ANY($3)`: a custom plan estimates `= ANY` element by
      // element against the column statistics (7-37 ms of planning for a few hundred ids).
      // An edge from one asked node to another comes from the source branch only.
      // One statement: the edges (tag 0), then the rows of their other ends this retrieval does
      // not hold yet (tag 1, with degrees), so a round costs one round trip, not two. The ends
      // held are a hashed NOT IN: `<> ALL` compares each end with every id held (thousands).
      const result = await this.query(
        `WITH a AS MATERIALIZED (
           SELECT ${EDGE_COLUMNS} FROM unnest($3::text[]) AS w(id) JOIN "Edge" e ON e."graphId" = $1 AND e."source" = w.id WHERE ${LIVE("e.", "$2")}
           UNION ALL
           SELECT ${EDGE_COLUMNS} FROM unnest($3::text[]) AS w(id) JOIN "Edge" e ON e."graphId" = $1 AND e."target" = w.id
           WHERE ${LIVE("e.", "$2")} AND e."source" NOT IN (SELECT unnest($3::text[]))
         ), ends AS (
           SELECT DISTINCT x.id FROM a CROSS JOIN LATERAL (VALUES (a."source"), (a."target")) AS x(id) WHERE x.id NOT IN (SELECT unnest($4::text[]))
         )
         SELECT 0, a."pk", a."edgeKey", a."source", a."target", a."ord", a."data", a."relation" FROM a
         UNION ALL
         SELECT 1, ${NODE_COLUMNS}, (${this.degree})::text FROM ends JOIN "Node" n ON n."graphId" = $1 AND n."nodeId" = ends.id AND ${LIVE("n.", "$2")}`,
        [graphId, version, wanted, [...this.nodes.keys(), ...this.absent]],
        "adjacency",
      );
      const byNode = new Map<string, string[]>(wanted.map((id) => [id, []]));
      for (const r of result) if (Number(r[0]) === 1) this.take(this.nodeRow(r, 1));
      for (const r of result) {
        if (Number(r[0]) !== 0) continue;
        const key = r[2] as string;
        let row = this.cache.edges.get(key);
        if (!row) {
          row = { key, source: r[3] as string, target: r[4] as string, relation: r[7] as string, ord: Number(r[5]), data: r[6] as string | null, pk: Number(r[1]) };
          this.cache.edges.set(key, row);
        }
        takeEdge(row);
        byNode.get(row.source)?.push(key);
        if (row.target !== row.source) byNode.get(row.target)?.push(key);
      }
      for (const [id, keys] of byNode) this.cache.adjacency.set(id, keys);
    }
    await this.fetchIds(ends);
    for (const id of present) this.complete.add(id);
  }

  /**
   * The partial graph of what is fetched: nodes and edges in the order a whole load adds them
   * ((ord, pk)), so each node's edges come in the whole graph's order.
   */
  build(figures: VersionFigures): PartialGraph {
    const graph = new PartialGraph(figures.meta, this);
    const byOrd = <T extends { pk: number }>(ord: (x: T) => number) => (a: T, b: T) => ord(a) - ord(b) || a.pk - b.pk;
    // Nodes are the cached objects, frozen (nodeRow): shared by every round and question, so
    // their derived label keys are computed once (query-graph.ts memoises them per object).
    for (const { node } of [...this.nodes.values()].sort(byOrd<NodeRow>((x) => x.node.ord ?? 0))) graph.addNode(node);
    for (const e of [...this.edges.values()].sort(byOrd<EdgeRow>((x) => x.ord))) {
      if (this.nodes.has(e.source) && this.nodes.has(e.target)) graph.addEdgeRow(e.key, e.source, e.target, e.relation, e.ord, e.data);
    }
    setWholeGraphStatistics(graph, figures.statistics);
    // One options object per version: the ranker built on it is shared by every partial graph.
    configureRelationRanker(graph, figures.ranking);
    return graph;
  }
}

// ---------------------------------------------------------------------------------------------
// What a question makes the label indexes read

/** A term and the singular form the scorer tries with it (prepareTerms: "requests" → "request"). */
function withVariant(term: string): string[] {
  return term.length > 3 && term.endsWith("s") && !term.endsWith("ss") ? [term, term.slice(0, -1)] : [term];
}

/**
 * Fetch every node the label-word lookups of `terms` can find: label and file substrings of
 * each term and its singular (idf and seeds), and label words that begin it. A substring of a
 * short term can match thousands of labels, so only the terms a run scores with are fetched
 * (`runOverSql` checks each run's terms against `fetched.terms`).
 */
async function fetchTerms(fetched: FetchedRows, terms: readonly string[], hasFiles: boolean, otherKeys: { kind: string; key: string }[] = []): Promise<void> {
  const wanted = [...new Set(terms)].filter((t) => !fetched.terms.has(t));
  const substrings: string[] = [];
  const keys = [...otherKeys];
  for (const term of wanted) {
    substrings.push(...withVariant(term));
    for (let k = MIN_LABEL_WORD; k < term.length; k++) keys.push({ kind: "w", key: term.slice(0, k) });
  }
  // Independent lookups: in parallel, on connections of their own.
  await Promise.all([
    fetched.fetchKeys(keys),
    substrings.length > 0 ? fetched.fetchSubstrings("l", substrings) : undefined,
    hasFiles && substrings.length > 0 ? fetched.fetchSubstrings("f", substrings) : undefined,
  ]);
  for (const t of wanted) fetched.terms.add(t);
}

/**
 * Fetch the nodes of the exact lookups a question makes: exact phrases of its words and the
 * mention keys of every run of its words (findQuestionEntities), with the label-word lookups of
 * its terms (`fetchTerms`).
 */
async function prefetchQuestion(fetched: FetchedRows, question: string, hasFiles: boolean): Promise<void> {
  const norms = wordTokens(question).map((t) => t.norm);
  const keys: { kind: string; key: string }[] = [];
  const words = tokenize(question);
  for (let a = 0; a < words.length; a++) {
    for (let n = 2; n <= MAX_PHRASE_WORDS && a + n <= words.length; n++) keys.push({ kind: "p", key: words.slice(a, a + n).join(" ") });
  }
  for (let a = 0; a < norms.length; a++) {
    for (let n = 1; n <= MAX_NAME_WORDS && a + n <= norms.length; n++) {
      const key = norms.slice(a, a + n).join(" ");
      keys.push({ kind: "k", key }, { kind: "k", key: `${key}s` });
    }
  }
  for (const m of question.matchAll(/\[([^\]]+)\]/g)) keys.push({ kind: "k", key: wordTokens(m[1] ?? "").map((t) => t.norm).join(" ") });
  await fetchTerms(fetched, questionTerms(question), hasFiles, keys);
}

export interface SqlRetrieval<T> {
  result: T;
  /** The graph the result was computed on (the partial graph, or the overlay on it): holds every node and edge of the result. */
  graph: KnowledgeGraph;
  /** The partial graph of the stored version under it (what was fetched and what the last run missed). */
  part: PartialGraph;
  rounds: number;
  queries: number;
  sqlMs: number;
  /** With `traceSqlRetrieval(true)`: each statement and each round's build and run, in order (ms). */
  trace?: { what: string; ms: number; rows: number }[];
}

let tracing = false;

/** Record each statement's and round's time in the results (the bench's profile); off by default. */
export function traceSqlRetrieval(on: boolean): void {
  tracing = on;
}

/**
 * A graph laid over each round's partial graph (a campaign's sandbox: lib/server/campaigns), on
 * which the retrieval runs: it reads the version through the partial graph's lookups, so what it
 * lacks is recorded there and fetched. `whole` is the version's figures, for the overlay's own.
 */
export type SqlOverlay = (part: KnowledgeGraph, whole: WholeGraphFigures) => KnowledgeGraph;

/**
 * Run `run` on partial graphs until a run reads only what the graph holds completely. `termsOf`
 * names the terms whose label substrings the run scored with on that graph (read from the
 * label index, which records no misses): a run with a term not fetched yet runs again after it.
 */
async function runOverSql<T>(
  source: SqlGraphSource,
  question: string,
  entities: readonly string[],
  run: (graph: KnowledgeGraph) => T,
  termsOf: (graph: KnowledgeGraph) => readonly string[],
  overlay?: SqlOverlay,
): Promise<SqlRetrieval<T>> {
  await ensureNodeKeys(source.graphId, source.version);
  const figures = await versionFigures(source);
  figures.rows.trim();
  const fetched = new FetchedRows(source, figures.rows, figures.degree);
  const trace: { what: string; ms: number; rows: number }[] | null = tracing ? [] : null;
  fetched.trace = trace;
  await Promise.all([prefetchQuestion(fetched, question, figures.hasFiles), fetched.fetchAdjacency(entities)]);
  for (let round = 1; ; round++) {
    let t = performance.now();
    const part = fetched.build(figures);
    const graph = overlay ? overlay(part, figures) : part;
    trace?.push({ what: `build ${round}`, ms: performance.now() - t, rows: graph.nodes.size });
    t = performance.now();
    const result = run(graph);
    trace?.push({ what: `run ${round}`, ms: performance.now() - t, rows: graph.edges.size });
    const terms = termsOf(graph).filter((t) => !fetched.terms.has(t));
    if (!part.hasMisses() && terms.length === 0) return { result, graph, part, rounds: round, queries: fetched.queries, sqlMs: fetched.sqlMs, ...(trace ? { trace } : {}) };
    if (round >= MAX_ROUNDS) throw new AppError("INTERNAL", `SQL retrieval did not settle after ${MAX_ROUNDS} rounds`);
    const { ids, adjacency, norms } = part.misses;
    await Promise.all([fetched.fetchNorms(norms), fetched.fetchIds(ids), fetched.fetchAdjacency(adjacency), terms.length > 0 ? fetchTerms(fetched, terms, figures.hasFiles) : undefined]);
  }
}

/** `queryGraph` on a stored version through SQL: the same result, without loading the graph. */
export function sqlQueryGraph(source: SqlGraphSource, options: Omit<QueryGraphOptions, "graph">, overlay?: SqlOverlay): Promise<SqlRetrieval<QueryGraphResult>> {
  return runOverSql(source, options.question, [], (graph) => queryGraph({ ...options, graph }), () => questionTerms(options.question), overlay);
}

/** `expandHops` on a stored version through SQL: the same result, without loading the graph. */
export function sqlExpandHops(source: SqlGraphSource, options: Omit<ExpandHopsOptions, "graph">, overlay?: SqlOverlay): Promise<SqlRetrieval<ExpandHopsResult>> {
  // expandHops scores with the words outside the question's mentions when it has any (questionFocus: cached per graph).
  return runOverSql(source, options.question, options.entities, (graph) => expandHops({ ...options, graph }), (graph) => {
    const { anchors, relationText } = questionFocus(graph, options.question);
    return questionTerms(anchors.size === 0 ? options.question : relationText);
  }, overlay);
}
