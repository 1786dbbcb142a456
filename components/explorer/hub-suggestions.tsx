"use client";

import { useHubNodes } from "../api/find-hub-nodes";
import { ErrorState, LoadingState } from "../ui/states";
import { NodeList } from "./node-list";

interface HubSuggestionsProps {
  graphName: string;
  selected: string | null;
  onSelect: (nodeId: string) => void;
  variant: "list" | "chips";
  max?: number;
}

/** The most connected nodes, as a starting point. The first request also loads the graph. */
export function HubSuggestions({ graphName, selected, onSelect, variant, max }: HubSuggestionsProps) {
  const hubs = useHubNodes(graphName);
  if (hubs.isPending) return <LoadingState label="Loading the graph…" compact />;
  if (hubs.isError) return <ErrorState title="Could not load the graph" message={hubs.error.message} />;
  if (hubs.data.length === 0) return <p className="muted small">This graph has no nodes.</p>;
  return <NodeList nodes={hubs.data.slice(0, max)} selected={selected} onSelect={onSelect} variant={variant} testId="hub" />;
}
