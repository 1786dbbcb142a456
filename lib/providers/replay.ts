/**
 * A provider that answers from a recording: the outputs a model gave in an earlier run, in order
 * per task. Any run can be replayed bit for bit (tests, demos, bug reports) without a model;
 * when the loop asks for something the recording does not hold, the replay fails loudly rather
 * than inventing an answer.
 */
import { z } from "zod";
import { AppError } from "../errors";
import type { CompletionRequest, CompletionResult, LlmProvider, LoopTask, RunTrace } from "../loop/types";

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
});

const entrySchema = z
  .object({
    task: z.enum(["judge", "abduction", "refinement"]),
    /** The hop step of a judge call; null/absent for abduction and refinement. */
    step: z.number().int().positive().nullish(),
    /** The model's output; absent when the recorded call failed (`error`). */
    text: z.string().optional(),
    /** The recorded call threw: the replay throws the same message. */
    error: z.string().optional(),
    usage: usageSchema.optional(),
  })
  .refine((e) => (e.text === undefined) !== (e.error === undefined), { message: "each call needs exactly one of text or error" });

const recordingSchema = z.object({
  version: z.literal(1).default(1),
  model: z.string().min(1),
  /** Who produced the recording, for the record only. */
  recordedFrom: z.object({ name: z.string(), model: z.string(), isLlm: z.boolean() }).optional(),
  calls: z.array(entrySchema),
});

export type ReplayEntry = z.infer<typeof entrySchema>;
export type ReplayRecording = z.infer<typeof recordingSchema>;

/** Recording JSON → ReplayRecording. PARSE_ERROR for bad JSON, INVALID_INPUT naming the field otherwise. */
export function parseReplayRecording(text: string, source = "recording.json"): ReplayRecording {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new AppError("PARSE_ERROR", `${source}: invalid JSON (${(e as Error).message})`, { source });
  }
  const result = recordingSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `field "${issue.path.join(".")}"` : "the recording";
    throw new AppError("INVALID_INPUT", `${source}: ${where}: ${issue?.message ?? "invalid"}`, { source });
  }
  return result.data;
}

/**
 * Every call of a run, in order, as a recording: successful outputs (format-retry failures
 * included, so the replay retries the same way) and provider errors (so a failed run fails again).
 */
export function recordingFromTrace(trace: Pick<RunTrace, "provider" | "calls">): ReplayRecording {
  return {
    version: 1,
    model: trace.provider.model,
    recordedFrom: { ...trace.provider },
    calls: trace.calls.map((c) => {
      const entry: ReplayEntry = { task: c.task, step: c.step };
      if (c.error !== undefined) entry.error = c.error;
      else entry.text = c.raw;
      if (c.usage) entry.usage = { ...c.usage };
      return entry;
    }),
  };
}

function requestStep(request: CompletionRequest): number | null {
  return request.context.task === "judge" ? request.context.step : null;
}

/** Answers each task's calls from that task's recorded entries, in order. */
export function createReplayProvider({ recording }: { recording: ReplayRecording }): LlmProvider {
  const queues = new Map<LoopTask, ReplayEntry[]>();
  for (const entry of recording.calls) {
    let list = queues.get(entry.task);
    if (!list) queues.set(entry.task, (list = []));
    list.push(entry);
  }
  const used = new Map<LoopTask, number>();
  return {
    name: "replay",
    model: recording.model,
    isLlm: true,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      if (request.signal?.aborted) throw new AppError("INTERNAL", "replay: aborted");
      if (request.context.task !== request.task) {
        throw new AppError("INTERNAL", `replay: request task "${request.task}" does not match its context ("${request.context.task}")`);
      }
      const list = queues.get(request.task) ?? [];
      const i = used.get(request.task) ?? 0;
      const step = requestStep(request);
      const entry = list[i];
      const asked = step === null ? request.task : `${request.task} (step ${step})`;
      if (!entry) {
        throw new AppError(
          "INTERNAL",
          `replay: the recording has no more "${request.task}" answers (it holds ${list.length}); the run asked for ${asked}`,
        );
      }
      if (entry.step != null && step !== null && entry.step !== step) {
        throw new AppError(
          "INTERNAL",
          `replay: ${request.task} answer ${i + 1} was recorded for step ${entry.step} but the run asked for step ${step}: the run diverged from the recording`,
        );
      }
      used.set(request.task, i + 1);
      if (entry.error !== undefined) throw new Error(entry.error);
      const result: CompletionResult = { text: entry.text ?? "", model: recording.model };
      if (entry.usage) result.usage = { ...entry.usage };
      return result;
    },
  };
}
