/**
 * The optional LLM verification of reviewed actions (issue #10; lib/review/verify-action.ts):
 * when the configured provider is an LLM (openai — not the heuristic, which is no LLM, nor replay,
 * whose recording holds no verification turns), each action the review did not already block is
 * put to the model once, with bounded concurrency and the client's own timeout and retries.
 *
 * Verification never blocks or fails a review: a call that fails, hangs past its budget or
 * answers in an unusable form leaves the review as it was, plus a neutral "verification failed: …"
 * signal. REFINERY_REVIEW_VERIFY=off turns it off (default on).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { KnowledgeGraph } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import type { ChatMessage, CompletionResult } from "../../loop/types";
import type { ActionReview, LabelThresholds } from "../../review/types";
import { applyVerification, buildVerifyPrompt, documentsForVerification, judgeVerification, parseVerification, shouldVerify, withFailedVerification } from "../../review/verify-action";
import { getProvider } from "../providers";
import { getEffectiveLlmSettings } from "../providers";

export const REVIEW_VERIFY_ENV = "REFINERY_REVIEW_VERIFY";

/** The chat model verification talks to; every `LlmProvider` fits (task is always "verify"). */
export interface VerifyModel {
  readonly name: string;
  readonly isLlm: boolean;
  complete(request: { task: string; messages: ChatMessage[]; signal?: AbortSignal }): Promise<CompletionResult>;
}

const verifySchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["on", "off", "true", "false", "1", "0"], { error: (issue) => `must be on or off (got ${JSON.stringify(String(issue.input).slice(0, 40))})` }))
  .transform((v) => v === "on" || v === "true" || v === "1");

/** Whether REFINERY_REVIEW_VERIFY allows verification (blank or unset: on). AppError("CONFIG") names the variable. */
export function isReviewVerifyEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const value = env[REVIEW_VERIFY_ENV];
  if (value === undefined || value.trim() === "") return true;
  const parsed = verifySchema.safeParse(value);
  if (!parsed.success) throw new AppError("CONFIG", `${REVIEW_VERIFY_ENV} ${parsed.error.issues[0]?.message ?? "is invalid"}`, { variables: [REVIEW_VERIFY_ENV] });
  return parsed.data;
}

export interface VerifyReviewsOptions {
  reviews: ActionReview[];
  graph: KnowledgeGraph;
  /** The documents the review read: quotes are checked against these. */
  documents: ReadonlyMap<string, CorpusDocument>;
  thresholds?: LabelThresholds;
  /** The model; by default the configured provider, and nothing is called unless it is openai. */
  model?: VerifyModel;
  /** Calls in flight at once (default: the provider's REFINERY_LLM_CONCURRENCY). */
  concurrency?: number;
  /**
   * Longest wait for one action's answer, retries included (default: the provider's per-attempt
   * timeout): a slow model then costs the review at most about this long per batch of actions.
   */
  budgetMs?: number;
}

function message(error: unknown): string {
  if (error instanceof Error) return error.name === "TimeoutError" || error.name === "AbortError" ? `no answer within the time allowed (${error.message})` : error.message;
  return String(error);
}

async function verifyOne(review: ActionReview, options: VerifyReviewsOptions & { model: VerifyModel; budgetMs: number }): Promise<ActionReview> {
  const documents = documentsForVerification({ review, graph: options.graph, documents: options.documents });
  // Nothing to quote from: a verdict could not be checked, so it is not asked for.
  if (documents.length === 0) return review;
  try {
    const result = await options.model.complete({
      task: "verify",
      messages: buildVerifyPrompt({ review, graph: options.graph, documents }),
      signal: AbortSignal.timeout(options.budgetMs),
    });
    const parsed = parseVerification(result.text);
    if (!parsed.ok) return withFailedVerification(review, parsed.error.message);
    const outcome = judgeVerification({ review, graph: options.graph, parsed: parsed.value, documents });
    return applyVerification({ review, outcome, thresholds: options.thresholds });
  } catch (error) {
    return withFailedVerification(review, message(error));
  }
}

/**
 * The reviews with the verification's signals added (same order, same length). Returns them
 * unchanged when verification is off or the configured provider is not an LLM.
 */
export async function verifyReviews(options: VerifyReviewsOptions): Promise<ActionReview[]> {
  const todo = options.reviews.map((r, i) => ({ r, i })).filter(({ r }) => shouldVerify(r));
  if (todo.length === 0) return options.reviews;
  let model = options.model;
  let concurrency = options.concurrency;
  let budgetMs = options.budgetMs;
  try {
    if (!isReviewVerifyEnabled()) return options.reviews;
    if (!model) {
      const settings = await getEffectiveLlmSettings();
      if (settings.provider !== "openai") return options.reviews;
      model = await getProvider("openai");
      concurrency ??= settings.concurrency;
      budgetMs ??= settings.timeoutMs;
    }
  } catch (error) {
    // Bad settings are shown on every action they kept from being verified, never a failed review.
    const failed = [...options.reviews];
    for (const { r, i } of todo) failed[i] = withFailedVerification(r, message(error));
    return failed;
  }
  if (!model.isLlm) return options.reviews;
  const run = { ...options, model, budgetMs: budgetMs ?? 60_000 };
  const out = [...options.reviews];
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const item = todo[next++];
      if (!item) break;
      out[item.i] = await verifyOne(item.r, run);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency ?? 2, todo.length)) }, worker));
  return out;
}
