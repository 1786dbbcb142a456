/**
 * The `actions` an agent sends to review_actions and submit_proposal: each entry an action
 * object, or one DeepRefine call as text (`insert_edge("A", "calls", "B")`). An entry that is
 * neither is kept as unparseable, with the reason, so it is reviewed LOW and reaches the queue
 * like any other (issue #16) instead of failing the whole call.
 */
import { z } from "zod";
import { refinementInputs } from "../../../deeprefine/review-report";
import type { ReviewInput } from "../../../review/review-actions";
import { refinementActionBody } from "../../approvals";

const MAX_RAW = 500;

export const actionEntry = z.union([refinementActionBody, z.string().min(1).max(2000), z.record(z.string(), z.unknown())]);

function rawText(entry: unknown): string {
  const text = typeof entry === "string" ? entry : JSON.stringify(entry);
  return text.length > MAX_RAW ? `${text.slice(0, MAX_RAW)}…` : text;
}

function fromText(text: string): ReviewInput {
  const parsed = refinementInputs(`<refinement>\n${text}\n</refinement>`);
  if (!parsed.ok) return { raw: rawText(text), error: parsed.error };
  const [first] = parsed.inputs;
  if (parsed.inputs.length !== 1 || !first) return { raw: rawText(text), error: `expected one action call, found ${parsed.inputs.length}` };
  return first;
}

/** One review input per entry, in order: nothing is dropped. */
export function toReviewInputs(entries: readonly unknown[]): ReviewInput[] {
  return entries.map((entry) => {
    if (typeof entry === "string") return fromText(entry);
    const parsed = refinementActionBody.safeParse(entry);
    if (parsed.success) return parsed.data;
    return { raw: rawText(entry), error: parsed.error.issues.map((i) => `${i.path.join(".") || "action"}: ${i.message}`).join("; ") };
  });
}
