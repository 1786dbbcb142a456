/**
 * The request contracts of the proposal routes (app/api/proposals/**): the review queue,
 * submitting, previewing and editing actions, approving, vetoing, withdrawing, the discussion and
 * the timeline. They sit with approvals (which reads proposals) so that proposals/ needs nothing
 * from here.
 */
import { z } from "zod";
import { proposalParams } from "../../api/contract";
import type { RequestContract } from "../../api/contract";

const name = z.string().trim().min(1).max(2000);
export const refinementActionBody = z.discriminatedUnion("type", [
  z.object({ type: z.literal("insert_edge"), subject: name, relation: name, object: name }),
  z.object({ type: z.literal("delete_edge"), subject: name, relation: name, object: name }),
  z.object({ type: z.literal("replace_node"), old: name, new: name }),
]);

const indexes = z.array(z.number().int().min(0)).min(1).max(500);

export const approveBody = z
  .object({
    actions: indexes.describe("0-based action indexes; several only for HIGH actions when the graph's policy allows it"),
    reason: z.string().trim().max(2000).optional().describe("why (required for LOW actions when the policy says so)"),
    lowConfidence: z.boolean().optional().describe("the explicit acceptance of a LOW action's risk"),
    seen: z
      .array(refinementActionBody)
      .max(500)
      .optional()
      .describe("the actions as the person saw them, in the order of `actions`: if one was edited since, the approval is refused (409) instead of approving text they never read"),
  })
  .meta({ examples: [{ actions: [0], reason: "the source says so", lowConfidence: false, seen: [{ type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" }] }] });

export const rejectBody = z.object({ actions: indexes, reason: z.string().trim().max(2000).optional() }).meta({ examples: [{ actions: [0, 2], reason: "not in the source" }] });

export const withdrawBody = z
  .object({
    action: z.number().int().min(0).describe("0-based action index"),
    decision: z.number().int().min(1).optional().describe("a specific decision (admins withdrawing someone else's veto); default: your own latest"),
  })
  .meta({ examples: [{ action: 0, decision: 1 }] });

export const commentBody = z
  .object({ body: z.string().trim().min(1).max(5000), action: z.number().int().min(0).optional().describe("0-based action index; default: the whole proposal") })
  .meta({ examples: [{ body: "Is this the sync or the async client?", action: 1 }] });

export const submitProposalBody = z
  .object({
    graph: z.string().min(1).max(200),
    actions: z.array(refinementActionBody).max(100).default([]),
    unparseable: z
      .array(z.object({ raw: z.string().max(2000), error: z.string().max(1000) }))
      .max(100)
      .optional()
      .describe("entries the submitter could not parse (raw text and the parse error): stored LOW with the error as their warning, never dropped"),
    question: z.string().trim().max(2000).optional(),
    agent: z.string().trim().max(100).optional().describe("which agent submits it, e.g. DeepRefine or Claude Code (shown in the queue)"),
    model: z.string().trim().max(100).optional().describe("the model the agent runs on, if it knows"),
  })
  .refine((b) => b.actions.length + (b.unparseable?.length ?? 0) > 0, { message: "a proposal needs at least one action", path: ["actions"] })
  // JSON Schema cannot see the refine: say it there too, so the document rejects what the route rejects.
  .meta({
    anyOf: [
      { required: ["actions"], properties: { actions: { minItems: 1 } } },
      { required: ["unparseable"], properties: { unparseable: { minItems: 1 } } },
    ],
    examples: [{ graph: "httpx", actions: [{ type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" }], question: "How does Client build requests?" }],
  });

const proposalListQuery = z.object({
  graph: z.string().min(1).max(200).optional(),
  status: z.enum(["pending", "applied", "partially_applied", "rejected"]).optional(),
  run: z.string().min(1).max(100).optional(),
  origin: z.enum(["person", "agent", "cli", "campaign"]).optional().describe("only proposals from a person (the web), an agent (an API token, MCP), the command line, or a campaign"),
  // x-opaque: only a value the server gave out is valid (it checks; a client cannot make one up).
  cursor: z.string().min(1).max(500).optional().describe("the nextCursor of the previous page").meta({ "x-opaque": true }),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("proposals per page (at most 200)"),
});

/** `?actions=0,2` → [0, 2] (0-based action indexes). */
const actionIndexList = z
  .string()
  .regex(/^\d+(,\d+)*$/, "actions must be comma-separated action numbers, 0-based")
  .transform((s) => s.split(",").map(Number))
  .optional()
  .describe("comma-separated 0-based action indexes, e.g. 0,2; default: every pending action");

export const approvalsContract = {
  findProposals: { query: proposalListQuery },
  // The queue's compact rows (lib/server/proposals/queue-proposals.ts): the same filters, longer pages.
  findProposalRows: { query: proposalListQuery.extend({ limit: z.coerce.number().int().min(1).max(500).default(200).describe("proposals per page (at most 500)") }) },
  submitProposal: { body: submitProposalBody },
  getProposal: { params: proposalParams },
  previewProposal: { params: proposalParams, query: z.object({ actions: actionIndexList }) },
  approveActions: { params: proposalParams, body: approveBody },
  rejectActions: { params: proposalParams, body: rejectBody },
  withdrawDecision: { params: proposalParams, body: withdrawBody },
  findComments: { params: proposalParams },
  createComment: { params: proposalParams, body: commentBody },
  findProposalTimeline: { params: proposalParams },
  editAction: {
    params: z.object({ id: proposalParams.shape.id, index: z.coerce.number().int().min(0).describe("0-based action index") }),
    body: z.object({ action: refinementActionBody }).meta({ examples: [{ action: { type: "replace_node", old: "Clinet", new: "Client" } }] }),
  },
} satisfies Record<string, RequestContract>;
