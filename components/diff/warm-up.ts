/**
 * The first drawing in a page pays for compiling Cytoscape's style and fcose's layout code
 * (hundreds of ms on a slow machine, more than the layout itself). Drawing a five-node diff
 * off-screen while the real diff is still being fetched moves that cost into the wait.
 */
import cytoscape from "cytoscape";
import type { DiffGraph } from "../api/diff-types";
import { toDiffElements } from "./diff-elements";
import { DIFF_STYLE } from "./diff-style";
import { ensureFcose, runStableLayout } from "./stable-layout";

const TINY: DiffGraph = {
  nodes: [
    { id: "a", label: "a", community: 0, status: "context" },
    { id: "b", label: "b", community: 0, status: "changed" },
    { id: "c", label: "c", community: 0, status: "added" },
    { id: "d", label: "d", community: 0, status: "merged", mergedInto: "b" },
    { id: "e", label: "e", community: 0, status: "removed" },
  ],
  edges: [
    { id: "1", source: "a", target: "b", relation: "r", status: "context" },
    { id: "2", source: "b", target: "c", relation: "r", status: "added" },
    { id: "3", source: "a", target: "e", relation: "r", status: "removed" },
    { id: "4", source: "b", target: "a", relation: "r", status: "changed", previous: { source: "d", target: "a", relation: "r" } },
  ],
  truncated: false,
};

let warmed = false;

export function warmUpDiffDrawing(): void {
  if (warmed || typeof window === "undefined") return;
  warmed = true;
  ensureFcose();
  const cy = cytoscape({ headless: true, styleEnabled: true, elements: toDiffElements(TINY).elements, style: DIFF_STYLE });
  void runStableLayout(cy).finally(() => cy.destroy());
}
