/**
 * "Ask again" from a proposal page: after its edits were applied, ask the proposal's question
 * of the version it was proposed against and of the current version, and say whether the
 * answer changed. The "before" ask is reused when one of the same provider is already stored.
 */
import type { AskAnswer } from "../../ask/types";
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { normalizeLabel } from "../../graph/normalize";
import type { LlmProvider } from "../../loop/types";
import type { AskDetails } from "./asks";
import { askGraph, getAsk } from "./asks";
import { getDb } from "../db/db";
import type { ProviderName } from "../providers";
import { getProvider } from "../providers";

export interface AskAgainResult {
  proposalId: string;
  graph: string;
  question: string;
  before: AskDetails;
  after: AskDetails;
  /** The answer set or the status differs between the two versions. */
  changed: boolean;
  /** Answer labels only the new version gives, and only the old one gave. */
  added: string[];
  removed: string[];
}

const answerKey = (a: AskAnswer) => (a.id !== null ? `id:${a.id}` : `label:${normalizeLabel(a.label)}`);

/** What changed between two asks' answers (by node id, else by label). */
export function compareAnswers(before: Pick<AskDetails, "status" | "answers">, after: Pick<AskDetails, "status" | "answers">): { changed: boolean; added: string[]; removed: string[] } {
  const was = new Set(before.answers.map(answerKey));
  const now = new Set(after.answers.map(answerKey));
  const added = after.answers.filter((a) => !was.has(answerKey(a))).map((a) => a.label);
  const removed = before.answers.filter((a) => !now.has(answerKey(a))).map((a) => a.label);
  return { changed: before.status !== after.status || added.length > 0 || removed.length > 0, added, removed };
}

export async function askAgainForProposal(options: { proposalId: string; provider?: ProviderName | LlmProvider; actor?: Actor }): Promise<AskAgainResult> {
  const db = getDb();
  const proposal = await db.proposal.findUnique({
    where: { id: options.proposalId },
    select: { id: true, status: true, question: true, baseVersion: true, graph: { select: { name: true, currentVersion: true } } },
  });
  if (!proposal) throw new AppError("NOT_FOUND", `no proposal ${options.proposalId}`);
  if (!proposal.question?.trim()) throw new AppError("INVALID_INPUT", "this proposal has no question (it came from a file): ask the graph on its Ask tab");
  if (proposal.status !== "applied" && proposal.status !== "partially_applied") {
    throw new AppError("CONFLICT", `proposal ${proposal.id} is ${proposal.status}: ask again once its edits are applied`);
  }
  const provider = typeof options.provider === "object" ? options.provider : await getProvider(options.provider);
  const common = { graph: proposal.graph.name, question: proposal.question, provider, proposalId: proposal.id, actor: options.actor };
  const earlier = await db.ask.findFirst({
    where: { proposalId: proposal.id, graphVersion: proposal.baseVersion, provider: provider.name, model: provider.model, status: { in: ["answered", "no_answer"] } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  const before = earlier ? await getAsk(earlier.id) : await askGraph({ ...common, version: proposal.baseVersion });
  const after = await askGraph(common);
  return { proposalId: proposal.id, graph: proposal.graph.name, question: proposal.question, before, after, ...compareAnswers(before, after) };
}
