import { z } from "zod";
import { getRun } from "@/lib/server/runs";
import type { RunDetails } from "@/lib/server/runs";
import { requireActor } from "../../../_lib/auth";
import { errorResponse } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ id: z.string().min(1).max(100) });
const TERMINAL = new Set(["early_exit", "awaiting_review", "finished", "failed", "interrupted"]);
const POLL_MS = 300;

/**
 * Server-sent events for one run: `step` for each finished step (with its triples), `status`
 * when the status changes, `done` with the full run at the end. It reads the database, so it
 * follows runs started by any process (the CLI too) and survives a page reload; closing the
 * stream never affects the run.
 */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  let first: RunDetails;
  try {
    await requireActor(request, "read");
    const { id } = params.parse(await ctx.params);
    first = await getRun(id);
  } catch (error) {
    return errorResponse(error);
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      request.signal.addEventListener("abort", () => {
        closed = true;
      });
      const send = (event: string, data: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      let sentSteps = 0;
      let status = "";
      let run = first;
      try {
        for (;;) {
          for (const step of run.stepRecords.slice(sentSteps)) send("step", step);
          sentSteps = run.stepRecords.length;
          if (run.status !== status) {
            status = run.status;
            send("status", { status, steps: run.steps, error: run.error });
          }
          if (TERMINAL.has(run.status)) {
            send("done", run);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          if (closed) break;
          // Keep-alive comment so proxies do not time the stream out during a slow model call.
          if (!closed) controller.enqueue(encoder.encode(": ping\n\n"));
          run = await getRun(run.id);
        }
      } catch (error) {
        send("error", { message: error instanceof Error ? error.message : "the run could not be read" });
      } finally {
        if (!closed) controller.close();
      }
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive" },
  });
}
