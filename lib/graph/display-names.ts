/**
 * How the UI names a node: by its label, with where it comes from (the tail of its file path
 * that tells it apart, or its passage title) only when another node has the same label. Ids are
 * for machines and for a details popover, never the name a person reads.
 */
import type { KnowledgeGraph } from "./model";

export interface DisplayName {
  id: string;
  label: string;
  /** What tells it apart from other nodes with the same label; null when the label is unique. */
  secondary: string | null;
}

export interface DisplayNameOptions {
  graph: KnowledgeGraph;
  id: string;
  /** The title of a document id (a passage title), when the graph's documents have titles. */
  titleOf?: (docId: string) => string | null | undefined;
}

function splitPath(file: string): string[] {
  return file.replace(/\\/g, "/").split("/").filter((p) => p !== "");
}

/** The shortest tail of `file` that none of `others` ends with (the whole path if none is shorter). */
function distinguishingTail(file: string, others: string[]): string {
  const parts = splitPath(file);
  const otherParts = others.map(splitPath);
  for (let k = 1; k <= parts.length; k++) {
    const tail = parts.slice(-k).join("/");
    if (!otherParts.some((o) => o.slice(-k).join("/") === tail)) return tail;
  }
  return parts.join("/");
}

export function findDisplayName({ graph, id, titleOf }: DisplayNameOptions): DisplayName | null {
  const node = graph.getNode(id);
  if (!node) return null;
  const twins: string[] = [];
  for (const otherId of graph.idsByNormLabel(node.normLabel)) {
    if (otherId !== id && graph.getNode(otherId)?.label === node.label) twins.push(otherId);
  }
  if (twins.length === 0) return { id, label: node.label, secondary: null };
  const file = node.sourceFile;
  if (!file) return { id, label: node.label, secondary: id };
  const title = titleOf?.(file);
  if (title) return { id, label: node.label, secondary: title };
  const otherFiles = twins.map((t) => graph.getNode(t)?.sourceFile).filter((f): f is string => typeof f === "string");
  const sameFile = otherFiles.filter((f) => f === file);
  const tail = distinguishingTail(
    file,
    otherFiles.filter((f) => f !== file),
  );
  if (sameFile.length === 0) return { id, label: node.label, secondary: tail };
  // Several with one label in one file (methods of different classes): the line tells them apart.
  const line = /^L(\d+)/.exec(node.sourceLocation ?? "")?.[1];
  return { id, label: node.label, secondary: line ? `${tail}, line ${line}` : id };
}
