"use client";

import Link from "next/link";
import { useSelectedLayoutSegment } from "next/navigation";

const TABS = [
  { segment: null, label: "Explore", path: "" },
  { segment: "ask", label: "Ask", path: "/ask" },
  { segment: "questions", label: "Questions", path: "/questions" },
  { segment: "runs", label: "Runs", path: "/runs" },
  { segment: "versions", label: "Versions", path: "/versions" },
  { segment: "policy", label: "Policy", path: "/policy" },
] as const;

/** Rendered by the graph layout, so the active tab is the layout's selected child segment. */
export function GraphTabs({ graphName }: { graphName: string }) {
  const segment = useSelectedLayoutSegment();
  const base = `/graphs/${encodeURIComponent(graphName)}`;
  return (
    <nav className="graph-tabs" aria-label="Graph sections">
      {TABS.map((tab) => {
        const isActive = segment === tab.segment;
        return (
          <Link
            key={tab.label}
            href={`${base}${tab.path}`}
            className="graph-tabs__tab"
            aria-current={isActive ? "page" : undefined}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
