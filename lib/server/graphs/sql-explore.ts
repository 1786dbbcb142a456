/**
 * The graph explorer's reads on graphs retrieved through SQL (issue #17): over
 * `REFINERY_SQL_RETRIEVAL_EDGES` on PostgreSQL no app instance holds the graph, so search,
 * neighbourhood and node details run the pure functions of explore-graph.ts on a partial graph
 * (`CommitRows` of partial-version.ts) that records every read it cannot answer; what a run
 * missed is fetched and it runs again until it misses nothing — the same answer as on the
 * whole graph by construction. Degrees are the whole graph's (from `NodeDegree` or counted from
 * the live-edge indexes when read: sql-version-figures.ts), never the partial graph's.
 *
 * Two reads go over every node and cannot be recorded; their candidates are fetched from SQL:
 *   - search's substring tier: the `limit` best label matches by (prefix, degree) from the
 *     trigram index on `NodeKey`, with every match tied with the last (the pure sort then
 *     breaks ties by label length and id exactly as in memory);
 *   - the resolver's fuzzy tier (only when nothing matched exactly): labels containing the
 *     name or one of its words, and labels that are a prefix of it — capped at FUZZY_CANDIDATES.
 * Hubs need no partial graph: the first `limit` nodes by degree, ties in graph order (ord, pk).
 *
 * Loaded only on PostgreSQL over the setting (it loads the driver); sql-explore.test.ts
 * compares every view with the in-memory one.
 */
import type { GraphNode, KnowledgeGraph } from "../../graph/model";
import { normalizeLabel, stripCallSuffix } from "../../graph/normalize";
import { identifierWords, resolveName } from "../../graph/resolve-name";
import { resolveDatabaseUrl } from "../db/database-url";
import { getPgPool } from "../db/pg-pool";
import { nodeFromColumns } from "./graph-rows";
import type { CommitRows} from "./partial-version";
import { settleOverSql } from "./partial-version";
import { ensureNodeKeys } from "./sql-node-keys";
import type { SqlGraphSource } from "./sql-retrieval";
import { degreeSql, tabledDegreeBase } from "./sql-version-figures";

const LIVE = (alias: string, v: string) => `${alias}"validFrom" <= ${v} AND (${alias}"validTo" IS NULL OR ${alias}"validTo" > ${v})`;
const NODE_COLUMNS = `n."pk", n."nodeId", n."label", n."normLabel", n."ord", n."data"`;
/** Most nodes the fuzzy tier's candidate lookups fetch (a name matching nothing exactly). */
export const FUZZY_CANDIDATES = 20_000;

/** Explorer SQL figures of this process (tests, bench). */
export const sqlExploreStats = { calls: 0, rounds: 0, queries: 0 };

async function rows(text: string, values: unknown[]): Promise<unknown[][]> {
  sqlExploreStats.queries++;
  return (await getPgPool(resolveDatabaseUrl()).query({ text, values, rowMode: "array" })).rows as unknown[][];
}

/** Whether every node's degree at the version is in `NodeDegree`: the base of its rows, or null (count). */
function degreesTabled(source: SqlGraphSource): Promise<number | null> {
  sqlExploreStats.queries++;
  return tabledDegreeBase(source.graphId, source.version);
}

/**
 * Run `run` on partial graphs until it misses nothing and `more` (the reads the graph cannot
 * record) fetches nothing new: partial-version.ts `settleOverSql`, without a commit's exemplars.
 */
export async function settleExplore<T>(source: SqlGraphSource, run: (graph: KnowledgeGraph) => T, more?: (rows: CommitRows, graph: KnowledgeGraph) => Promise<boolean>): Promise<{ result: T; graph: KnowledgeGraph }> {
  sqlExploreStats.calls++;
  const { result, graph, rounds } = await settleOverSql(source, run, undefined, undefined, { exemplars: false, more });
  sqlExploreStats.rounds += rounds;
  return { result, graph };
}

const likeEscape = (t: string) => t.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Ids of nodes whose label key matches any of `patterns` (LIKE), at most `cap`. */
async function labelLike(source: SqlGraphSource, patterns: string[], cap: number): Promise<string[]> {
  if (patterns.length === 0) return [];
  const branches = patterns.map((_, i) => `SELECT n."nodeId" FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")} WHERE k."graphId" = $1 AND k."kind" = 'l' AND k."key" LIKE $${i + 3}`);
  const result = await rows(`SELECT DISTINCT x."nodeId" FROM (${branches.join("\nUNION ALL\n")}) x LIMIT ${cap}`, [source.graphId, source.version, ...patterns]);
  return result.map((r) => r[0] as string);
}

/**
 * The substring tier's candidates: every node whose label contains `norm` and whose (starts
 * with it, degree) is at least that of the `limit`-th best such node — a superset of what the
 * tier can show, whatever the resolver's hits exclude (at most `limit` of them).
 */
async function substringCandidates(source: SqlGraphSource, norm: string, limit: number): Promise<string[]> {
  if (limit <= 0 || norm === "") return [];
  const base = await degreesTabled(source);
  const result = await rows(
    `WITH c AS MATERIALIZED (
       SELECT n."nodeId" AS id, (k."key" LIKE $4) AS prefix, ${degreeSql(base)} AS degree
       FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}
       WHERE k."graphId" = $1 AND k."kind" = 'l' AND k."key" LIKE $3
     ), cut AS (SELECT prefix, degree FROM c ORDER BY prefix DESC, degree DESC OFFSET ${limit - 1} LIMIT 1)
     SELECT id FROM c WHERE NOT EXISTS (SELECT 1 FROM cut) OR (c.prefix, c.degree) >= (SELECT prefix, degree FROM cut)`,
    [source.graphId, source.version, `%${likeEscape(norm)}%`, `${likeEscape(norm)}%`],
  );
  return result.map((r) => r[0] as string);
}

/** Candidates of the resolver's fuzzy tier for `name` (resolve-name.ts fuzzyMatches). */
async function fuzzyCandidates(fetched: CommitRows, name: string): Promise<void> {
  const bare = stripCallSuffix(normalizeLabel(name));
  const words = [...new Set(identifierWords(name).filter((w) => w.length > 2))];
  if (bare.length < 2 && words.length === 0) return;
  const patterns = [...(bare.length >= 2 ? [bare] : []), ...words].map((t) => `%${likeEscape(t)}%`);
  // Labels that are a prefix of the name (at least 3 characters), with graphify's call forms.
  const prefixes: string[] = [];
  for (let k = 3; k <= bare.length; k++) {
    const p = bare.slice(0, k);
    prefixes.push(p, `${p}()`, `.${p}`, `.${p}()`);
  }
  const [ids] = await Promise.all([labelLike(fetched.source, patterns, FUZZY_CANDIDATES), fetched.fetchNorms(prefixes)]);
  await fetched.fetchIds(ids);
}

/**
 * explore-graph's `searchOn` (passed in: that module loads this one) through SQL: `search`
 * gets the partial graph and the substring tier's candidates.
 */
export async function sqlSearchNodes<T>(source: SqlGraphSource, q: string, limit: number, search: (graph: KnowledgeGraph, pool: GraphNode[]) => T): Promise<T> {
  const query = q.trim();
  await ensureNodeKeys(source.graphId, source.version);
  let substrings = false;
  let fuzzy = false;
  let pool: Set<string> | null = null;
  const { result } = await settleExplore(
    source,
    (graph) => search(graph, pool ? [...pool].flatMap((id) => graph.nodes.get(id) ?? []) : []),
    async (fetched, graph) => {
      const wants: Promise<void>[] = [];
      if (!substrings) {
        substrings = true;
        wants.push(
          substringCandidates(source, normalizeLabel(query), limit).then(async (ids) => {
            pool = new Set(ids);
            await fetched.fetchIds(ids);
          }),
        );
      }
      // The fuzzy tier runs when no id or label matched: then its candidates must be held.
      if (!fuzzy && !hasExactMatch(graph, query)) {
        fuzzy = true;
        wants.push(fuzzyCandidates(fetched, query));
      }
      await Promise.all(wants);
      return wants.length > 0;
    },
  );
  return result;
}

/** Whether the resolver finds `name` by id, label or alias (then it skips the fuzzy tier). */
function hasExactMatch(graph: KnowledgeGraph, name: string): boolean {
  const top = resolveName({ graph, name, limit: 1 }).candidates[0];
  return top !== undefined && top.matchedBy !== "fuzzy";
}

/** explore-graph's NodeSummary. */
export interface HubSummary {
  id: string;
  label: string;
  community: string | number | null;
  fileType: string | null;
  degree: number;
}

/** The first `limit` nodes by whole-graph degree (descending), ties in graph order — findHubNodes' answer. */
export async function sqlFindHubNodes(source: SqlGraphSource, limit: number): Promise<HubSummary[]> {
  if (limit <= 0) return [];
  const base = await degreesTabled(source);
  // A version's rows never change: its hubs are read once per process (counting is a pass over its edges).
  const key = `${source.graphId}:${source.version}:${limit}:${base}`;
  let pending = hubCache.get(key);
  if (!pending) {
    pending = readHubs(source, limit, base).catch((error: unknown) => {
      hubCache.delete(key);
      throw error;
    });
    if (hubCache.size >= 64) hubCache.delete(hubCache.keys().next().value as string);
    hubCache.set(key, pending);
  }
  return (await pending).map((h) => ({ ...h }));
}

const hubCache = new Map<string, Promise<HubSummary[]>>();

/**
 * The first `limit` nodes by degree. Tabled (`base`): a node's degree is its newest row in
 * [base, version] — the base's row unless a later version changed it (`changed`, few rows) —
 * and a node with none, or 0, has no edge; else every degree is counted in one pass.
 */
async function readHubs(source: SqlGraphSource, limit: number, base: number | null): Promise<HubSummary[]> {
  const { graphId, version } = source;
  const result =
    base !== null
      ? await rows(
          `WITH changed AS MATERIALIZED (
             SELECT DISTINCT ON (h."nodeId") h."nodeId", h."degree" FROM "NodeDegree" h
             WHERE h."graphId" = $1 AND h."version" > $4 AND h."version" <= $2 ORDER BY h."nodeId", h."version" DESC
           )
           SELECT * FROM (
             SELECT ${NODE_COLUMNS}, c."degree" FROM (
               SELECT g."nodeId", g."degree" FROM "NodeDegree" g WHERE g."graphId" = $1 AND g."version" = $4 AND g."nodeId" NOT IN (SELECT "nodeId" FROM changed)
               UNION ALL SELECT "nodeId", "degree" FROM changed
             ) c JOIN "Node" n ON n."graphId" = $1 AND n."nodeId" = c."nodeId" AND ${LIVE("n.", "$2")}
             WHERE c."degree" > 0 ORDER BY c."degree" DESC, n."ord", n."pk" LIMIT $3
           ) t
           UNION ALL
           SELECT * FROM (
             SELECT ${NODE_COLUMNS}, 0 FROM "Node" n WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")}
               AND COALESCE((SELECT g."degree" FROM "NodeDegree" g WHERE g."graphId" = $1 AND g."nodeId" = n."nodeId" AND g."version" <= $2 AND g."version" >= $4 ORDER BY g."version" DESC LIMIT 1), 0) = 0
             ORDER BY n."ord", n."pk" LIMIT $3
           ) z`,
          [graphId, version, limit, base],
        )
      : await rows(
          `WITH d AS (
             SELECT id, COUNT(*) AS degree FROM (
               SELECT e."source" AS id FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")}
               UNION ALL SELECT e."target" FROM "Edge" e WHERE e."graphId" = $1 AND ${LIVE("e.", "$2")}
             ) ends GROUP BY id
           )
           SELECT ${NODE_COLUMNS}, COALESCE(d.degree, 0) FROM "Node" n LEFT JOIN d ON d.id = n."nodeId"
           WHERE n."graphId" = $1 AND ${LIVE("n.", "$2")} ORDER BY COALESCE(d.degree, 0) DESC, n."ord", n."pk" LIMIT $3`,
          [graphId, version, limit],
        );
  const top = result.map((r) => ({ node: nodeFromColumns(r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null), pk: Number(r[0]), degree: Number(r[6]) }));
  // A degree-0 node (the tail of the UNION) only when fewer than `limit` nodes have edges.
  top.sort((a, b) => b.degree - a.degree || (a.node.ord ?? 0) - (b.node.ord ?? 0) || a.pk - b.pk);
  return top.slice(0, limit).map(({ node, degree }) => ({ id: node.id, label: node.label, community: node.community, fileType: node.fileType, degree }));
}
