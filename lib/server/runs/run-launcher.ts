/**
 * Starting runs from the web server: the request returns as soon as the run exists; the run
 * goes on in the server process (closing the browser tab does not stop it). Queue runs go one
 * question after another in the background.
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { LoopConfig } from "../../loop/types";
import type { ProviderName } from "../providers";
import { getProvider } from "../providers";
import { findQuestions } from "./questions";
import { runPending, startRun } from "./runs";

export interface LaunchRunsOptions {
  graph: string;
  question?: string;
  queryId?: string;
  pending?: boolean;
  provider?: ProviderName;
  config?: Partial<LoopConfig>;
  /** Who starts the runs (every run of the queue is recorded as theirs). */
  actor?: Actor;
}

export interface LaunchedRuns {
  /** The run started now (single question), or the first run of the queue. */
  runId: string | null;
  /** Query ids the background queue will run, in order. */
  queued: string[];
}

function logFailure(error: unknown): void {
  console.error("background run failed", error instanceof Error ? error.message : error);
}

export async function launchRuns(options: LaunchRunsOptions): Promise<LaunchedRuns> {
  const provider = await getProvider(options.provider);
  if (!options.pending) {
    if (!options.question?.trim() && !options.queryId) throw new AppError("INVALID_INPUT", "give a question, a queued question's id, or pending: true");
    const started = await startRun({ graph: options.graph, question: options.question, queryId: options.queryId, provider, config: options.config, actor: options.actor });
    started.done.catch(logFailure);
    return { runId: started.runId, queued: [] };
  }
  const pending = await findQuestions({ graph: options.graph, status: "pending" });
  if (pending.length === 0 && !options.question?.trim()) {
    throw new AppError("INVALID_INPUT", "the queue has no pending questions: add one, or type a question to run");
  }
  // The first run is started here so its id can be returned; the rest follow in the background.
  const [first, ...rest] = pending;
  const started = await startRun({ graph: options.graph, provider, config: options.config, actor: options.actor, ...(first ? { queryId: first.queryId } : { question: options.question }) });
  void started.done
    .then(() => (rest.length > 0 ? runPending({ graph: options.graph, provider, config: options.config, actor: options.actor }) : []))
    .catch(logFailure);
  return { runId: started.runId, queued: rest.map((q) => q.queryId) };
}
