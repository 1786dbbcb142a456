"use client";

import Link from "next/link";
import { createContext, useContext, useId } from "react";
import type { DisplayName } from "@/lib/graph/display-names";
import { displayText } from "@/lib/text/display-text";
import type { ActionReview } from "../api/proposal-types";

/**
 * Readable node names for one page: the server's display names by node id, and which node each
 * name written in an action resolved to. Without a provider (a list elsewhere) names show as
 * written.
 */
export interface NodeNamesValue {
  graph: string | null;
  byId: ReadonlyMap<string, DisplayName>;
  /** A name as an action writes it ("client.py::Client", an id, a label) → the node it names. */
  idOfWritten: ReadonlyMap<string, string>;
  /** Labels the reviews' candidates carry, for nodes the server's names do not cover yet (an action edited since the page loaded). */
  labelOfId?: ReadonlyMap<string, string>;
}

// Maps throughout: names and ids are text from the graph, and "__proto__" is one of them somewhere.
const EMPTY: NodeNamesValue = { graph: null, byId: new Map(), idOfWritten: new Map() };
const NodeNamesContext = createContext<NodeNamesValue>(EMPTY);

export const NodeNamesProvider = NodeNamesContext.Provider;

export function useNodeNames(): NodeNamesValue {
  return useContext(NodeNamesContext);
}

/** Which node each written name of these reviews resolved to (exact resolutions only). */
export function idsOfWrittenNames(reviews: ActionReview[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const review of reviews) {
    for (const r of Object.values(review.resolved)) if (r?.nodeId) out.set(r.name, r.nodeId);
  }
  return out;
}

export interface ShownName {
  label: string;
  secondary: string | null;
  id: string | null;
}

/** The label of every candidate node these reviews name. */
export function labelsOfCandidates(reviews: ActionReview[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const review of reviews) {
    for (const r of Object.values(review.resolved)) for (const c of r?.candidates ?? []) out.set(c.id, c.label);
    for (const w of review.warnings) for (const c of w.candidates ?? []) out.set(c.id, c.label);
  }
  return out;
}

/** What to show for a name written in an action: the node's label when it names one. */
export function shownName(names: NodeNamesValue, written: string, id?: string | null): ShownName {
  // Maps, not objects: a node called "constructor" or "__proto__" must not find Object.prototype's.
  const nodeId = id ?? names.idOfWritten.get(written) ?? null;
  const known = nodeId ? names.byId.get(nodeId) : undefined;
  if (known) return { label: known.label, secondary: known.secondary, id: known.id };
  const candidateLabel = nodeId ? names.labelOfId?.get(nodeId) : undefined;
  if (nodeId && candidateLabel !== undefined) return { label: candidateLabel, secondary: null, id: nodeId };
  // A qualified name the server could not map (the node is gone): its label part reads best.
  const label = nodeId ? written : written.includes("::") ? (written.split("::").pop() ?? written) : written;
  return { label, secondary: null, id: nodeId };
}

/** The plain-text form, for sentences: `.get() (client.py, line 212)`. */
export function nameText(names: NodeNamesValue, written: string, id?: string | null): string {
  const n = shownName(names, written, id);
  return displayText(n.secondary ? `${n.label} (${n.secondary})` : n.label, { max: 100 });
}

interface NodeNameProps {
  written: string;
  id?: string | null;
  className?: string;
}

/**
 * A node as a person reads it: its label, where it is from when another node has the same
 * label, and the id only behind the details button.
 */
export function NodeName({ written, id, className = "action__name" }: NodeNameProps) {
  const names = useNodeNames();
  const popoverId = useId();
  const n = shownName(names, written, id);
  const label = displayText(n.label, { max: 80 });
  return (
    <span className={`node-name ${className}`} title={n.label.length > 80 ? displayText(n.label, { max: 2000 }) : undefined}>
      <span className="node-name__label" data-testid="action-name">
        {label}
      </span>
      {n.secondary ? (
        <span className="node-name__where" data-testid="action-name-where">
          {displayText(n.secondary, { max: 60 })}
        </span>
      ) : null}
      {n.id ? (
        <>
          <button type="button" className="node-name__info" popoverTarget={popoverId} aria-label={`Details of ${label}`} data-testid="node-details-button">
            i
          </button>
          <span popover="auto" id={popoverId} className="node-name__popover" data-testid="node-details">
            <strong>{label}</strong>
            {n.secondary ? <span className="muted"> · {displayText(n.secondary, { max: 200 })}</span> : null}
            <span className="node-name__id">
              Node id <code>{displayText(n.id, { max: 300 })}</code>
            </span>
            {written !== n.label && written !== n.id ? (
              <span className="node-name__id">
                Written in the action as <code>{displayText(written, { max: 300 })}</code>
              </span>
            ) : null}
            {names.graph ? (
              <Link href={`/graphs/${encodeURIComponent(names.graph)}?node=${encodeURIComponent(n.id)}`} prefetch={false}>
                Open in the explorer
              </Link>
            ) : null}
          </span>
        </>
      ) : null}
    </span>
  );
}
