"use client";

import dynamic from "next/dynamic";
import { useMemo } from "react";
import type { AskTrace } from "../api/ask-types";
import type { CanvasEdge, CanvasNode } from "../graph-canvas";
import { EmptyState, LoadingState } from "../ui/states";
import { TripleTable } from "../runs/triple-table";

// Cytoscape measures the DOM: it must never run during server rendering.
const GraphCanvas = dynamic(() => import("../graph-canvas"), {
  ssr: false,
  loading: () => <LoadingState label="Loading the graph view…" />,
});

/** More than this and the drawing is a hairball: the table below lists them all anyway. */
const MAX_DRAWN = 150;

function toCanvas(trace: AskTrace): { nodes: CanvasNode[]; edges: CanvasEdge[]; drawn: number } {
  const nodes = new Map<string, CanvasNode>();
  const touch = (id: string, label: string) => {
    const node = nodes.get(id) ?? { id, label, community: 0, degree: 0 };
    node.degree += 1;
    nodes.set(id, node);
  };
  const triples = trace.subgraph.slice(0, MAX_DRAWN);
  const edges = triples.map((t, i) => {
    touch(t.subject_id, t.subject);
    touch(t.object_id, t.object);
    return { key: `t${i}`, source: t.subject_id, target: t.object_id, relation: t.relation };
  });
  return { nodes: [...nodes.values()], edges, drawn: triples.length };
}

/** The triples the ask used, drawn, with the answers marked. */
export function AskSubgraph({ trace }: { trace: AskTrace }) {
  const graph = useMemo(() => toCanvas(trace), [trace]);
  const answers = useMemo(() => new Set(trace.answers.flatMap((a) => (a.id ? [a.id] : []))), [trace]);
  if (trace.subgraph.length === 0) {
    return (
      <EmptyState title="No triple used">
        <p className="muted small">The graph gave nothing for this question{trace.options.corpusFallback ? "; see the corpus passages" : ""}.</p>
      </EmptyState>
    );
  }
  return (
    <div className="subgraph ask-subgraph" data-testid="ask-subgraph" data-triples={trace.subgraph.length}>
      <div className="toolbar">
        <h3 className="toolbar__caption">
          {graph.nodes.length} entities · {trace.subgraph.length} triples
          {trace.subgraph.length > graph.drawn ? ` (first ${graph.drawn} drawn)` : ""}
        </h3>
        <span className="legend" aria-label="Legend">
          <span className="legend__item">
            <span className="swatch swatch--marked" aria-hidden="true" /> answer
          </span>
          <span className="legend__item">
            <span className="swatch swatch--plain" aria-hidden="true" /> other entity
          </span>
          <span className="legend__item muted">arrow = subject → object</span>
        </span>
      </div>
      <div className={graph.nodes.length <= 8 ? "subgraph__stage ask-subgraph__stage ask-subgraph__stage--small" : "subgraph__stage ask-subgraph__stage"}>
        <GraphCanvas
          nodes={graph.nodes}
          edges={graph.edges}
          markedIds={answers}
          labelAllEdges={graph.edges.length <= 40}
          ariaLabel={`Subgraph the ask used: ${graph.nodes.length} entities, ${graph.edges.length} triples; ${answers.size} answers marked.`}
        />
      </div>
      <details className="ask-subgraph__table">
        <summary className="small">All {trace.subgraph.length} triples</summary>
        <TripleTable triples={trace.subgraph} marked={answers} testId="ask-triples" />
      </details>
    </div>
  );
}
