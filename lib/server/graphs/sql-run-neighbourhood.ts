/**
 * What the review of a run's proposed actions reads on a graph retrieved through SQL (issue #17
 * item 4): the nodes the actions' names resolve to and a neighbourhood around them, fetched with
 * indexed SQL under caps, instead of the whole version.
 *
 *   names      every node the name resolver's label tiers can find (its id, normalised label and
 *              alias with the `()`/`.` variants, `file::label`): the lookups are learnt by
 *              running the resolver on an empty recording graph, then fetched from `NodeKey`
 *              (kinds l, a) — so exact and ambiguous names resolve as on the whole graph. The
 *              fuzzy tier (an O(nodes) scan, only for names that match nothing) sees only the
 *              neighbourhood: suggestions for unknown names come from it.
 *   endpoints  those nodes and the retrieved triples' endpoints: all their edges (up to
 *              `ENDPOINT_EDGES` each, in stored order), so an endpoint's degree, duplicate and
 *              reverse edges and shared neighbours are complete;
 *   paths      the edges between their neighbours (up to `BRIDGE_EDGES`): with the endpoints'
 *              own edges every path of length ≤ 3 between two endpoints is held.
 * A cap that cuts something is reported in `capped`, for the review's warning.
 */
import type { GraphEdge, GraphNode, KnowledgeGraph } from "../../graph/model";
import { KnowledgeGraph as Graph } from "../../graph/model";
import { resolveName } from "../../graph/resolve-name";
import { resolveDatabaseUrl } from "../db/database-url";
import { edgeFromColumns, metaFromText, nodeFromColumns } from "./graph-rows";
import type { SqlGraphSource } from "./sql-retrieval";

/** Most edges read per endpoint (in stored order). */
export const ENDPOINT_EDGES = 5_000;
/** Most neighbours whose edges among each other are read, and most such edges. */
export const BRIDGE_NODES = 4_000;
export const BRIDGE_EDGES = 20_000;

const LIVE = (alias: string, v: string) => `${alias}"validFrom" <= ${v} AND (${alias}"validTo" IS NULL OR ${alias}"validTo" > ${v})`;
const NODE_COLUMNS = `n."nodeId", n."label", n."normLabel", n."ord", n."data"`;
const EDGE_COLUMNS = `e."edgeKey", e."source", e."target", e."relation", e."ord", e."data"`;

async function pgRows(text: string, values: unknown[]): Promise<unknown[][]> {
  const { getPgPool } = await import("../db/pg-pool");
  return (await getPgPool(resolveDatabaseUrl()).query({ text, values, rowMode: "array" })).rows as unknown[][];
}

/** An empty graph that records the lookups the resolver makes. */
class LookupRecorder extends Graph {
  readonly ids = new Set<string>();
  readonly norms = new Set<string>();
  override getNode(id: string) {
    this.ids.add(id);
    return super.getNode(id);
  }
  override idsByNormLabel(norm: string): ReadonlySet<string> {
    this.norms.add(norm);
    return super.idsByNormLabel(norm);
  }
}

const nodeOf = (r: unknown[]): GraphNode => nodeFromColumns(r[0] as string, r[1] as string, r[2] as string, Number(r[3]), r[4] as string | null);
const edgeOf = (r: unknown[]): GraphEdge => edgeFromColumns(r[0] as string, r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null);

export interface ReviewNeighbourhood {
  graph: KnowledgeGraph;
  /** The nodes the names found, and the endpoints whose edges were read. */
  endpoints: string[];
  /** What a cap cut (empty: nothing). */
  capped: string[];
  queries: number;
}

export async function sqlReviewNeighbourhood(source: SqlGraphSource, options: { names: readonly string[]; ids?: readonly string[] }): Promise<ReviewNeighbourhood> {
  const { graphId, version } = source;
  let queries = 0;
  const q = (text: string, values: unknown[]) => {
    queries++;
    return pgRows(text, [graphId, version, ...values]);
  };
  const recorder = new LookupRecorder(metaFromText(source.meta));
  for (const name of options.names) resolveName({ graph: recorder, name });
  const nodes = new Map<string, GraphNode>();
  const norms = [...recorder.norms];
  const named = await q(
    `SELECT ${NODE_COLUMNS} FROM "Node" n WHERE n."graphId" = $1 AND n."nodeId" = ANY($3) AND ${LIVE("n.", "$2")}
     UNION
     SELECT ${NODE_COLUMNS} FROM "NodeKey" k JOIN "Node" n ON n."pk" = k."nodePk" AND ${LIVE("n.", "$2")}
     WHERE k."graphId" = $1 AND k."kind" IN ('l', 'a') AND k."key" = ANY($4) AND length(k."key") <= 1000`,
    [[...new Set([...recorder.ids, ...(options.ids ?? [])])], norms],
  );
  for (const r of named) nodes.set(r[0] as string, nodeOf(r));
  const endpoints = [...nodes.keys()].sort();
  const capped: string[] = [];
  const edges = new Map<string, GraphEdge>();
  // Each endpoint's edges, the first ENDPOINT_EDGES in stored order (a lateral index scan per endpoint).
  const own = await q(
    `SELECT ${EDGE_COLUMNS}, x.id, x.total FROM unnest($3::text[]) AS x0(id)
     CROSS JOIN LATERAL (SELECT x0.id AS id,
       (SELECT COUNT(*) FROM "Edge" c WHERE c."graphId" = $1 AND (c."source" = x0.id OR c."target" = x0.id) AND ${LIVE("c.", "$2")}) AS total) x
     CROSS JOIN LATERAL (SELECT * FROM "Edge" e WHERE e."graphId" = $1 AND (e."source" = x.id OR e."target" = x.id) AND ${LIVE("e.", "$2")}
       ORDER BY e."ord", e."pk" LIMIT ${ENDPOINT_EDGES}) e`,
    [endpoints],
  );
  const neighbours = new Set<string>();
  const cut = new Map<string, number>();
  for (const r of own) {
    const edge = edgeOf(r);
    edges.set(edge.key, edge);
    for (const id of [edge.source, edge.target]) if (!nodes.has(id)) neighbours.add(id);
    if (Number(r[7]) > ENDPOINT_EDGES) cut.set(r[6] as string, Number(r[7]));
  }
  for (const [id, total] of cut) capped.push(`${id}: ${ENDPOINT_EDGES} of ${total} edges read`);
  const around = [...neighbours].slice(0, BRIDGE_NODES);
  if (neighbours.size > BRIDGE_NODES) capped.push(`paths of length 3 through ${BRIDGE_NODES} of ${neighbours.size} neighbours only`);
  if (around.length > 0) {
    const [rows, bridges] = await Promise.all([
      q(`SELECT ${NODE_COLUMNS} FROM "Node" n WHERE n."graphId" = $1 AND n."nodeId" = ANY($3) AND ${LIVE("n.", "$2")}`, [[...neighbours]]),
      q(
        `SELECT ${EDGE_COLUMNS} FROM "Edge" e WHERE e."graphId" = $1 AND e."source" = ANY($3) AND e."target" = ANY($3) AND ${LIVE("e.", "$2")}
         ORDER BY e."ord", e."pk" LIMIT ${BRIDGE_EDGES + 1}`,
        [around],
      ),
    ]);
    for (const r of rows) nodes.set(r[0] as string, nodeOf(r));
    if (bridges.length > BRIDGE_EDGES) capped.push(`${BRIDGE_EDGES} edges between neighbours read, more exist`);
    for (const r of bridges.slice(0, BRIDGE_EDGES)) {
      const edge = edgeOf(r);
      if (!edges.has(edge.key)) edges.set(edge.key, edge);
    }
  }
  // In stored order, as a whole load adds them.
  const graph = new Graph(metaFromText(source.meta));
  for (const node of [...nodes.values()].sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))) graph.addNode(node);
  for (const edge of [...edges.values()].sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))) {
    if (graph.nodes.has(edge.source) && graph.nodes.has(edge.target)) graph.addEdge(edge);
  }
  return { graph, endpoints, capped, queries };
}
