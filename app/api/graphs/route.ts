import type { GraphSummary, ImportReport } from "@/components/api/types";
import { findGraphs } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { recordImport } from "@/lib/server/graphs/record-import";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request) {
  return respond<GraphSummary[]>(async () => {
    await requireActor(request, "read");
    return findGraphs();
  });
}

export async function POST(request: Request) {
  return respond<ImportReport>(
    async () => {
      // Reading a path on the server's disk is an administrator's right; others upload.
      const actor = await requireActor(request, "admin");
      const { body } = await parseRequest(request, graphsContract.importGraphFromPath);
      return recordImport(actor, await importGraphFromPath({ ...body, actor }));
    },
    { status: 201 },
  );
}
