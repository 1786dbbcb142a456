"use client";

import { ApiError } from "../api/fetch-json";
import { useNodeDetails } from "../api/get-node-details";
import { communityColor } from "../community-color";
import { DisplayText } from "../ui/display-text";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { AttributeList } from "./attribute-list";
import { edgeCount } from "./node-list";
import { SourceView } from "./source-view";
import { TripleList } from "./triple-list";

interface NodePanelProps {
  graphName: string;
  nodeId: string;
  onSelect: (nodeId: string | null) => void;
}

export function NodePanel({ graphName, nodeId, onSelect }: NodePanelProps) {
  const query = useNodeDetails(graphName, nodeId);
  if (query.isPending) return <LoadingState label="Loading node details…" />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.code === "NOT_FOUND") {
      // The canvas beside this panel explains and offers a way out; do not say it twice.
      return (
        <EmptyState title="No details to show">
          <p className="muted">The selected id is not a node of this graph.</p>
        </EmptyState>
      );
    }
    return (
      <ErrorState
        title="Could not load this node"
        message={query.error.message}
        action={
          <button type="button" className="button" onClick={() => onSelect(null)}>
            Clear the selection
          </button>
        }
      />
    );
  }
  const { node, triples, totalTriples, source } = query.data;
  return (
    <div className="node-panel" data-testid="node-panel">
      <header className="node-panel__head">
        <h2 className="node-panel__label" data-testid="node-label">
          <DisplayText text={node.label} max={200} expandable />
        </h2>
        {node.id !== node.label ? (
          <p className="node-panel__id mono">
            <DisplayText text={node.id} expandable />
          </p>
        ) : null}
        <div className="row row--wrap">
          {node.fileType ? <span className="badge">{node.fileType}</span> : null}
          {node.community !== null ? (
            <span className="badge badge--quiet">
              <span className="swatch" style={{ background: communityColor(node.community) }} aria-hidden="true" />
              community {String(node.community)}
            </span>
          ) : null}
          <span className="badge badge--quiet">{edgeCount(node.degree)}</span>
        </div>
      </header>
      <section className="node-panel__section">
        <h3 className="section-title">Source</h3>
        <SourceView source={source} label={node.label} />
      </section>
      <section className="node-panel__section">
        <h3 className="section-title">
          Triples <span className="count">{totalTriples}</span>
        </h3>
        <TripleList triples={triples} nodeId={node.id} onSelect={onSelect} />
        {totalTriples > triples.length ? (
          <p className="muted small">
            Showing the first {triples.length} of {totalTriples}.
          </p>
        ) : null}
      </section>
      <section className="node-panel__section">
        <h3 className="section-title">Attributes</h3>
        <AttributeList attrs={node.attrs} />
      </section>
    </div>
  );
}
