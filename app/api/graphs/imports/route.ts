import { importsInProgress, type ImportProgress } from "@/lib/server/graphs/import-graph";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Imports running in this server's worker threads, with their latest progress line (poll while an upload is pending). */
export async function GET(request: Request) {
  return respond<ImportProgress[]>(async () => {
    await requireActor(request, "import");
    return importsInProgress();
  });
}
