"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { EmptyState } from "../ui/states";
import { NeighbourhoodView } from "./neighbourhood-view";
import { HubSuggestions } from "./hub-suggestions";
import { NodePanel } from "./node-panel";
import { SearchPanel } from "./search-panel";

interface ExplorerProps {
  graphName: string;
}

/** The selected node lives in the URL (`?node=`), so a view can be shared and Back works. */
export function Explorer({ graphName }: ExplorerProps) {
  const searchParams = useSearchParams();
  const selected = searchParams.get("node");

  // Native pushState is synced into useSearchParams by the App Router without a server round trip.
  const select = useCallback((nodeId: string | null) => {
    const url = new URL(window.location.href);
    if (url.searchParams.get("node") === nodeId) return;
    if (nodeId === null) url.searchParams.delete("node");
    else url.searchParams.set("node", nodeId);
    window.history.pushState(null, "", url);
  }, []);

  return (
    <div className="explorer">
      <aside className="panel explorer__search" aria-label="Search">
        <SearchPanel graphName={graphName} selected={selected} onSelect={select} />
      </aside>
      <section className="panel explorer__canvas" aria-label="Neighbourhood">
        {selected ? (
          <NeighbourhoodView graphName={graphName} nodeId={selected} onSelect={select} />
        ) : (
          <div className="canvas-empty">
            <EmptyState title="Pick a node to see its neighbourhood">
              <p className="muted">Search on the left, or start from one of the most connected nodes:</p>
              <HubSuggestions graphName={graphName} selected={null} onSelect={select} variant="chips" max={6} />
            </EmptyState>
          </div>
        )}
      </section>
      <aside className="panel explorer__details" aria-label="Node details">
        {selected ? (
          <NodePanel graphName={graphName} nodeId={selected} onSelect={select} />
        ) : (
          <EmptyState title="No node selected">
            <p className="muted">Its attributes, its triples and the source text behind it will show here.</p>
          </EmptyState>
        )}
      </aside>
    </div>
  );
}
