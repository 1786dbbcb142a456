"use client";

import dynamic from "next/dynamic";
import { useMemo } from "react";
import type { RunTriple, StepRecord } from "../api/run-types";
import type { CanvasEdge, CanvasNode } from "../graph-canvas";
import { EmptyState, LoadingState } from "../ui/states";
import { findQuestionEntities } from "./question-entities";
import { TripleTable } from "./triple-table";

// Cytoscape measures the DOM: it must never run during server rendering.
const GraphCanvas = dynamic(() => import("../graph-canvas"), {
  ssr: false,
  loading: () => <LoadingState label="Loading the graph view…" />,
});

function toCanvas(triples: RunTriple[], edgeKeys: string[]): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const nodes = new Map<string, CanvasNode>();
  const touch = (id: string, label: string) => {
    const node = nodes.get(id) ?? { id, label, community: 0, degree: 0 };
    node.degree += 1;
    nodes.set(id, node);
  };
  const edges = triples.map((t, i) => {
    touch(t.subject_id, t.subject);
    touch(t.object_id, t.object);
    // Indexed so a repeated key can never give Cytoscape two elements with one id.
    return { key: `${edgeKeys[i] ?? "t"}#${i}`, source: t.subject_id, target: t.object_id, relation: t.relation };
  });
  return { nodes: [...nodes.values()], edges };
}

interface StepSubgraphProps {
  question: string;
  step: StepRecord | null;
  isRunning: boolean;
}

export function StepSubgraph({ question, step, isRunning }: StepSubgraphProps) {
  const graph = useMemo(() => (step ? toCanvas(step.triples, step.edgeKeys) : null), [step]);
  const marked = useMemo(() => (graph ? findQuestionEntities(question, graph.nodes) : new Set<string>()), [question, graph]);

  if (!step || !graph) {
    return isRunning ? (
      <LoadingState label="Retrieving the first subgraph…" />
    ) : (
      <EmptyState title="No subgraph">
        <p className="muted">The run stopped before its first step finished.</p>
      </EmptyState>
    );
  }
  return (
    <div className="subgraph" data-testid="step-subgraph" data-step={step.step} data-marked-count={marked.size}>
      <div className="toolbar">
        <h2 className="toolbar__caption">
          Step {step.step}: {graph.nodes.length} entities · {step.triples.length} triples
        </h2>
        <span className="legend" aria-label="Legend">
          <span className="legend__item">
            <span className="swatch swatch--marked" aria-hidden="true" /> named in the question
          </span>
          <span className="legend__item">
            <span className="swatch swatch--plain" aria-hidden="true" /> other entity
          </span>
          <span className="legend__item muted">arrow = subject → object</span>
        </span>
      </div>
      <div className="subgraph__stage">
        {graph.nodes.length === 0 ? (
          <EmptyState title="Nothing retrieved">
            <p className="muted">This step found no triple for the question.</p>
          </EmptyState>
        ) : (
          <GraphCanvas
            nodes={graph.nodes}
            edges={graph.edges}
            markedIds={marked}
            labelAllEdges
            ariaLabel={`Subgraph retrieved at step ${step.step}: ${graph.nodes.length} entities, ${graph.edges.length} triples; ${marked.size} named in the question.`}
          />
        )}
      </div>
      <TripleTable triples={step.triples} marked={marked} keys={step.edgeKeys} testId="step-triples" />
    </div>
  );
}
