/**
 * Refinery's review of a refinement file against the project's graph.json, reading as evidence
 * only the source files behind the nodes the actions name, and only inside the project root.
 */
import type { RefinementInputs } from "../../lib/deeprefine/review-report";
import { refinementInputs, retrievedTriples } from "../../lib/deeprefine/review-report";
import { AppError } from "../../lib/errors";
import { KnowledgeGraph, nodeFromRecord } from "../../lib/graph/model";
import type { CorpusDocument } from "../../lib/import/corpus";
import type { LoadedTrace } from "../../lib/loop/deeprefine-files";
import { documentIdsForReview, reviewActions } from "../../lib/review/review-actions";
import { mineGraphRules } from "../../lib/review/mine-graph-rules";
import { createNameResolver } from "../../lib/review/resolve-action";
import type { ActionReview } from "../../lib/review/types";
import { readSourceFiles } from "../../lib/server/graphs/import-graph";

export interface FileReview {
  inputs: Extract<RefinementInputs, { ok: true }>;
  reviews: ActionReview[];
}

/** Parse the refinement text; an unreadable block is an error naming the file (exit 1). */
export function parseRefinementFile(text: string, file: string): Extract<RefinementInputs, { ok: true }> {
  const inputs = refinementInputs(text);
  if (!inputs.ok) throw new AppError("INVALID_INPUT", `${file}: ${inputs.error}`, { source: file });
  return inputs;
}

/** Source files for the given document ids, confined to `root` (readSourceFiles does the confining). */
function readDocuments(ids: readonly string[], root: string): Map<string, CorpusDocument> {
  if (ids.length === 0) return new Map();
  // readSourceFiles reads what a graph's nodes point at: hand it one stand-in node per document.
  const wanted = new KnowledgeGraph();
  ids.forEach((id, i) => wanted.addNode(nodeFromRecord({ id: `doc${i}`, source_file: id })));
  const { documents } = readSourceFiles(wanted, root);
  return new Map(documents.map((d) => [d.docId, d]));
}

export function reviewRefinement({
  graph,
  text,
  file,
  trace,
  root,
}: {
  graph: KnowledgeGraph;
  text: string;
  file: string;
  trace: LoadedTrace | null;
  root: string;
}): FileReview {
  const inputs = parseRefinementFile(text, file);
  const resolve = createNameResolver({ graph });
  const documents = readDocuments(documentIdsForReview({ graph, actions: inputs.inputs, resolve }), root);
  const retrieved = trace ? retrievedTriples(graph, trace) : [];
  // A command-line review is a batch: mine the graph's rules now (graphify graphs take well under a second).
  const rules = mineGraphRules({ graph });
  const reviews = reviewActions({ graph, actions: inputs.inputs, documents, retrieved: retrieved.length > 0 ? retrieved : undefined, resolve, rules });
  return { inputs, reviews };
}
