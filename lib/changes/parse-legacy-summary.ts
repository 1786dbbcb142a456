/**
 * Versions committed before summaries were stored as data kept only a text naming node ids
 * ("merges client_asyncclient into client_client (survivor: …)"). This reads those texts back
 * into a change, so old histories show labels too. A text in none of the old shapes gives null
 * and is shown as it was stored.
 */
import type { ActionChange, NodeRef } from "./describe-change";

/** The label of a node id (from the changeset's ops or the graph's rows); undefined when unknown. */
export type LabelOfId = (id: string) => string | undefined;

// `A --rel--> B`: ids and relations are free text, so the arrows split them (lazy on the left).
const EDGE = "(.+?) --(.+?)--> (.+)";
/** The same, when more text follows the edge. */
const EDGE_THEN = "(.+?) --(.+?)--> (.+?)";

export function parseLegacySummary(summary: string, labelOf: LabelOfId): ActionChange | null {
  const ref = (id: string): NodeRef => ({ id, label: labelOf(id) ?? id });
  const edge = (m: RegExpExecArray, at: number) => ({ source: ref(m[at] as string), relation: m[at + 1] as string, target: ref(m[at + 2] as string) });
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`^no change: the edge ${EDGE} already exists$`).exec(summary))) return { kind: "edge_exists", ...edge(m, 1) };
  if ((m = /^no change: ("(?:[^"\\]|\\.)*") and ("(?:[^"\\]|\\.)*") are the same node$/.exec(summary))) {
    return { kind: "same_node", old: JSON.parse(m[1] as string) as string, new: JSON.parse(m[2] as string) as string };
  }
  if ((m = new RegExp(`^removes (\\d+) of (\\d+) identical copies; 1 kept: ${EDGE_THEN}(?: \\(the kept copy cites (.*); removed copies cited (.*)\\))?$`).exec(summary))) {
    return {
      kind: "remove_copies",
      removed: Number(m[1]),
      copies: Number(m[2]),
      ...edge(m, 3),
      keptCites: m[6] === "no source" ? "" : (m[6] ?? ""),
      removedCites: m[7] ? m[7].split("; ") : [],
    };
  }
  if ((m = new RegExp(`^removes ${EDGE}$`).exec(summary))) return { kind: "remove_edge", ...edge(m, 1) };
  if ((m = new RegExp(`^adds ${EDGE_THEN}(?: \\(new nodes? (.+)\\))?$`).exec(summary))) {
    const created = m[4] ? m[4].split(", ").map(ref) : [];
    return { kind: "add_edge", ...edge(m, 1), created };
  }
  if ((m = /^merges (.+) into (.+) \(survivor: \2; (\d+) edges? rewired(?:, (\d+) dropped as duplicates or self-loops)?; /.exec(summary))) {
    return { kind: "merge", from: ref(m[1] as string), into: ref(m[2] as string), rewired: Number(m[3]), dropped: Number(m[4] ?? 0) };
  }
  if ((m = /^renames (.+) from ("(?:[^"\\]|\\.)*") to ("(?:[^"\\]|\\.)*") \(old name kept as an alias\)$/.exec(summary))) {
    return { kind: "rename", node: { id: m[1] as string, label: JSON.parse(m[2] as string) as string }, to: JSON.parse(m[3] as string) as string };
  }
  return null;
}
