/**
 * KnowledgeGraph nodes/edges ⇄ database rows. Records that are fully derivable from the
 * columns (triple-file graphs: `{id}`, `{label, id}`, `{relation, source, target}`) are stored
 * as null to keep large imports small; everything else is stored losslessly.
 */
import type { GraphEdge, GraphMeta, GraphNode } from "../../graph/model";
import { edgeFromRecord, nodeFromRecord } from "../../graph/model";
import type { JsonObject } from "../../json/lossless-json";
import { isJsonObject, parseLosslessJson, stringifyLosslessJson } from "../../json/lossless-json";

export interface NodeRow {
  nodeId: string;
  label: string;
  normLabel: string;
  ord: number;
  data: string | null;
}

export interface EdgeRow {
  edgeKey: string;
  source: string;
  target: string;
  relation: string;
  ord: number;
  data: string | null;
}

function keysAre(obj: JsonObject, keys: string[]): boolean {
  const own = Object.keys(obj);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

export function nodeToRow(node: GraphNode, ord: number): NodeRow {
  const a = node.attrs;
  const derivable =
    (keysAre(a, ["id"]) && a.id === node.id && node.label === node.id) ||
    (keysAre(a, ["label", "id"]) && a.id === node.id && a.label === node.label);
  return {
    nodeId: node.id,
    label: node.label,
    normLabel: node.normLabel,
    ord,
    data: derivable ? null : stringifyLosslessJson(a, { ensureAscii: false }),
  };
}

export function nodeFromRow(row: NodeRow): GraphNode {
  return nodeFromColumns(row.nodeId, row.label, row.normLabel, row.ord, row.data);
}

/** `nodeFromRow` from the column values themselves: a load reads rows as arrays (no object per row). */
export function nodeFromColumns(nodeId: string, label: string, normLabel: string, ord: number, data: string | null): GraphNode {
  if (data === null) {
    // What nodeFromRecord gives for {id} or {label, id}, built at once: this runs for every node of a load.
    return {
      id: nodeId,
      label,
      normLabel,
      aliases: [],
      community: null,
      fileType: null,
      sourceFile: null,
      sourceLocation: null,
      attrs: label === nodeId ? { id: nodeId } : { label, id: nodeId },
      ord,
    };
  }
  const record = parseLosslessJson(data, { source: `node ${nodeId}` });
  if (!isJsonObject(record)) throw new Error(`stored node ${nodeId} is not an object`);
  const node = nodeFromRecord(record);
  // The row's id is authoritative (a merge may have renamed the node since import).
  return { ...node, id: nodeId, label, normLabel, ord };
}

export function edgeToRow(edge: GraphEdge, ord: number): EdgeRow {
  const a = edge.attrs;
  const derivable =
    keysAre(a, ["relation", "source", "target"]) &&
    a.relation === edge.relation &&
    a.source === edge.source &&
    a.target === edge.target;
  return {
    edgeKey: edge.key,
    source: edge.source,
    target: edge.target,
    relation: edge.relation,
    ord,
    data: derivable ? null : stringifyLosslessJson(a, { ensureAscii: false }),
  };
}

export function edgeFromRow(row: EdgeRow): GraphEdge {
  return edgeFromColumns(row.edgeKey, row.source, row.target, row.relation, row.ord, row.data);
}

/** `edgeFromRow` from the column values themselves (see nodeFromColumns). */
export function edgeFromColumns(edgeKey: string, source: string, target: string, relation: string, ord: number, data: string | null): GraphEdge {
  if (data === null) {
    // edgeFromRecord's result for {relation, source, target}, without the copy: every edge of a load comes here.
    return { key: edgeKey, source, target, relation, attrs: { relation, source, target }, ord };
  }
  const record = parseLosslessJson(data, { source: `edge ${edgeKey}` });
  if (!isJsonObject(record)) throw new Error(`stored edge ${edgeKey} is not an object`);
  return { ...edgeFromRecord(edgeKey, source, target, record), relation, ord };
}

export function metaToText(meta: GraphMeta): string {
  return stringifyLosslessJson({ linksKey: meta.linksKey, top: meta.top }, { ensureAscii: false });
}

export function metaFromText(text: string): GraphMeta {
  const value = parseLosslessJson(text, { source: "graph meta" });
  if (!isJsonObject(value) || !isJsonObject(value.top)) throw new Error("stored graph meta is corrupt");
  return { linksKey: value.linksKey === "edges" ? "edges" : "links", top: value.top };
}
