"use client";

import { useEffect, useState } from "react";
import { useSearchNodes } from "../api/search-nodes";
import { displayText } from "../ui/display-text";
import { EmptyState, ErrorState, Spinner } from "../ui/states";
import { HubSuggestions } from "./hub-suggestions";
import { NodeList } from "./node-list";

interface SearchPanelProps {
  graphName: string;
  selected: string | null;
  onSelect: (nodeId: string) => void;
}

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function SearchPanel({ graphName, selected, onSelect }: SearchPanelProps) {
  const [input, setInput] = useState("");
  const q = useDebounced(input.trim(), 180);
  const search = useSearchNodes(graphName, q);
  const showing = input.trim() !== "";

  return (
    <div className="search-panel">
      <form className="search-box" role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="node-search" className="sr-only">
          Search nodes
        </label>
        <input
          id="node-search"
          type="search"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="Name, file::Name or id"
          autoComplete="off"
          spellCheck={false}
        />
        {showing && (search.isFetching || q !== input.trim()) ? <Spinner size={14} /> : null}
      </form>
      <div className="search-panel__results">
        {!showing ? (
          <>
            <h2 className="section-title">Most connected</h2>
            <HubSuggestions graphName={graphName} selected={selected} onSelect={onSelect} variant="list" />
          </>
        ) : search.isError ? (
          <ErrorState title="Search failed" message={search.error.message} />
        ) : search.data ? (
          search.data.hits.length === 0 ? (
            <EmptyState title={`No node matches “${displayText(search.data.q, { max: 80 })}”`}>
              <p className="muted">Try part of a name, a qualified name such as client.py::Client, or a node id.</p>
            </EmptyState>
          ) : (
            <div className={search.data.q === q ? undefined : "is-stale"}>
              <h2 className="section-title">
                {search.data.hits.length} result{search.data.hits.length === 1 ? "" : "s"}
              </h2>
              <NodeList nodes={search.data.hits} selected={selected} onSelect={onSelect} testId="search-result" />
            </div>
          )
        ) : (
          <p className="muted small">Searching…</p>
        )}
      </div>
    </div>
  );
}
