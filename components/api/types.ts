/**
 * The JSON the graph API answers with, as the browser sees it. Components may not import
 * lib/server, so the contract is written here; every route handler declares its response as
 * one of these types, so the compiler checks that the server functions still produce them.
 */
export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson };

export interface GraphSummary {
  id: string;
  name: string;
  format: string;
  sourcePath: string | null;
  version: number;
  nodes: number;
  edges: number;
  documents: number;
  questions: number;
  createdAt: string;
  updatedAt: string;
}

export interface ImportReport {
  graph: GraphSummary;
  format: "graphify" | "triples" | "bundle";
  corpus: { read: number; missing: string[]; skipped: string[] };
}

export interface NodeSummary {
  id: string;
  label: string;
  community: string | number | null;
  fileType: string | null;
  degree: number;
}

export type MatchKind = "id" | "qualified" | "label" | "normalized" | "alias" | "fuzzy" | "substring";

export interface SearchHit extends NodeSummary {
  qualified: string;
  matchedBy: MatchKind;
  score: number;
}

export interface SearchResult {
  q: string;
  hits: SearchHit[];
}

export interface NeighbourhoodEdge {
  key: string;
  source: string;
  target: string;
  relation: string;
  confidence?: string;
}

export interface Neighbourhood {
  center: string;
  depth: number;
  nodes: NodeSummary[];
  edges: NeighbourhoodEdge[];
  truncated: boolean;
}

export interface SourceLine {
  number: number;
  text: string;
  isFocus: boolean;
}

export type NodeSource =
  | { kind: "file"; docId: string; path: string | null; location: string | null; totalLines: number; lines: SourceLine[] }
  | { kind: "passages"; passages: { docId: string; title: string | null; text: string }[] }
  | { kind: "none"; reason: string };

export interface NodeTriple {
  key: string;
  subject: string;
  relation: string;
  object: string;
  subject_id: string;
  object_id: string;
}

export interface NodeDetails {
  node: NodeSummary & {
    sourceFile: string | null;
    sourceLocation: string | null;
    attrs: { [key: string]: PlainJson };
  };
  triples: NodeTriple[];
  totalTriples: number;
  source: NodeSource;
}
