/**
 * A proposal's timeline: the run that proposed it, its submission, every approval, veto,
 * withdrawal, dismissal and comment, each edit, and the versions that applied or reverted it —
 * oldest first, each with who and one readable sentence. Built from the tables that hold the
 * facts (runs, approvals, comments, changesets), plus the audit log for edits.
 */
import type { RefinementAction } from "../../loop/types";
import { formatAction } from "../../loop/parse-output";
import { AppError } from "../../errors";
import { getDb } from "../db/db";
import { plural } from "../../text/plural";

export type TimelineKind = "run" | "submit" | "approve" | "reject" | "withdraw" | "dismiss" | "comment" | "edit" | "rereview" | "apply" | "revert";

export interface TimelineEvent {
  at: string;
  kind: TimelineKind;
  who: string;
  /** 0-based action index, when the event concerns one action. */
  actionIndex: number | null;
  text: string;
  version?: number;
}

/**
 * Which of the proposal's actions a version applied, numbered as the proposal numbers them. Read
 * from the actions' own `appliedIn`: a changeset's summary numbers its actions among the ones
 * chosen for that apply (action 3 applied alone is its entry 0), so it cannot say which they were.
 */
function describeApply(actions: { index: number; status: string; appliedIn: number | null }[], version: number): string {
  const mine = actions.filter((a) => a.appliedIn === version).sort((a, b) => a.index - b.index);
  if (mine.length === 0) return `applied version ${version}`;
  const list = (items: typeof mine) => `${items.length === 1 ? "action" : "actions"} ${items.map((a) => a.index + 1).join(", ")}`;
  const done = mine.filter((a) => a.status !== "skipped");
  const skipped = mine.filter((a) => a.status === "skipped");
  const parts = [done.length > 0 ? `applied ${list(done)} as version ${version}` : `applied nothing new as version ${version}`];
  if (skipped.length > 0) parts.push(`${list(skipped)} changed nothing and ${skipped.length === 1 ? "was" : "were"} skipped`);
  return parts.join("; ");
}

export async function findProposalTimeline(options: { proposalId: string }): Promise<TimelineEvent[]> {
  const db = getDb();
  const proposal = await db.proposal.findUnique({
    where: { id: options.proposalId },
    include: {
      run: { select: { id: true, createdAt: true, startedByName: true, question: true } },
      actions: { select: { id: true, index: true, action: true, status: true, appliedIn: true } },
      comments: true,
      changesets: { select: { version: true, kind: true, actor: true, createdAt: true, revertOf: true, summary: true } },
    },
  });
  if (!proposal) throw new AppError("NOT_FOUND", `no proposal ${options.proposalId}`);
  const indexOf = new Map(proposal.actions.map((a) => [a.id, a.index]));
  const textOf = new Map(proposal.actions.map((a) => [a.index, formatAction(JSON.parse(a.action) as RefinementAction)]));
  const label = (index: number | null) => (index === null ? "" : `action ${index + 1} ${textOf.get(index) ?? ""}`.trim());
  const events: TimelineEvent[] = [];

  if (proposal.run) {
    // No account behind the run: the CLI started it (the proposal's origin says so) or the server did.
    const starter = proposal.run.startedByName ?? (proposal.origin === "cli" ? "command line" : "the server");
    events.push({ at: proposal.run.createdAt.toISOString(), kind: "run", who: starter, actionIndex: null, text: `started the run: ${proposal.run.question}` });
  }
  events.push({
    at: proposal.createdAt.toISOString(),
    kind: "submit",
    who: proposal.submittedByName ?? (proposal.run ? "the run" : proposal.source === "file" ? "command line" : "(submitter not recorded)"),
    actionIndex: null,
    text: `proposed ${plural(proposal.actions.length, "action")} on version ${proposal.baseVersion}`,
  });

  const approvals = await db.approval.findMany({ where: { proposalId: proposal.id }, include: { user: { select: { username: true, displayName: true } } }, orderBy: { id: "asc" } });
  for (const a of approvals) {
    const who = a.user.displayName || a.user.username;
    const index = indexOf.get(a.actionId) ?? null;
    const what = a.kind === "reject" ? "vetoed" : "approved";
    events.push({ at: a.createdAt.toISOString(), kind: a.kind === "reject" ? "reject" : "approve", who, actionIndex: index, text: `${what} ${label(index)}${a.reason ? `: ${a.reason}` : ""}` });
    if (a.withdrawnAt) events.push({ at: a.withdrawnAt.toISOString(), kind: "withdraw", who, actionIndex: index, text: `withdrew their ${a.kind === "reject" ? "veto" : "approval"} of ${label(index)}` });
    if (a.dismissedAt) {
      events.push({ at: a.dismissedAt.toISOString(), kind: "dismiss", who: "system", actionIndex: index, text: `dismissed ${who}'s approval of ${label(index)}: ${a.dismissedReason ?? "stale"}` });
    }
  }
  for (const c of proposal.comments) {
    events.push({ at: c.createdAt.toISOString(), kind: "comment", who: c.author, actionIndex: c.actionIndex, text: c.actionIndex === null ? c.body : `on ${label(c.actionIndex)}: ${c.body}` });
  }
  // Edits, and reviews made again once the graph rules were mined (re-review-after-mining.ts).
  const edits = await db.auditEvent.findMany({ where: { action: { in: ["action.edit", "action.rereview"] }, targetType: "action", targetId: { startsWith: `${proposal.id}#` } }, orderBy: { id: "asc" } });
  for (const e of edits) {
    const index = Number(e.targetId?.split("#")[1]);
    const actionIndex = Number.isInteger(index) ? index : null;
    if (e.action === "action.rereview") {
      // The audit log's sentence names the graph and the proposal; here both are known.
      const details = (e.details ? JSON.parse(e.details) : {}) as { before?: string; after?: string };
      const change = details.before && details.after ? (details.before === details.after ? `: stays ${details.after}` : `: ${details.before} → ${details.after}`) : "";
      events.push({ at: e.at.toISOString(), kind: "rereview", who: "system", actionIndex, text: `reviewed ${label(actionIndex)} again once the graph rules were mined${change}` });
    } else events.push({ at: e.at.toISOString(), kind: "edit", who: e.actorName, actionIndex, text: e.summary });
  }
  for (const c of proposal.changesets) {
    events.push({
      at: c.createdAt.toISOString(),
      kind: c.kind === "revert" ? "revert" : "apply",
      who: c.actor ?? "unknown",
      actionIndex: null,
      text: c.kind === "revert" ? `reverted version ${c.revertOf ?? "?"} as version ${c.version}` : describeApply(proposal.actions, c.version),
      version: c.version,
    });
  }
  const order: Record<TimelineKind, number> = { run: 0, submit: 1, comment: 2, edit: 3, rereview: 3, approve: 4, reject: 4, withdraw: 5, dismiss: 6, apply: 7, revert: 8 };
  return events.sort((a, b) => a.at.localeCompare(b.at) || order[a.kind] - order[b.kind]);
}
