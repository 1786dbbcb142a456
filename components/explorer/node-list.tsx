import type { NodeSummary, SearchHit } from "../api/types";
import { communityColor } from "../community-color";
import { DisplayText, displayText } from "../ui/display-text";

const MATCH_LABELS: Record<SearchHit["matchedBy"], string> = {
  label: "exact label",
  qualified: "file::label",
  id: "node id",
  normalized: "normalised",
  alias: "alias",
  fuzzy: "similar",
  substring: "contains",
};

interface NodeListProps {
  nodes: (NodeSummary | SearchHit)[];
  selected: string | null;
  onSelect: (nodeId: string) => void;
  variant?: "list" | "chips";
  testId?: string;
}

export function edgeCount(degree: number): string {
  return `${degree} edge${degree === 1 ? "" : "s"}`;
}

/** The qualified name (or id) under the label, unless it only repeats the label. */
function subtitle(node: NodeSummary | SearchHit): string | null {
  const text = isHit(node) ? node.qualified : node.id;
  return text === node.label ? null : text;
}

function isHit(node: NodeSummary | SearchHit): node is SearchHit {
  return "matchedBy" in node;
}

export function NodeList({ nodes, selected, onSelect, variant = "list", testId }: NodeListProps) {
  if (variant === "chips") {
    return (
      <ul className="chips">
        {nodes.map((n) => (
          <li key={n.id}>
            <button type="button" className="chip" onClick={() => onSelect(n.id)} title={displayText(n.id, { max: 500 })}>
              <span className="swatch" style={{ background: communityColor(n.community) }} aria-hidden="true" />
              <span className="chip__label">{displayText(n.label, { max: 60 })}</span>
              <span className="chip__meta">{n.degree}</span>
            </button>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ol className="node-list">
      {nodes.map((n) => (
        <li key={n.id}>
          <button
            type="button"
            className="node-item"
            aria-current={n.id === selected ? "true" : undefined}
            onClick={() => onSelect(n.id)}
            data-testid={testId}
          >
            <span className="node-item__top">
              <span className="swatch" style={{ background: communityColor(n.community) }} aria-hidden="true" />
              <span className="node-item__label" data-testid="node-item-label">
                <DisplayText text={n.label} />
              </span>
              {isHit(n) ? <span className={`match match--${n.matchedBy}`}>{MATCH_LABELS[n.matchedBy]}</span> : null}
            </span>
            <span className="node-item__sub">
              <span className="node-item__qualified">{subtitle(n) === null ? null : <DisplayText text={subtitle(n) ?? ""} />}</span>
              <span className="node-item__degree">{edgeCount(n.degree)}</span>
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
