/**
 * How the visual diff looks. Differences stand out by colour AND width AND their label prefix;
 * dashes only ever add to that (the WebGL renderer cannot draw them). The legend uses the same
 * colours, so they are defined once here.
 */
import type { StylesheetJson } from "cytoscape";

export const DIFF_COLORS = {
  added: { fill: "#22c55e", line: "#16a34a", border: "#14532d", text: "#14532d" },
  removed: { fill: "#f87171", line: "#dc2626", border: "#7f1d1d", text: "#7f1d1d" },
  changed: { fill: "#fbbf24", line: "#d97706", border: "#92400e", text: "#78350f" },
  context: { fill: "#cbd5e1", line: "#d3d9e2", border: "#ffffff", text: "#64748b" },
} as const;

const FONT = "ui-sans-serif, system-ui, sans-serif";

export const DIFF_STYLE: StylesheetJson = [
  {
    selector: "node",
    style: {
      label: "data(label)",
      "font-family": FONT,
      "font-size": 12,
      "text-valign": "bottom",
      "text-margin-y": 4,
      "text-wrap": "ellipsis",
      "text-max-width": "220px",
      "text-background-color": "#ffffff",
      "text-background-opacity": 0.9,
      "text-background-padding": "2px",
      "text-background-shape": "roundrectangle",
      width: 26,
      height: 26,
      "border-width": 4,
      "font-weight": "bold",
      "z-index": 10,
    },
  },
  {
    selector: "node.context",
    style: {
      "background-color": DIFF_COLORS.context.fill,
      "border-width": 1,
      "border-color": DIFF_COLORS.context.border,
      color: DIFF_COLORS.context.text,
      "font-weight": "normal",
      "font-size": 10,
      width: 14,
      height: 14,
      opacity: 0.75,
      // Context names appear when zoomed in; at fit zoom only the changes are named.
      "min-zoomed-font-size": 9,
      "z-index": 1,
    },
  },
  {
    selector: "node.added",
    style: { "background-color": DIFF_COLORS.added.fill, "border-color": DIFF_COLORS.added.border, color: DIFF_COLORS.added.text },
  },
  {
    selector: "node.removed",
    style: { "background-color": DIFF_COLORS.removed.fill, "border-color": DIFF_COLORS.removed.border, color: DIFF_COLORS.removed.text },
  },
  {
    selector: "node.merged",
    style: {
      "background-color": DIFF_COLORS.removed.fill,
      "background-opacity": 0.45,
      "border-color": DIFF_COLORS.removed.line,
      "border-opacity": 0.7,
      color: DIFF_COLORS.removed.text,
    },
  },
  {
    selector: "node.changed",
    style: {
      "background-color": DIFF_COLORS.changed.fill,
      "border-color": DIFF_COLORS.changed.border,
      color: DIFF_COLORS.changed.text,
      width: 32,
      height: 32,
    },
  },
  {
    selector: "edge",
    style: {
      label: "data(label)",
      "font-family": FONT,
      "font-size": 9,
      "font-weight": "bold",
      "curve-style": "bezier",
      "target-arrow-shape": "triangle",
      "arrow-scale": 0.9,
      width: 4,
      "text-rotation": "autorotate",
      "text-background-color": "#ffffff",
      "text-background-opacity": 0.9,
      "text-background-padding": "1px",
      "z-index": 5,
    },
  },
  {
    selector: "edge.context",
    style: {
      width: 1,
      "line-color": DIFF_COLORS.context.line,
      "target-arrow-color": DIFF_COLORS.context.line,
      "arrow-scale": 0.7,
      color: DIFF_COLORS.context.text,
      "font-weight": "normal",
      "font-size": 8,
      "min-zoomed-font-size": 17,
      "z-index": 0,
    },
  },
  {
    selector: "edge.added",
    style: { "line-color": DIFF_COLORS.added.line, "target-arrow-color": DIFF_COLORS.added.line, color: DIFF_COLORS.added.text },
  },
  {
    selector: "edge.removed",
    style: { "line-color": DIFF_COLORS.removed.line, "target-arrow-color": DIFF_COLORS.removed.line, color: DIFF_COLORS.removed.text, "line-opacity": 0.8 },
  },
  {
    selector: "edge.changed, edge.ghost",
    style: { "line-color": DIFF_COLORS.changed.line, "target-arrow-color": DIFF_COLORS.changed.line, color: DIFF_COLORS.changed.text },
  },
  { selector: "edge.ghost", style: { display: "none" } },
  {
    selector: "edge.merge-link",
    style: {
      width: 3,
      "line-color": DIFF_COLORS.removed.border,
      "target-arrow-color": DIFF_COLORS.removed.border,
      "target-arrow-shape": "triangle-backcurve",
      "arrow-scale": 1.3,
      "line-style": "dashed",
      "line-dash-pattern": [8, 4],
      color: DIFF_COLORS.removed.border,
      "font-style": "italic",
      "z-index": 8,
    },
  },
  // View filters (Before / After): toggled by class, so nothing is laid out again.
  { selector: ".is-hidden", style: { display: "none" } },
  { selector: "edge.ghost.is-shown", style: { display: "element" } },
  { selector: ".is-hovered", style: { "underlay-color": "#6366f1", "underlay-opacity": 0.18, "underlay-padding": 6 } },
];
