/**
 * Submit entries to the review queue as one proposal, from an agent or a script (POST
 * /api/proposals, the MCP server's submit_proposal, `deeprefine review --server`). Every entry is
 * reviewed and kept: one that does not parse is stored LOW with an UNPARSEABLE warning carrying
 * the parse error (issue #16: "reviewed like any other, never dropped"); it cannot be approved
 * as it is — a reviewer edits it into an action or rejects it.
 */
import type { Actor } from "../../auth/permissions";
import type { RefinementAction } from "../../loop/types";
import type { ReviewInput, UnparseableAction } from "../../review/review-actions";
import type { ActionReview } from "../../review/types";
import { getGraphRecord } from "../graphs";
import type { CreateProposalOptions } from "./proposals";
import { createProposal, reviewForGraph } from "./proposals";

export interface SubmitProposalOptions {
  graph: string;
  source: CreateProposalOptions["source"];
  /** Parsed actions, then the entries that did not parse (in the order they came). */
  inputs: readonly ReviewInput[];
  question?: string | null;
  submittedBy: Actor;
  agent?: CreateProposalOptions["agent"];
}

/** True for an entry the parser could not read. */
export function isUnparseableInput(item: ReviewInput): item is UnparseableAction {
  return "raw" in item && "error" in item && !("type" in item);
}

/** True when a stored action is an unparseable entry's review (its action an empty placeholder). */
export function isUnparseableReview(review: Pick<ActionReview, "warnings">): boolean {
  return review.warnings.some((w) => w.code === "UNPARSEABLE");
}

/** Reviews the entries against the current version and queues them; returns the proposal id. */
export async function submitProposal(options: SubmitProposalOptions): Promise<string> {
  const record = await getGraphRecord(options.graph);
  const inputs = [...options.inputs];
  const reviews = await reviewForGraph({ graph: options.graph, version: record.currentVersion, actions: inputs });
  // An unparseable entry is stored as its review's placeholder action; the review keeps the raw text.
  const actions: RefinementAction[] = inputs.map((item, i) => (isUnparseableInput(item) ? (reviews[i] as ActionReview).action : item));
  return createProposal({
    graph: options.graph,
    baseVersion: record.currentVersion,
    source: options.source,
    question: options.question ?? null,
    actions,
    reviews,
    submittedBy: options.submittedBy,
    agent: options.agent,
  });
}
