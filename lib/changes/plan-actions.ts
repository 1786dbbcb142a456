/**
 * Refinement actions → a changeset of explicit operations, on the graph version the proposal
 * was made from. Names are resolved with the same function review uses, so what a reviewer was
 * shown ("node exists: client_client") is exactly what changes.
 *
 * - insert_edge: missing endpoints become new nodes (with `norm_label`, and the community of
 *   the node they are linked to); an edge that already exists is a no-op, reported as skipped.
 * - delete_edge: removes the matching edge; when it is stored several times (identical copies:
 *   same endpoints, same relation) it removes the extra copies and keeps the first, so a
 *   duplicate clean-up never loses the fact (a second delete then removes the last copy).
 * - replace_node(old, new): when `new` names an existing node, a real merge into it (the
 *   survivor): every edge of `old` is rewired to the survivor, edges that would become
 *   self-loops or exact duplicates are removed, `old`'s label and aliases become the survivor's
 *   aliases and attributes the survivor lacks are kept; then `old` is removed. Otherwise a
 *   rename: `old` keeps its id, gets the new label, and its old label becomes an alias.
 */
import { AppError } from "../errors";
import type { GraphEdge, GraphNode, KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { documentIdsOf } from "../import/corpus";
import type { JsonObject } from "../json/lossless-json";
import { pyFloat } from "../json/lossless-json";
import type { RefinementAction } from "../loop/types";
import { resolveActionNames } from "../review/resolve-action";
import type { ResolvedName } from "../review/types";
import { findDisplayName } from "../graph/display-names";
import type { ChangeOp, Changeset, EdgeState } from "./changeset";
import type { ActionChange, NameOf, NodeRef } from "./describe-change";
import { describeChange, nameInSentence, quoted } from "./describe-change";
import { edgeFromState, edgeState, nodeFromState, nodeState } from "./changeset";

export interface PlannedAction {
  index: number;
  action: RefinementAction;
  /** What the action does, as data: node ids with their labels. */
  change: ActionChange;
  /** The same as a sentence for people: "Merges “AsyncClient” into “Client” (3 edges rewired); …". */
  summary: string;
  /** Ops of this action within the changeset: [start, end). */
  ops: [number, number];
  skipped: boolean;
}

export interface Merge {
  from: string;
  into: string;
}

export interface Plan {
  changeset: Changeset;
  actions: PlannedAction[];
  merges: Merge[];
}

export interface PlanOptions {
  graph: KnowledgeGraph;
  actions: RefinementAction[];
  /** New edge keys must be unique across all versions of the graph: e.g. `v7.0`, `v7.1`. */
  edgeKeyPrefix: string;
  /**
   * How summaries name nodes; by default the label, with the file that tells two nodes of one
   * label apart (server callers pass passage titles too: describePlannedActions).
   */
  nameOf?: NameOf;
}

function refuse(index: number, message: string): never {
  throw new AppError("INVALID_INPUT", `action ${index + 1}: ${message}`, { action: index });
}

function describe(name: ResolvedName): string {
  return name.candidates.slice(0, 5).map((c) => c.qualified).join(", ");
}

/** Working view: the base graph plus the plan's effects so far (later actions see earlier ones). */
class Overlay {
  private readonly nodes = new Map<string, GraphNode | null>();
  private readonly edges = new Map<string, GraphEdge | null>();
  constructor(readonly graph: KnowledgeGraph) {}
  node(id: string): GraphNode | undefined {
    return this.nodes.has(id) ? (this.nodes.get(id) ?? undefined) : this.graph.getNode(id);
  }
  setNode(id: string, node: GraphNode | null): void {
    this.nodes.set(id, node);
  }
  edge(key: string): GraphEdge | undefined {
    return this.edges.has(key) ? (this.edges.get(key) ?? undefined) : this.graph.edges.get(key);
  }
  setEdge(key: string, edge: GraphEdge | null): void {
    this.edges.set(key, edge);
  }
  /** Live edges touching `id`, base graph and plan together. */
  incident(id: string): GraphEdge[] {
    const out = new Map<string, GraphEdge>();
    for (const e of this.graph.incidentEdges(id)) {
      const now = this.edge(e.key);
      if (now && (now.source === id || now.target === id)) out.set(now.key, now);
    }
    for (const [key, e] of this.edges) if (e && (e.source === id || e.target === id)) out.set(key, e);
    return [...out.values()];
  }
  between(source: string, target: string, relation: string): GraphEdge[] {
    return this.incident(source).filter((e) => e.source === source && e.target === target && e.relation === relation);
  }
}

function usesCommunities(graph: KnowledgeGraph): boolean {
  for (const node of graph.nodes.values()) if (node.community !== null) return true;
  return false;
}

function usesTrueDirection(graph: KnowledgeGraph): boolean {
  const first = graph.edges.values().next().value;
  return first !== undefined && "_src" in first.attrs;
}

function isGraphifyStyle(graph: KnowledgeGraph): boolean {
  const first = graph.edges.values().next().value;
  return first !== undefined && "confidence" in first.attrs;
}

/** The ids a node created for `label` may get, first free one wins (touched-items.ts reads it too). */
export function newNodeIdCandidate(label: string, attempt: number): string {
  const slug = normalizeLabel(label).replace(/[^\p{L}\p{N}]+/gu, "_").replace(/^_+|_+$/g, "").slice(0, 60) || "node";
  return attempt < 2 ? `refinery_${slug}` : `refinery_${slug}_${attempt}`;
}

function uniqueNodeId(overlay: Overlay, label: string): string {
  let id = newNodeIdCandidate(label, 1);
  for (let n = 2; overlay.node(id); n++) id = newNodeIdCandidate(label, n);
  return id;
}

/** Label, plus what tells it apart from a node of the same label in `graph` (new nodes: the label). */
export function nameInGraph(graph: KnowledgeGraph): NameOf {
  return (ref) => {
    const name = findDisplayName({ graph, id: ref.id });
    return name && name.label === ref.label ? nameInSentence(name) : quoted(ref.label);
  };
}

export function planActions({ graph, actions, edgeKeyPrefix, nameOf = nameInGraph(graph) }: PlanOptions): Plan {
  const overlay = new Overlay(graph);
  const ops: ChangeOp[] = [];
  const planned: PlannedAction[] = [];
  const merges: Merge[] = [];
  const withCommunity = usesCommunities(graph);
  const trueDirection = usesTrueDirection(graph);
  const graphifyStyle = isGraphifyStyle(graph);
  let keyCount = 0;

  const push = (op: ChangeOp) => {
    ops.push(op);
    switch (op.op) {
      case "add_node":
        overlay.setNode(op.node.id, nodeFromState(op.node));
        break;
      case "remove_node":
        overlay.setNode(op.node.id, null);
        break;
      case "update_node":
        overlay.setNode(op.after.id, nodeFromState(op.after));
        break;
      case "add_edge":
        overlay.setEdge(op.edge.key, edgeFromState(op.edge));
        break;
      case "remove_edge":
        overlay.setEdge(op.edge.key, null);
        break;
      case "update_edge":
        overlay.setEdge(op.after.key, edgeFromState(op.after));
        break;
    }
  };

  /** An existing node, or a new one (community from the node it will be linked to). */
  const endpoint = (index: number, name: ResolvedName, linkedTo: GraphNode | undefined): { id: string; created: boolean } => {
    if (name.status === "ambiguous") refuse(index, `${JSON.stringify(name.name)} names several nodes (${describe(name)}); use one of these qualified names`);
    if (name.nodeId && overlay.node(name.nodeId)) return { id: name.nodeId, created: false };
    const label = name.name.trim();
    if (!label) refuse(index, "an empty name");
    // A node created earlier in this plan under the same label is the same node.
    for (const op of ops) if (op.op === "add_node" && op.node.label === label) return { id: op.node.id, created: false };
    const id = uniqueNodeId(overlay, label);
    const attrs: JsonObject = { label, id, norm_label: normalizeLabel(label) };
    if (withCommunity) attrs.community = linkedTo?.community ?? null;
    push({ op: "add_node", node: { id, label, attrs } });
    return { id, created: true };
  };

  const newEdgeAttrs = (source: string, target: string, relation: string): JsonObject => {
    if (!graphifyStyle) return { relation, source, target };
    const attrs: JsonObject = { relation, confidence: "INFERRED", source_file: "refinery", source_location: "", weight: pyFloat(1) };
    if (trueDirection) {
      attrs._src = source;
      attrs._tgt = target;
    }
    attrs.source = source;
    attrs.target = target;
    return attrs;
  };

  const refOf = (id: string): NodeRef => ({ id, label: overlay.node(id)?.label ?? id });

  actions.forEach((action, index) => {
    const start = ops.length;
    let change: ActionChange;
    let skipped = false;
    const names = resolveActionNames({ graph, action });
    if (action.type === "insert_edge") {
      const relation = action.relation.trim();
      if (!relation) refuse(index, "an empty relation");
      const subjectName = names.subject as ResolvedName;
      const objectName = names.object as ResolvedName;
      const existingSubject = subjectName.nodeId ? overlay.node(subjectName.nodeId) : undefined;
      const existingObject = objectName.nodeId ? overlay.node(objectName.nodeId) : undefined;
      const s = endpoint(index, subjectName, existingObject);
      const o = endpoint(index, objectName, existingSubject ?? overlay.node(s.id));
      if (overlay.between(s.id, o.id, relation).length > 0) {
        skipped = true;
        change = { kind: "edge_exists", source: refOf(s.id), relation, target: refOf(o.id) };
      } else {
        const key = `${edgeKeyPrefix}${keyCount++}`;
        push({ op: "add_edge", edge: { key, source: s.id, target: o.id, relation, attrs: newEdgeAttrs(s.id, o.id, relation) } });
        const created = [s, o].filter((x) => x.created).map((x) => refOf(x.id));
        change = { kind: "add_edge", source: refOf(s.id), relation, target: refOf(o.id), created };
      }
    } else if (action.type === "delete_edge") {
      const s = names.subject as ResolvedName;
      const o = names.object as ResolvedName;
      for (const n of [s, o]) {
        if (n.status === "ambiguous") refuse(index, `${JSON.stringify(n.name)} names several nodes (${describe(n)})`);
        if (!n.nodeId) refuse(index, `no node named ${JSON.stringify(n.name)}: nothing to delete`);
      }
      const matches = overlay.between(s.nodeId as string, o.nodeId as string, action.relation.trim());
      const [kept, ...extra] = matches;
      if (!kept) refuse(index, `there is no edge ${s.nodeId} --${action.relation}--> ${o.nodeId} to delete`);
      const edge = { source: refOf(kept.source), relation: kept.relation, target: refOf(kept.target) };
      if (extra.length === 0) {
        push({ op: "remove_edge", edge: edgeState(kept) });
        change = { kind: "remove_edge", ...edge };
      } else {
        // Identical copies: the delete is a clean-up, so the fact stays (the first copy, in file order).
        for (const e of extra) push({ op: "remove_edge", edge: edgeState(e) });
        const cited = (e: GraphEdge) => documentIdsOf(e).join(", ");
        const lost = [...new Set(extra.map(cited).filter((c) => c && c !== cited(kept)))];
        change = { kind: "remove_copies", removed: extra.length, copies: matches.length, ...edge, keptCites: lost.length > 0 ? cited(kept) : "", removedCites: lost };
      }
    } else {
      const oldName = names.old as ResolvedName;
      const newName = names.new as ResolvedName;
      if (oldName.status === "ambiguous") refuse(index, `${JSON.stringify(oldName.name)} names several nodes (${describe(oldName)})`);
      const old = oldName.nodeId ? overlay.node(oldName.nodeId) : undefined;
      if (!old) refuse(index, `no node named ${JSON.stringify(oldName.name)} to replace`);
      if (newName.status === "ambiguous") refuse(index, `${JSON.stringify(newName.name)} names several nodes (${describe(newName)})`);
      const survivor = newName.nodeId ? overlay.node(newName.nodeId) : undefined;
      if (survivor && survivor.id === old.id) {
        skipped = true;
        change = { kind: "same_node", old: oldName.name, new: newName.name };
      } else if (survivor) {
        change = merge(old, survivor);
        merges.push({ from: old.id, into: survivor.id });
      } else {
        const label = action.new.trim();
        if (!label) refuse(index, "an empty new name");
        const aliases = [...new Set([...old.aliases, old.label])].filter((a) => a !== label);
        const attrs: JsonObject = { ...old.attrs, label, aliases };
        if ("norm_label" in old.attrs) attrs.norm_label = normalizeLabel(label);
        push({ op: "update_node", before: nodeState(old), after: { id: old.id, label, attrs } });
        change = { kind: "rename", node: { id: old.id, label: old.label }, to: label };
      }
    }
    planned.push({ index, action, change, summary: describeChange(change, nameOf), ops: [start, ops.length], skipped });
  });

  function merge(old: GraphNode, survivor: GraphNode): ActionChange {
    let rewired = 0;
    let dropped = 0;
    for (const edge of overlay.incident(old.id)) {
      const source = edge.source === old.id ? survivor.id : edge.source;
      const target = edge.target === old.id ? survivor.id : edge.target;
      const duplicate = overlay.between(source, target, edge.relation).some((e) => e.key !== edge.key);
      if (source === target || duplicate) {
        push({ op: "remove_edge", edge: edgeState(edge) });
        dropped++;
        continue;
      }
      const attrs: JsonObject = { ...edge.attrs };
      if ("_src" in attrs) {
        attrs._src = source;
        attrs._tgt = target;
      }
      if ("source" in attrs) {
        attrs.source = source;
        attrs.target = target;
      }
      const after: EdgeState = { key: edge.key, source, target, relation: edge.relation, attrs };
      push({ op: "update_edge", before: edgeState(edge), after });
      rewired++;
    }
    const current = overlay.node(survivor.id) ?? survivor;
    const aliases = [...new Set([...current.aliases, old.label, ...old.aliases])].filter((a) => a !== current.label);
    const attrs: JsonObject = { ...current.attrs };
    for (const [k, v] of Object.entries(old.attrs)) if (!(k in attrs) && k !== "id" && k !== "label") attrs[k] = v;
    attrs.aliases = aliases;
    push({ op: "update_node", before: nodeState(current), after: { id: current.id, label: current.label, attrs } });
    push({ op: "remove_node", node: nodeState(overlay.node(old.id) ?? old) });
    return { kind: "merge", from: { id: old.id, label: old.label }, into: { id: survivor.id, label: survivor.label }, rewired, dropped };
  }

  return { changeset: { ops }, actions: planned, merges };
}
