/**
 * A DiffGraph as Cytoscape elements. Every difference is carried three ways, so it reads in
 * any colour vision and in greyscale: a class (colour and width in the stylesheet), a label
 * prefix (+ added, − removed, ~ changed) and a tooltip sentence. Rewired edges are drawn at
 * their new endpoints; a hidden "ghost" copy at the old endpoints shapes the before-layout and
 * is what the Before view shows.
 */
import type { ElementDefinition } from "cytoscape";
import type { DiffGraph, DiffGraphEdge, DiffGraphNode, DiffStatus } from "../api/diff-types";

export const PREFIX: Record<DiffStatus, string> = { added: "+ ", removed: "− ", changed: "~ ", merged: "− ", context: "" };

const MAX_LABEL = 36;

export function shorten(label: string): string {
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
}

export function edgeElementId(edgeId: string): string {
  return `edge:${edgeId}`;
}

function quote(label: string): string {
  return `“${label}”`;
}

function nodeTip(node: DiffGraphNode, labelOf: (id: string) => string): string {
  switch (node.status) {
    case "added":
      return `Added node ${quote(node.label)}`;
    case "removed":
      return `Removed node ${quote(node.label)}`;
    case "merged":
      return `${quote(node.label)} was merged into ${quote(labelOf(node.mergedInto ?? ""))}: its edges moved to the survivor or were dropped as duplicates`;
    case "changed":
      return node.previousLabel && node.previousLabel !== node.label
        ? `Changed node ${quote(node.label)} (was ${quote(node.previousLabel)})`
        : `Changed node ${quote(node.label)} (attributes or merged-in aliases)`;
    case "context":
      return `${quote(node.label)}: unchanged (context)`;
  }
}

function nodeLabel(node: DiffGraphNode, labelOf: (id: string) => string): string {
  if (node.status === "merged" && node.mergedInto) return `− ${shorten(node.label)} → ${shorten(labelOf(node.mergedInto))}`;
  const renamed = node.status === "changed" && node.previousLabel && node.previousLabel !== node.label;
  return `${PREFIX[node.status]}${shorten(node.label)}${renamed ? ` (was ${shorten(node.previousLabel ?? "")})` : ""}`;
}

function triple(source: string, relation: string, target: string, labelOf: (id: string) => string): string {
  return `${labelOf(source)} —${relation}→ ${labelOf(target)}`;
}

function edgeTip(edge: DiffGraphEdge, labelOf: (id: string) => string): string {
  const now = triple(edge.source, edge.relation, edge.target, labelOf);
  switch (edge.status) {
    case "added":
      return `Added edge: ${now}`;
    case "removed":
    case "merged":
      return `Removed edge: ${now}`;
    case "changed":
      return edge.previous
        ? `Rewired edge: now ${now}; was ${triple(edge.previous.source, edge.previous.relation, edge.previous.target, labelOf)}`
        : `Changed edge: ${now}`;
    case "context":
      return `${now} (unchanged)`;
  }
}

export interface DiffElements {
  elements: ElementDefinition[];
  /** Nodes, edges and merge connectors drawn in the Diff view (ghosts excluded). */
  drawn: number;
}

/**
 * Cytoscape ids of nodes: prefixed, so a graph's own ids (`constructor`, `__proto__`) never meet
 * the layout library's id-keyed plain objects (the explorer's canvas does the same).
 */
export function diffNodeId(nodeId: string): string {
  return `n:${nodeId}`;
}

export function toDiffElements(graph: DiffGraph): DiffElements {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const labelOf = (id: string) => byId.get(id)?.label ?? id;
  const elements: ElementDefinition[] = [];
  let drawn = 0;
  for (const node of graph.nodes) {
    elements.push({
      group: "nodes",
      data: { id: diffNodeId(node.id), label: nodeLabel(node, labelOf), tip: nodeTip(node, labelOf) },
      classes: node.status,
    });
    drawn++;
  }
  for (const edge of graph.edges) {
    if (!byId.has(edge.source) || !byId.has(edge.target)) continue;
    const relabelled = edge.previous && edge.previous.relation !== edge.relation;
    const label = `${PREFIX[edge.status]}${relabelled ? `${edge.previous?.relation} → ` : ""}${edge.relation}`;
    elements.push({
      group: "edges",
      data: { id: edgeElementId(edge.id), source: diffNodeId(edge.source), target: diffNodeId(edge.target), label, tip: edgeTip(edge, labelOf) },
      classes: edge.status === "merged" ? "removed" : edge.status,
    });
    drawn++;
    const before = edge.previous;
    if (edge.status === "changed" && before && byId.has(before.source) && byId.has(before.target)) {
      elements.push({
        group: "edges",
        data: {
          id: `ghost:${edge.id}`,
          source: diffNodeId(before.source),
          target: diffNodeId(before.target),
          label: `~ ${before.relation} (before)`,
          tip: `Before the change: ${triple(before.source, before.relation, before.target, labelOf)}`,
        },
        classes: "ghost",
      });
    }
  }
  for (const node of graph.nodes) {
    if (node.status !== "merged" || !node.mergedInto || !byId.has(node.mergedInto)) continue;
    elements.push({
      group: "edges",
      data: {
        id: `merge:${node.id}`,
        source: diffNodeId(node.id),
        target: diffNodeId(node.mergedInto),
        label: "merged into",
        tip: nodeTip(node, labelOf),
      },
      classes: "merge-link",
    });
    drawn++;
  }
  return { elements, drawn };
}

export interface DiffCounts {
  added: number;
  removed: number;
  changed: number;
  merged: number;
  context: number;
}

/** Counts of nodes and edges per status, for the legend. */
export function countByStatus(graph: DiffGraph): DiffCounts {
  const counts: DiffCounts = { added: 0, removed: 0, changed: 0, merged: 0, context: 0 };
  for (const element of [...graph.nodes, ...graph.edges]) counts[element.status]++;
  return counts;
}
