import { z } from "zod";
import type { SearchResult } from "@/components/api/types";
import { searchNodes } from "@/lib/server/graphs/explore-graph";
import { graphParams } from "../../../_lib/params";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const searchQuery = z.object({
  q: z.string().max(500).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<SearchResult>(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    const search = new URL(request.url).searchParams;
    const { q, limit } = searchQuery.parse({ q: search.get("q") ?? undefined, limit: search.get("limit") ?? undefined });
    return searchNodes({ name, q, limit });
  });
}
