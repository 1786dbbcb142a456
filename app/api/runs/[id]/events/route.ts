import { streamRunEvents } from "@/lib/server/runs/stream-run-events";
import { requireActor } from "../../../_lib/auth";
import { errorResponse } from "../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Server-sent events for one run (lib/server/runs/stream-run-events.ts): pushed for runs of this
 * process, a slow database poll for runs of another. Open streams are capped per account and in
 * total; past the cap: 429 with Retry-After (the browser then polls GET /api/runs/{id}).
 */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  let stream: ReadableStream<Uint8Array>;
  try {
    const actor = await requireActor(request, "read");
    const { id } = (await parseRequest(request, runsContract.streamRunEvents, ctx)).params;
    stream = await streamRunEvents({ runId: id, actor, signal: request.signal });
  } catch (error) {
    return errorResponse(error);
  }
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive" },
  });
}
