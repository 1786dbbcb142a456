/**
 * Server-side set-up of the relation ranker (lib/retrieve/rank-relations.ts), called where a
 * graph is loaded: WordNet as the process-wide lexicon, and the relation descriptions of a
 * triples graph from the `relation2text.txt` beside its source file (FB15k-237 ships one).
 * Descriptions are read from the file, not stored: the import keeps the graph as the file had
 * it, and a graph without the file simply ranks by relation names.
 */
import fs from "node:fs";
import path from "node:path";
import type { KnowledgeGraph } from "../../graph/model";
import { parseLabelFile } from "../../import/parse-triples";
import { configureRelationRanker } from "../../retrieve/rank-relations";
import { useDefaultLexicon } from "./wordnet-lexicon";

let lexiconReady = false;

export function prepareRelationRanking(graph: KnowledgeGraph, sourcePath: string | null): void {
  const relations = new Set<string>();
  if (sourcePath) for (const e of graph.edges.values()) relations.add(e.relation);
  const descriptions = findRelationDescriptions(sourcePath, relations);
  if (descriptions) configureRelationRanker(graph, { descriptions });
}

/**
 * The process-wide lexicon, and the descriptions beside `sourcePath` when they describe one of
 * `relations` (null otherwise): what a graph of those relations ranks with.
 */
export function findRelationDescriptions(sourcePath: string | null, relations: ReadonlySet<string>): Map<string, string> | null {
  if (!lexiconReady) {
    useDefaultLexicon();
    lexiconReady = true;
  }
  if (!sourcePath) return null;
  const file = path.join(fs.existsSync(sourcePath) && fs.statSync(sourcePath).isDirectory() ? sourcePath : path.dirname(sourcePath), "relation2text.txt");
  if (!fs.existsSync(file)) return null;
  try {
    const descriptions = parseLabelFile(fs.readFileSync(file, "utf8"), file);
    return [...descriptions.keys()].some((r) => relations.has(r)) ? descriptions : null;
  } catch {
    // A malformed description file leaves ranking by names: it is an optional extra.
    return null;
  }
}
