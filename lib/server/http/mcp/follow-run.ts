/**
 * run_loop with `wait`: follow a run of this process to its end, reporting each step as an MCP
 * progress notification (`notifications/progress`, when the client sent a progressToken).
 * Steps stored before the subscription are reported from the run's row, so none is missed.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { StepRecord } from "../../../loop/types";
import { getRun, subscribeRunEvents } from "../../runs";

/** The longest a tool call waits for a run (a client's request timeout is usually shorter). */
export const MAX_RUN_WAIT_MS = 10 * 60 * 1000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export async function followRun(runId: string, extra: Extra, waitMs = MAX_RUN_WAIT_MS): Promise<void> {
  const token = extra._meta?.progressToken;
  const reported = new Set<number>();
  const report = (step: StepRecord) => {
    if (token === undefined || reported.has(step.step)) return;
    reported.add(step.step);
    const message = `step ${step.step} of at most ${step.cap}: ${step.triples.length} triples, ${step.answerable ? "answerable" : "not answerable yet"}`;
    void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: step.step, total: step.cap, message } }).catch(() => undefined);
  };
  await new Promise<void>((resolve) => {
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      off();
      extra.signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    const off = subscribeRunEvents(runId, (event) => (event.type === "finished" ? done() : report(event.step)));
    extra.signal.addEventListener("abort", done);
    getRun(runId)
      .then((run) => {
        for (const step of run.stepRecords) report(step);
        if (run.status !== "running") done();
      })
      .catch(done);
  });
}
