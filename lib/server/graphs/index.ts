/**
 * graphs/ — stored graphs and their content: import (import-graph.ts, its worker thread and the
 * browser upload in upload/), rows ⇄ nodes and edges (graph-rows.ts, write-graph.ts), loading a
 * version into memory with its cache (graph-store.ts), the explorer's reads (explore-graph.ts),
 * readable node names, the wiki, rename/delete, and the relation ranker's lexicon (WordNet).
 */
export * from "./explore-graph";
export * from "./graph-rows";
export * from "./graph-store";
export * from "./import-graph";
export * from "./wordnet-lexicon";
export * from "./contract";
export * from "./find-node-names";
export * from "./on-version";
export * from "./sql-export";
export * from "./sql-query-graph";
export * from "./sql-retrieval-setting";
export * from "./sql-run-neighbourhood";
export * from "./sql-run-retrieval";
