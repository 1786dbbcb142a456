"use client";

/**
 * What both graph drawings (the explorer's and run's GraphCanvas, the visual diff) need to stay
 * readable: labels that keep a readable size when the view zooms out, no label drawn over
 * another (the less connected one gives way, and shows on hover or when zoomed in), and
 * Fit / zoom buttons for people without a scroll wheel.
 */
import type { Core, NodeSingular } from "cytoscape";

/** Rendered label size in px at any zoom below 1 (and never more than MAX_SCALE times the base). */
const MIN_RENDERED_FONT = 11;
const MAX_SCALE = 3;
/** Past this many nodes only the best connected get a label at all until zoomed in. */
const MAX_LABELLED = 160;

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/**
 * Hide the labels that would sit on a label already shown, best first by `rank` (higher
 * first). Runs after layout and after each zoom; hidden ones get the class `label-hidden`.
 */
function declutter(cy: Core, rank: (node: NodeSingular) => number): void {
  const zoom = cy.zoom();
  const fontScale = zoom < 1 ? Math.min(MAX_SCALE, MIN_RENDERED_FONT / (11 * zoom)) : 1;
  cy.batch(() => {
    cy.nodes().removeClass("label-hidden");
    cy.nodes().forEach((node) => {
      const base = Number(node.scratch("_baseFont") ?? Number.parseFloat(String(node.style("font-size"))));
      node.scratch("_baseFont", base);
      node.style("font-size", base * fontScale);
    });
  });
  const nodes = cy
    .nodes(":visible")
    .toArray()
    .sort((a, b) => rank(b) - rank(a));
  const kept: Box[] = [];
  const hidden: NodeSingular[] = [];
  nodes.forEach((node, i) => {
    if (i >= MAX_LABELLED && zoom < 1) {
      hidden.push(node);
      return;
    }
    const box = node.renderedBoundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false });
    if (box.w === 0 || box.h === 0) return;
    const padded = { x1: box.x1 - 2, y1: box.y1 - 1, x2: box.x2 + 2, y2: box.y2 + 1 };
    if (kept.some((k) => overlaps(k, padded))) hidden.push(node);
    else kept.push(padded);
  });
  cy.batch(() => {
    for (const node of hidden) node.addClass("label-hidden");
  });
}

/** Declutter now and after every zoom (debounced); returns the clean-up. */
export function keepLabelsReadable(cy: Core, rank: (node: NodeSingular) => number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (!cy.destroyed()) declutter(cy, rank);
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  };
  run();
  cy.on("zoom", later);
  cy.on("mouseover", "node", (event) => (event.target as NodeSingular).addClass("label-hover"));
  cy.on("mouseout", "node", (event) => (event.target as NodeSingular).removeClass("label-hover"));
  return () => {
    clearTimeout(timer);
    if (!cy.destroyed()) cy.off("zoom", later);
  };
}

/** Styles the two canvases add for the above (append to their stylesheet). */
export const DECLUTTER_STYLE = [
  { selector: "node.label-hidden", style: { "text-opacity": 0, "text-background-opacity": 0 } },
  { selector: "node.label-hidden.label-hover", style: { "text-opacity": 1, "text-background-opacity": 0.9, "z-index": 20 } },
] as const;

const ZOOM_STEP = 1.4;

function zoomBy(cy: Core, factor: number): void {
  const level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), cy.zoom() * factor));
  cy.zoom({ level, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
}

export type CanvasAction = "fit" | "in" | "out";

/** What a CanvasControls button does to the drawing (`fit` is the drawing's own fit). */
export function applyCanvasAction(cy: Core | null, action: CanvasAction, fit: (cy: Core) => void): void {
  if (!cy || cy.destroyed()) return;
  if (action === "fit") fit(cy);
  else zoomBy(cy, action === "in" ? ZOOM_STEP : 1 / ZOOM_STEP);
}

/** Fit, zoom in and zoom out, over the drawing's top-right corner. */
export function CanvasControls({ onAction }: { onAction: (action: CanvasAction) => void }) {
  return (
    <div className="canvas-controls" role="group" aria-label="Zoom" data-testid="canvas-controls">
      <button type="button" onClick={() => onAction("fit")} title="Fit the whole drawing in view" data-testid="canvas-fit">
        Fit
      </button>
      <button type="button" onClick={() => onAction("in")} aria-label="Zoom in" data-testid="canvas-zoom-in">
        +
      </button>
      <button type="button" onClick={() => onAction("out")} aria-label="Zoom out" data-testid="canvas-zoom-out">
        −
      </button>
    </div>
  );
}
