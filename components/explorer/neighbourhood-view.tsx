"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { ApiError } from "../api/fetch-json";
import { useNeighbourhood } from "../api/get-neighbourhood";
import { ErrorState, LoadingState } from "../ui/states";
import { HubSuggestions } from "./hub-suggestions";

// Cytoscape measures the DOM: it must never run during server rendering.
const GraphCanvas = dynamic(() => import("../graph-canvas"), {
  ssr: false,
  loading: () => <LoadingState label="Loading the graph view…" />,
});

function isNotFound(error: Error): boolean {
  return error instanceof ApiError && error.code === "NOT_FOUND";
}

interface NeighbourhoodViewProps {
  graphName: string;
  nodeId: string;
  onSelect: (nodeId: string | null) => void;
}

export function NeighbourhoodView({ graphName, nodeId, onSelect }: NeighbourhoodViewProps) {
  const [depth, setDepth] = useState(1);
  const query = useNeighbourhood(graphName, nodeId, depth);
  const data = query.data;

  return (
    <div className="neighbourhood">
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Depth">
          {[1, 2].map((d) => (
            <button key={d} type="button" aria-pressed={depth === d} onClick={() => setDepth(d)}>
              {d} hop{d === 1 ? "" : "s"}
            </button>
          ))}
        </div>
        {data ? (
          <span className="toolbar__caption" data-testid="neighbourhood-caption">
            {data.nodes.length} nodes · {data.edges.length} edges
            {data.truncated ? (
              <span className="warning-text" title="Neighbours are taken in stored edge order up to the limit">
                {" "}
                · limited to the first {data.nodes.length} nodes
              </span>
            ) : null}
          </span>
        ) : null}
        <span className="toolbar__legend" aria-hidden="true">
          colour = community · arrow = subject → object
        </span>
      </div>
      <div className="neighbourhood__stage">
        {query.isPending ? (
          <LoadingState label="Loading the neighbourhood…" />
        ) : query.isError ? (
          <ErrorState
            title={isNotFound(query.error) ? "Node not found" : "Could not load the neighbourhood"}
            message={query.error.message}
            action={
              <>
                <button type="button" className="button" onClick={() => onSelect(null)}>
                  Clear the selection
                </button>
                {isNotFound(query.error) ? (
                  <HubSuggestions graphName={graphName} selected={null} onSelect={onSelect} variant="chips" max={6} />
                ) : null}
              </>
            }
          />
        ) : (
          <GraphCanvas nodes={query.data.nodes} edges={query.data.edges} selectedId={query.data.center} onSelectNode={onSelect} />
        )}
      </div>
    </div>
  );
}
