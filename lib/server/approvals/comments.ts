/**
 * Discussion on a proposal or one of its actions. Anyone who may propose (reviewers, admins,
 * and `propose` tokens acting for their owner) may comment; everyone who can read sees them.
 */
import type { Actor } from "../../auth/permissions";
import { accountIdOf, actorLabel, can } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";

export interface CommentView {
  id: number;
  proposalId: string;
  /** 0-based action index, or null for the proposal as a whole. */
  actionIndex: number | null;
  author: string;
  authorId: string | null;
  body: string;
  createdAt: string;
}

export const MAX_COMMENT_LENGTH = 5000;

export async function findComments(options: { proposalId: string }): Promise<CommentView[]> {
  const proposal = await getDb().proposal.findUnique({ where: { id: options.proposalId }, select: { id: true } });
  if (!proposal) throw new AppError("NOT_FOUND", `no proposal ${options.proposalId}`);
  const rows = await getDb().comment.findMany({ where: { proposalId: options.proposalId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((r) => ({ id: r.id, proposalId: r.proposalId, actionIndex: r.actionIndex, author: r.author, authorId: r.userId, body: r.body, createdAt: r.createdAt.toISOString() }));
}

export async function createComment(options: { proposalId: string; actionIndex?: number | null; actor: Actor; body: string }): Promise<CommentView> {
  if (!can(options.actor, "propose")) throw new AppError("FORBIDDEN", "commenting needs a reviewer or admin (viewers read the discussion)");
  const body = options.body.trim();
  if (body.length === 0) throw new AppError("INVALID_INPUT", "a comment needs some text");
  if (body.length > MAX_COMMENT_LENGTH) throw new AppError("INVALID_INPUT", `a comment is at most ${MAX_COMMENT_LENGTH} characters`);
  const proposal = await getDb().proposal.findUnique({
    where: { id: options.proposalId },
    select: { id: true, graph: { select: { name: true } }, actions: { select: { index: true } } },
  });
  if (!proposal) throw new AppError("NOT_FOUND", `no proposal ${options.proposalId}`);
  const actionIndex = options.actionIndex ?? null;
  if (actionIndex !== null && !proposal.actions.some((a) => a.index === actionIndex)) throw new AppError("INVALID_INPUT", `proposal ${proposal.id} has no action ${actionIndex + 1}`);
  const row = await getDb().$transaction(async (tx) => {
    const created = await tx.comment.create({ data: { proposalId: proposal.id, actionIndex, userId: accountIdOf(options.actor), author: actorLabel(options.actor), body } });
    await recordAudit(
      options.actor,
      {
        action: "comment.add",
        summary: `commented on ${actionIndex === null ? "a proposal" : `action ${actionIndex + 1} of a proposal`} on ${proposal.graph.name}: ${body.length > 120 ? `${body.slice(0, 117)}…` : body}`,
        graphName: proposal.graph.name,
        targetType: actionIndex === null ? "proposal" : "action",
        targetId: actionIndex === null ? proposal.id : `${proposal.id}#${actionIndex}`,
        details: { commentId: created.id },
      },
      tx,
    );
    return created;
  });
  return { id: row.id, proposalId: row.proposalId, actionIndex: row.actionIndex, author: row.author, authorId: row.userId, body: row.body, createdAt: row.createdAt.toISOString() };
}
