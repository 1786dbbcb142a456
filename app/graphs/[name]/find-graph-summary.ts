import { cache } from "react";
import { isAppError } from "@/lib/errors";
import type { GraphSummary } from "@/lib/server/graphs/graph-store";
import { getGraphSummary } from "@/lib/server/graphs/graph-store";
import { requirePageActor } from "@/app/_lib/page-actor";

/**
 * Only the summary is read for a graph's pages (a few indexed queries), so a missing graph
 * answers with a real 404 and the page arrives at once. `cache` lets the layout and the page
 * of one request share the read.
 */
export const findGraphSummary = cache(async (name: string): Promise<GraphSummary | null> => {
  // Every graph page and its layout read through here: the one session check they need.
  await requirePageActor();
  try {
    return await getGraphSummary(name);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
});
