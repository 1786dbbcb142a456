import type { ReactNode } from "react";
import { GraphHeader } from "@/components/explorer/graph-header";
import { GraphAdminActions } from "@/components/graphs/graph-admin-actions";
import { findPageActor } from "@/app/_lib/page-actor";
import { findGraphSummary } from "./find-graph-summary";
import "../../styles/review.css";
import "../../styles/review-dialogs.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface GraphLayoutProps {
  children: ReactNode;
  params: Promise<{ name: string }>;
}

/**
 * Header, stats and the Explore / Questions / Runs tabs, shared by every page of one graph.
 * A missing graph is left to the pages: notFound() thrown here would skip this segment's
 * not-found.tsx ("Graph not found") for the root one.
 */
export default async function GraphLayout({ children, params }: GraphLayoutProps) {
  const summary = await findGraphSummary((await params).name);
  if (!summary) return children;
  const actor = await findPageActor();
  return (
    <div className="stack stack--tight">
      <GraphHeader summary={summary} actions={actor?.role === "admin" ? <GraphAdminActions graph={summary.name} /> : null} />
      {children}
    </div>
  );
}
