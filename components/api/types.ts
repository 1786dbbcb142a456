/**
 * The JSON the graph API answers with, as the browser sees it: the server's own types,
 * imported as types only (nothing of the server layer reaches the browser bundle).
 */
export type { GraphSummary } from "@/lib/server/graphs/graph-store";
export type { ImportReport } from "@/lib/server/graphs/import-graph";
export type {
  Neighbourhood,
  NeighbourhoodEdge,
  NodeDetails,
  NodeSource,
  NodeSummary,
  NodeTriple,
  PlainJson,
  SearchHit,
  SearchResult,
  SourceLine,
} from "@/lib/server/graphs/explore-graph";
import type { SearchHit } from "@/lib/server/graphs/explore-graph";

export type MatchKind = SearchHit["matchedBy"];
