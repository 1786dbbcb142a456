"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import type { DiffGraph } from "../api/proposal-types";
import { LoadingState } from "../ui/states";

// Cytoscape measures the DOM: it must never run during server rendering.
const DiffCanvas = dynamic(() => import("../diff/diff-canvas").then((m) => m.DiffCanvas), {
  ssr: false,
  loading: () => <LoadingState label="Loading the visual diff…" />,
});

/** Above this many elements the drawing (a large script, then two layout passes) waits for a click. */
const AUTO_DRAW_MAX_ELEMENTS = 90;

/** True once the browser is idle, so drawing never delays a key press or click already waiting. */
function useIdle(): boolean {
  const [isIdle, setIsIdle] = useState(false);
  useEffect(() => {
    // Safari has no requestIdleCallback: a short timeout stands in.
    if (typeof window.requestIdleCallback !== "function") {
      const timer = window.setTimeout(() => setIsIdle(true), 200);
      return () => window.clearTimeout(timer);
    }
    const id = window.requestIdleCallback(() => setIsIdle(true), { timeout: 1_500 });
    return () => window.cancelIdleCallback(id);
  }, []);
  return isIdle;
}

/**
 * The visual diff of a preview. Small diffs are drawn as soon as the page is idle; a large one
 * (a selection of many actions) is drawn on request, so opening a proposal stays instant. The
 * textual diff beside it always lists every change.
 */
export function VisualDiff({ graph }: { graph: DiffGraph }) {
  const size = graph.nodes.length + graph.edges.length;
  const isIdle = useIdle();
  const [isRequested, setIsRequested] = useState(false);
  if (size > AUTO_DRAW_MAX_ELEMENTS && !isRequested) {
    return (
      <div className="visual-diff__placeholder" data-testid="draw-diff-placeholder">
        <p className="muted small">
          The drawing of this selection has {size} nodes and links (the changes and their neighbourhood). The list below has every change.
        </p>
        <button type="button" className="button button--small" onClick={() => setIsRequested(true)} data-testid="draw-diff">
          Draw the visual diff
        </button>
      </div>
    );
  }
  if (!isIdle && !isRequested) return <LoadingState label="Loading the visual diff…" />;
  return <DiffCanvas graph={graph} height={380} />;
}
