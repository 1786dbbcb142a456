import { z } from "zod";
import type { GraphSummary, ImportReport } from "@/components/api/types";
import { AppError } from "@/lib/errors";
import { findGraphs } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { recordImport } from "@/lib/server/graphs/record-import";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const optionalText = z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().optional());

const importPathBody = z.object({
  path: z.string().trim().min(1, "give the path of a graph file or folder on the server"),
  name: optionalText,
  format: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["graphify", "triples", "bundle"]).optional()),
  root: optionalText,
});

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
      const body = importPathBody.parse(await readJson(request));
      return recordImport(actor, await importGraphFromPath({ ...body, actor }));
    },
    { status: 201 },
  );
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("INVALID_INPUT", "the request body must be JSON: {path, name?, format?, root?}");
  }
}
