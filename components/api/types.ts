/**
 * The JSON the graph API answers with, as the browser sees it: the server's own types,
 * imported as types only (nothing of the server layer reaches the browser bundle).
 */
export type { GraphSummary } from "@/lib/server/graph-store";
export type { ImportReport } from "@/lib/server/import-graph";
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
} from "@/lib/server/explore-graph";
import type { SearchHit } from "@/lib/server/explore-graph";

export type MatchKind = SearchHit["matchedBy"];
