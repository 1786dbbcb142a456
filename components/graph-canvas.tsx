"use client";

/**
 * The only place Cytoscape lives. It takes plain data and reports clicks; it knows nothing of
 * the API. Labels are drawn on a canvas, never parsed as HTML. When the fcose layout has
 * finished, the container gets `data-layout="done"` and `data-layout-ms` (tests wait on it).
 */
import cytoscape from "cytoscape";
import type { ElementDefinition, StylesheetJson } from "cytoscape";
import fcose from "cytoscape-fcose";
import { useEffect, useRef } from "react";
import { displayText } from "@/lib/text/display-text";
import { CanvasControls, DECLUTTER_STYLE, applyCanvasAction, keepLabelsReadable } from "./canvas-view";
import { communityColor } from "./community-color";

export interface CanvasNode {
  id: string;
  label: string;
  community: string | number | null;
  degree: number;
}

export interface CanvasEdge {
  key: string;
  source: string;
  target: string;
  relation: string;
}

export interface GraphCanvasProps {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  /** Drawn bold, its edges highlighted; none when the view has no centre. */
  selectedId?: string;
  /** Nodes drawn with a distinct fill and border (the run page: entities named in the question). */
  markedIds?: ReadonlySet<string>;
  /** Without it the nodes are not clickable. */
  onSelectNode?: (nodeId: string) => void;
  /** Small graphs can afford every relation label at fit zoom; large ones only show the selected node's. */
  labelAllEdges?: boolean;
  ariaLabel?: string;
}

let fcoseRegistered = false;

function ensureFcose(): void {
  if (fcoseRegistered) return;
  cytoscape.use(fcose);
  fcoseRegistered = true;
}

const MAX_LABEL = 40;

function shorten(label: string): string {
  return displayText(label, { max: MAX_LABEL - 1 });
}

/**
 * Element ids inside Cytoscape. fcose's layout keeps its nodes in plain objects keyed by id, so
 * a node called "constructor" or "__proto__" crashed it ("reading 'getNodes'"); a prefix keeps
 * every graph id clear of Object.prototype. The graph's own id travels in `data.nodeId`.
 */
function canvasId(nodeId: string): string {
  return `n:${nodeId}`;
}

interface ElementOptions {
  selectedId: string | undefined;
  markedIds: ReadonlySet<string> | undefined;
  labelAllEdges: boolean;
}

function toElements(nodes: CanvasNode[], edges: CanvasEdge[], { selectedId, markedIds, labelAllEdges }: ElementOptions): ElementDefinition[] {
  const out: ElementDefinition[] = nodes.map((n) => ({
    group: "nodes",
    data: {
      id: canvasId(n.id),
      nodeId: n.id,
      label: shorten(n.label),
      color: communityColor(n.community),
      size: 16 + Math.min(26, Math.sqrt(n.degree) * 4),
    },
    classes: [n.id === selectedId ? "center" : "", markedIds?.has(n.id) ? "marked" : ""].join(" ").trim() || undefined,
  }));
  for (const e of edges) {
    out.push({
      group: "edges",
      data: { id: `edge:${e.key}`, source: canvasId(e.source), target: canvasId(e.target), relation: shorten(e.relation) },
      classes: e.source === selectedId || e.target === selectedId ? "incident" : labelAllEdges ? "labelled" : undefined,
    });
  }
  return out;
}

const BASE_STYLE: StylesheetJson = [
  {
    selector: "node",
    style: {
      "background-color": "data(color)",
      width: "data(size)",
      height: "data(size)",
      label: "data(label)",
      "font-family": "ui-sans-serif, system-ui, sans-serif",
      "font-size": 11,
      color: "#1f2937",
      "text-valign": "bottom",
      "text-margin-y": 4,
      "text-wrap": "ellipsis",
      "text-max-width": "140px",
      "text-background-color": "#ffffff",
      "text-background-opacity": 0.85,
      "text-background-padding": "2px",
      "text-background-shape": "roundrectangle",
      "border-width": 1.5,
      "border-color": "#ffffff",
      "min-zoomed-font-size": 7,
    },
  },
  {
    selector: "node.center",
    style: {
      "border-width": 4,
      "border-color": "#111827",
      "font-size": 13,
      "font-weight": "bold",
      "z-index": 10,
    },
  },
  {
    selector: "node.marked",
    style: {
      "background-color": "#f59e0b",
      "border-width": 3,
      "border-color": "#92400e",
      "font-weight": "bold",
    },
  },
  {
    selector: "edge",
    style: {
      width: 1.1,
      "line-color": "#d5dbe3",
      "target-arrow-color": "#b6c0cc",
      "target-arrow-shape": "triangle",
      "arrow-scale": 0.85,
      "curve-style": "bezier",
      label: "data(relation)",
      "font-size": 8,
      color: "#64748b",
      "text-rotation": "autorotate",
      "text-background-color": "#f8fafc",
      "text-background-opacity": 0.9,
      "text-background-padding": "1px",
      // Edges between neighbours only show their relation once zoomed in past 2x (Cytoscape
      // compares against font size x zoom rounded up to a power of two): at fit zoom their
      // labels would pile up on top of the ones that matter, those of the selected node.
      "min-zoomed-font-size": 17,
    },
  },
  {
    selector: "edge.labelled",
    style: {
      width: 1.4,
      "line-color": "#c3cad5",
      "target-arrow-color": "#94a3b8",
      "font-size": 9,
      color: "#475569",
      "min-zoomed-font-size": 6,
    },
  },
  {
    selector: "edge.incident",
    style: {
      width: 1.8,
      "line-color": "#a5b4fc",
      "target-arrow-color": "#6366f1",
      "font-size": 9,
      color: "#4338ca",
      "min-zoomed-font-size": 6,
      "z-index": 5,
    },
  },
];

const STYLE: StylesheetJson = [...BASE_STYLE, ...(DECLUTTER_STYLE as unknown as StylesheetJson)];

/** Who keeps a label when two would overlap: the centre, then marked nodes, then the best connected. */
function labelRank(node: cytoscape.NodeSingular): number {
  return (node.hasClass("center") ? 1e6 : 0) + (node.hasClass("marked") ? 1e5 : 0) + node.degree(false);
}

function fitDrawing(cy: cytoscape.Core): void {
  cy.fit(undefined, 40);
  if (cy.zoom() > 1.6) {
    cy.zoom(1.6);
    cy.center();
  }
}

/**
 * A force layout has no preferred orientation, but the container does: a tall drawing in a wide
 * panel gets a small zoom and unreadable labels. Mirroring across the diagonal (x <-> y) keeps
 * every distance and fills the panel better.
 */
function matchOrientation(cy: cytoscape.Core, container: HTMLElement): void {
  const box = cy.nodes().boundingBox();
  const isWidePanel = container.clientWidth >= container.clientHeight;
  const isWideDrawing = box.w >= box.h;
  if (isWidePanel === isWideDrawing || Math.abs(box.w - box.h) < 0.15 * Math.max(box.w, box.h)) return;
  cy.nodes().positions((node) => {
    const p = node.position();
    return { x: p.y, y: p.x };
  });
}

export default function GraphCanvas({ nodes, edges, selectedId, markedIds, onSelectNode, labelAllEdges = false, ariaLabel }: GraphCanvasProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core | null>(null);
  const onSelectRef = useRef(onSelectNode);
  useEffect(() => {
    onSelectRef.current = onSelectNode;
  }, [onSelectNode]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    ensureFcose();
    container.dataset.layout = "running";
    const started = performance.now();
    const cy = cytoscape({
      container,
      elements: toElements(nodes, edges, { selectedId, markedIds, labelAllEdges }),
      style: STYLE,
      // No initial layout: fcose places everything right after.
      layout: { name: "preset" },
      minZoom: 0.15,
      maxZoom: 3,
    });
    cyRef.current = cy;
    let stopDeclutter = () => undefined as void;
    cy.on("tap", "node", (event: cytoscape.EventObjectNode) => onSelectRef.current?.(String(event.target.data("nodeId"))));
    cy.on("mouseover", "node", () => {
      if (onSelectRef.current) container.classList.add("is-pointing");
    });
    cy.on("mouseout", "node", () => container.classList.remove("is-pointing"));
    const layout = cy.layout({
      name: "fcose",
      animate: false,
      randomize: true,
      quality: "default",
      nodeRepulsion: () => 9000,
      idealEdgeLength: () => 110,
      nodeSeparation: 90,
      padding: 40,
      fit: true,
    } as cytoscape.LayoutOptions);
    layout.one("layoutstop", () => {
      if (cy.destroyed()) return;
      matchOrientation(cy, container);
      fitDrawing(cy);
      stopDeclutter = keepLabelsReadable(cy, labelRank);
      container.dataset.layoutMs = String(Math.round(performance.now() - started));
      container.dataset.layout = "done";
    });
    layout.run();
    return () => {
      layout.stop();
      stopDeclutter();
      cyRef.current = null;
      cy.destroy();
    };
  }, [nodes, edges, selectedId, markedIds, labelAllEdges]);

  return (
    <div className="canvas-frame">
      <div
        ref={containerRef}
        className="graph-canvas"
        data-testid="graph-canvas"
        data-node-count={nodes.length}
        role="img"
        aria-label={ariaLabel ?? `Neighbourhood graph: ${nodes.length} nodes, ${edges.length} edges. Click a node to centre on it.`}
      />
      <CanvasControls onAction={(action) => applyCanvasAction(cyRef.current, action, fitDrawing)} />
    </div>
  );
}
