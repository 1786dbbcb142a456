/**
 * The part of a stored graph one retrieval reads, as a `KnowledgeGraph` the pure retrieval code
 * runs on unchanged (sql-retrieval.ts). It answers only what it holds completely and records
 * every read it could not answer:
 *   - a node's adjacency (out/in/incident edges, neighbours) unless all its edges are loaded;
 *   - a node by id, and the nodes of a normalised label, unless they were fetched;
 *   - a degree: the stored degree of every node it holds (fetched with the node), so a node's
 *     degree is right without its edges.
 * A run that recorded nothing read only complete answers, so it returned what the same code
 * returns on the whole graph; otherwise the caller fetches what was missing and runs again.
 */
import type { GraphEdge, GraphMeta } from "../../graph/model";
import { KnowledgeGraph } from "../../graph/model";

/** What a partial graph holds completely; filled by the caller between runs. */
export interface PartialGraphKnowledge {
  /** Stored degree of every node held. */
  readonly degrees: ReadonlyMap<string, number>;
  /** Nodes whose every edge is held. */
  readonly complete: ReadonlySet<string>;
  /** Ids known not to be nodes of this version. */
  readonly absent: ReadonlySet<string>;
  /** Normalised labels whose nodes (by label or alias) are all held. */
  readonly norms: ReadonlySet<string>;
}

export interface PartialGraphMisses {
  ids: Set<string>;
  adjacency: Set<string>;
  norms: Set<string>;
}

export class PartialGraph extends KnowledgeGraph {
  readonly misses: PartialGraphMisses = { ids: new Set(), adjacency: new Set(), norms: new Set() };

  constructor(
    meta: GraphMeta,
    private readonly knowledge: PartialGraphKnowledge,
  ) {
    super(meta);
  }

  hasMisses(): boolean {
    return this.misses.ids.size > 0 || this.misses.adjacency.size > 0 || this.misses.norms.size > 0;
  }

  private read(id: string): void {
    if (this.knowledge.complete.has(id)) return;
    if (this.knowledge.degrees.has(id)) this.misses.adjacency.add(id);
    else if (!this.knowledge.absent.has(id)) this.misses.ids.add(id);
  }

  override getNode(id: string) {
    const node = super.getNode(id);
    if (!node && !this.knowledge.absent.has(id)) this.misses.ids.add(id);
    return node;
  }

  override idsByNormLabel(norm: string): ReadonlySet<string> {
    if (!this.knowledge.norms.has(norm)) this.misses.norms.add(norm);
    return super.idsByNormLabel(norm);
  }

  override degree(id: string): number {
    const known = this.knowledge.degrees.get(id);
    if (known !== undefined) return known;
    if (!this.knowledge.absent.has(id)) this.misses.ids.add(id);
    return 0;
  }

  override outEdgeKeys(id: string): Iterable<string> {
    this.read(id);
    return super.outEdgeKeys(id);
  }

  override inEdgeKeys(id: string): Iterable<string> {
    this.read(id);
    return super.inEdgeKeys(id);
  }

  override outEdges(id: string): GraphEdge[] {
    this.read(id);
    return super.outEdges(id);
  }

  override inEdges(id: string): GraphEdge[] {
    this.read(id);
    return super.inEdges(id);
  }

  override incidentEdges(id: string): GraphEdge[] {
    this.read(id);
    return super.incidentEdges(id);
  }

  override forEachIncident(id: string, visit: (edge: GraphEdge) => void): void {
    this.read(id);
    super.forEachIncident(id, visit);
  }

  override neighborIds(id: string): Set<string> {
    this.read(id);
    return super.neighborIds(id);
  }
}
