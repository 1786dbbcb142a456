"use client";

/**
 * The visual diff: a DiffGraph drawn with Cytoscape (canvas; labels are text, never HTML).
 * Old elements keep the place the before-layout gave them (see stable-layout.ts), so switching
 * between Before, Diff and After only hides and shows elements. When drawn, the container gets
 * `data-layout="done"`, `data-elements` (elements drawn) and `data-draw-ms` (creation + layout).
 */
import cytoscape from "cytoscape";
import type { Core, EventObject, SingularElementReturnValue } from "cytoscape";
import { useEffect, useMemo, useRef, useState } from "react";
import type { DiffGraph } from "../api/diff-types";
import { countByStatus, toDiffElements } from "./diff-elements";
import { DiffLegend } from "./diff-legend";
import { DIFF_STYLE } from "./diff-style";
import { ensureFcose, runStableLayout } from "./stable-layout";
import { CanvasControls, DECLUTTER_STYLE, applyCanvasAction, keepLabelsReadable } from "../canvas-view";
// Imported here, not by a page, so every page that shows a diff (versions, proposals) is styled.
import "../../app/styles/diff-canvas.css";

export type DiffView = "before" | "diff" | "after";

const VIEWS: { id: DiffView; label: string; hint: string }[] = [
  { id: "before", label: "Before", hint: "The graph before the change: what goes away is still there, rewired edges at their old endpoints" },
  { id: "diff", label: "Changes", hint: "Everything that changed, over its unchanged neighbourhood" },
  { id: "after", label: "After", hint: "The graph after the change: removed and merged nodes are gone" },
];

/** Which elements each view hides; ghosts (old wiring) only show in Before. */
const HIDDEN: Record<DiffView, string> = {
  before: "node.added, edge.added, edge.changed, edge.merge-link",
  diff: "",
  after: "node.removed, node.merged, edge.removed, edge.merge-link",
};

function applyView(cy: Core, view: DiffView): void {
  cy.batch(() => {
    cy.elements().removeClass("is-hidden");
    if (HIDDEN[view]) cy.elements(HIDDEN[view]).addClass("is-hidden");
    cy.edges(".ghost").toggleClass("is-shown", view === "before");
  });
}

/**
 * A force layout comes out roughly round, the panel is wide: stretching x (up to 2.5x) uses the
 * width and spreads crowded labels. Every node moves by the same rule, so relative places hold.
 */
function matchAspect(cy: Core, container: HTMLElement): void {
  const box = cy.nodes().boundingBox();
  if (box.w <= 0 || box.h <= 0 || container.clientHeight === 0) return;
  const stretch = Math.min(2.5, container.clientWidth / container.clientHeight / (box.w / box.h));
  if (stretch <= 1.05) return;
  const cx = (box.x1 + box.x2) / 2;
  cy.nodes().positions((node) => ({ x: cx + (node.position().x - cx) * stretch, y: node.position().y }));
}

function fitView(cy: Core): void {
  cy.fit(cy.elements(":visible"), 36);
  if (cy.zoom() > 1.6) {
    cy.zoom(1.6);
    cy.center(cy.elements(":visible"));
  }
}

interface Tip {
  text: string;
  x: number;
  y: number;
}

export function DiffCanvas({ graph, height = 420 }: { graph: DiffGraph; height?: number }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const [view, setView] = useState<DiffView>("diff");
  const viewRef = useRef(view);
  const [tip, setTip] = useState<Tip | null>(null);
  const counts = useMemo(() => countByStatus(graph), [graph]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    ensureFcose();
    container.dataset.layout = "running";
    const started = performance.now();
    const { elements, drawn } = toDiffElements(graph);
    const cy = cytoscape({ container, elements, style: [...DIFF_STYLE, ...(DECLUTTER_STYLE as unknown as typeof DIFF_STYLE)], layout: { name: "preset" }, minZoom: 0.1, maxZoom: 3 });
    cyRef.current = cy;
    let cancelled = false;
    let stopDeclutter = () => undefined as void;
    const show = (event: EventObject) => {
      const target = event.target as SingularElementReturnValue;
      const text: unknown = target.data("tip");
      if (typeof text !== "string") return;
      target.addClass("is-hovered");
      setTip({ text, x: event.renderedPosition.x, y: event.renderedPosition.y });
    };
    cy.on("mouseover", "node, edge", show);
    cy.on("mouseout", "node, edge", (event: EventObject) => {
      (event.target as SingularElementReturnValue).removeClass("is-hovered");
      setTip(null);
    });
    cy.on("pan zoom", () => setTip(null));
    void runStableLayout(cy).then(() => {
      if (cancelled || cy.destroyed()) return;
      matchAspect(cy, container);
      applyView(cy, viewRef.current);
      fitView(cy);
      // What changed keeps its label first; context gives way.
      stopDeclutter = keepLabelsReadable(cy, (node) => (node.hasClass("context") ? 0 : 1e5) + node.degree(false));
      container.dataset.drawMs = String(Math.round(performance.now() - started));
      container.dataset.elements = String(drawn);
      container.dataset.layout = "done";
    });
    return () => {
      cancelled = true;
      stopDeclutter();
      cyRef.current = null;
      cy.destroy();
    };
  }, [graph]);

  const choose = (next: DiffView) => {
    viewRef.current = next;
    setView(next);
    setTip(null);
    const cy = cyRef.current;
    if (cy && containerRef.current?.dataset.layout === "done") applyView(cy, next);
  };

  const total = graph.nodes.length + graph.edges.length - counts.context;
  return (
    <div className="diff-canvas" data-testid="diff-canvas-area">
      <div className="diff-canvas__toolbar">
        <div className="segmented" role="group" aria-label="Show">
          {VIEWS.map((v) => (
            <button
              key={v.id}
              type="button"
              className="segmented__option"
              aria-pressed={view === v.id}
              title={v.hint}
              onClick={() => choose(v.id)}
            >
              {v.label}
            </button>
          ))}
        </div>
        <span className="muted small">Positions stay put between views. Hover an element for what changed; scroll to zoom.</span>
      </div>
      <div className="diff-canvas__frame" style={{ height }}>
        <div
          ref={containerRef}
          className="diff-canvas__cy"
          data-testid="diff-canvas"
          role="img"
          aria-label={`Visual diff: ${total} changed elements over ${counts.context} unchanged ones; the list below describes every change.`}
        />
        <CanvasControls onAction={(action) => applyCanvasAction(cyRef.current, action, fitView)} />
        {tip ? (
          <div className="diff-canvas__tip" role="tooltip" style={{ left: tip.x, top: tip.y }}>
            {tip.text}
          </div>
        ) : null}
      </div>
      <DiffLegend counts={counts} truncated={graph.truncated} />
    </div>
  );
}
