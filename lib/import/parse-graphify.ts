/**
 * graphify `graph.json` (networkx node-link JSON) → KnowledgeGraph.
 *
 * Quirks honoured (see shared/data/README.md): edges under `links` or `edges`; `_src`/`_tgt`
 * give the true direction when present; `label` may be missing (fall back to id); `community`
 * may be int, string or null; `hyperedges` and unknown fields are kept for export; parallel
 * links are kept. Errors name the file and the offending record.
 */
import { AppError } from "../errors";
import type { JsonObject, JsonValue } from "../json/lossless-json";
import { LosslessNumber, isJsonObject, parseLosslessJson } from "../json/lossless-json";
import { KnowledgeGraph, edgeFromRecord, nodeFromRecord } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import type { LabelCapOptions } from "./cap-label";
import { createLabelCapper } from "./cap-label";

export interface ParseGraphifyOptions extends LabelCapOptions {
  /** Name used in error messages. */
  source?: string;
}

function invalid(source: string, message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError("INVALID_INPUT", `${source}: ${message}`, { source, ...details });
}

function endpoint(value: JsonValue | undefined): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return null;
}

export function parseGraphifyJson(text: string, options: ParseGraphifyOptions = {}): KnowledgeGraph {
  const source = options.source ?? "graph.json";
  const doc = parseLosslessJson(text, { source });
  return graphFromGraphifyDocument(doc, source, options);
}

export function graphFromGraphifyDocument(doc: JsonValue, source = "graph.json", capOptions: LabelCapOptions = {}): KnowledgeGraph {
  const capper = createLabelCapper(source, capOptions);
  if (!isJsonObject(doc)) throw invalid(source, "expected a JSON object with \"nodes\" and \"links\"");
  const nodes = doc.nodes;
  if (!Array.isArray(nodes)) throw invalid(source, "\"nodes\" must be an array");
  const linksKey = Array.isArray(doc.links) ? "links" : Array.isArray(doc.edges) ? "edges" : null;
  if (linksKey === null) {
    if (doc.links !== undefined || doc.edges !== undefined) throw invalid(source, `"links" must be an array`);
  }
  const links = linksKey ? (doc[linksKey] as JsonValue[]) : [];

  const top: JsonObject = {};
  for (const key of Object.keys(doc)) {
    // defineProperty: a top-level key named "__proto__" is data to keep for export, not a prototype.
    Object.defineProperty(top, key, { value: key === "nodes" || key === linksKey ? null : (doc[key] as JsonValue), enumerable: true, writable: true, configurable: true });
  }
  if (linksKey === null) top.links = null;
  const hyperedges = doc.hyperedges;
  if (hyperedges !== undefined && !Array.isArray(hyperedges)) throw invalid(source, "\"hyperedges\" must be an array");

  const graph = new KnowledgeGraph({ top, linksKey: linksKey ?? "links" });
  nodes.forEach((record, i) => {
    if (!isJsonObject(record)) throw invalid(source, `nodes[${i}] is not an object`, { index: i });
    const id = endpoint(record.id);
    if (id === null) throw invalid(source, `nodes[${i}] has no string "id"`, { index: i });
    if (typeof record.id === "number") {
      throw invalid(source, `nodes[${i}] has a numeric id ${id}; Refinery needs string ids`, { index: i });
    }
    if (record.label !== undefined && record.label !== null && typeof record.label !== "string") {
      throw invalid(source, `nodes[${i}] (${id}): "label" must be a string`, { index: i });
    }
    const c = record.community;
    if (c !== undefined && c !== null && typeof c !== "string" && typeof c !== "number" && !(c instanceof LosslessNumber)) {
      throw invalid(source, `nodes[${i}] (${id}): "community" must be an integer, a string or null`, { index: i });
    }
    if (graph.nodes.has(id)) throw invalid(source, `nodes[${i}]: duplicate node id ${JSON.stringify(id)}`, { index: i, id });
    const node = nodeFromRecord(record);
    const label = capper.cap(id, node.label);
    graph.addNode(label === node.label ? node : { ...node, label, normLabel: normalizeLabel(label) });
  });
  capper.report();

  links.forEach((record, i) => {
    if (!isJsonObject(record)) throw invalid(source, `${linksKey}[${i}] is not an object`, { index: i });
    const s = endpoint(record._src) ?? endpoint(record.source);
    const t = endpoint(record._tgt) ?? endpoint(record.target);
    if (s === null || t === null) throw invalid(source, `${linksKey}[${i}] needs "source" and "target"`, { index: i });
    if (record.relation !== undefined && typeof record.relation !== "string") {
      throw invalid(source, `${linksKey}[${i}]: "relation" must be a string`, { index: i });
    }
    for (const end of [s, t]) {
      if (!graph.nodes.has(end)) {
        throw invalid(source, `${linksKey}[${i}] refers to unknown node ${JSON.stringify(end)}`, { index: i, node: end });
      }
    }
    graph.addEdge(edgeFromRecord(`e${i}`, s, t, record));
  });
  return graph;
}
