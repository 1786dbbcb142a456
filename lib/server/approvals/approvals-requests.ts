/** Request bodies of the proposal and policy routes: the handlers parse with these and the OpenAPI document describes them. */
import { z } from "zod";

const name = z.string().trim().min(1).max(2000);
export const refinementActionBody = z.discriminatedUnion("type", [
  z.object({ type: z.literal("insert_edge"), subject: name, relation: name, object: name }),
  z.object({ type: z.literal("delete_edge"), subject: name, relation: name, object: name }),
  z.object({ type: z.literal("replace_node"), old: name, new: name }),
]);

const indexes = z.array(z.number().int().min(0)).min(1).max(500);

export const approveBody = z.object({
  /** 0-based action indexes; several only for HIGH actions when the graph's policy allows it. */
  actions: indexes,
  /** Why (required for LOW actions when the policy says so). */
  reason: z.string().trim().max(2000).optional(),
  /** The explicit acceptance of a LOW action's risk. */
  lowConfidence: z.boolean().optional(),
  /**
   * The actions as the person saw them, in the order of `actions`: if one was edited since, the
   * approval is refused (409) instead of approving text they never read.
   */
  seen: z.array(refinementActionBody).max(500).optional(),
});

export const rejectBody = z.object({ actions: indexes, reason: z.string().trim().max(2000).optional() });

export const withdrawBody = z.object({
  /** 0-based action index. */
  action: z.number().int().min(0),
  /** A specific decision (admins withdrawing someone else's veto); default: your own latest. */
  decision: z.number().int().min(1).optional(),
});

export const commentBody = z.object({ body: z.string().trim().min(1).max(5000), action: z.number().int().min(0).optional() });


export const submitProposalBody = z.object({
  graph: z.string().min(1).max(200),
  actions: z.array(refinementActionBody).min(1).max(100),
  question: z.string().trim().max(2000).optional(),
});
