/**
 * Reviews made before their version's graph rules were mined are made again once the rules are
 * ready. A request waits for the rules at most 2 s (proposals.ts RULES_WAIT_MS); on a big graph
 * an API, MCP or CLI proposal is then reviewed without path rules, signatures, functional
 * conflicts or the trained model, and its reasons say so (`RULES_NOT_READY`). The label people
 * act on should not stay that partial review.
 *
 * What is reviewed again: pending actions of proposals on that version (pending or partially
 * applied) whose stored review carries the mark. Each is written only if its row is still what was read (status
 * pending, review unchanged: an edit or a decision meanwhile wins), under the same row lock a
 * decision takes. When the label changes, approvals given on the old label are dismissed with
 * the reason, as an edit dismisses them; when it does not, they stand. Each write is audited
 * (`action.rereview`) and shows on the proposal's timeline.
 *
 * Started when a review went ahead without the rules (proposals.ts, once mining ends) and when a
 * proposal holding such a review is read (after a restart, or when mining ended before the
 * proposal was stored). One job per graph version at a time; a version whose mining failed is
 * left alone (its reviews keep saying the rules were missing).
 */
import { SYSTEM_ACTOR } from "../../auth/permissions";
import { formatAction } from "../../loop/parse-output";
import type { RefinementAction } from "../../loop/types";
import { RULES_NOT_READY_MARK, madeWithoutRules } from "../../review/review-actions";
import type { ReviewInput } from "../../review/review-actions";
import type { ActionReview } from "../../review/types";
import { LOCKING_TRANSACTION, lockActionRows } from "../db/action-row-locks";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getGraphRulesStatus } from "./graph-rules-cache";

/** proposals.ts `reviewForGraph`, passed in (no import circle). */
export type ReviewAgain = (options: { graph: string; version: number; actions: readonly ReviewInput[]; rulesWaitMs?: number }) => Promise<ActionReview[]>;

export interface ReReviewResult {
  /** Actions whose stored review was replaced. */
  reviewed: number;
  /** Of those, how many changed label. */
  relabelled: number;
  /** Approvals dismissed because the label they were given on changed. */
  dismissedApprovals: number;
  /** Rows left alone because someone edited or decided them meanwhile, or the rules are still missing. */
  skipped: number;
}

/** Whether a stored review (its JSON) was made without the version's rules. */
export function reviewedWithoutRules(reviewJson: string): boolean {
  return reviewJson.includes(RULES_NOT_READY_MARK);
}

/**
 * Review again every pending action on this graph version that was reviewed without the rules.
 * Waits for the rules (mining them if no job exists, e.g. after a restart).
 */
export async function reReviewWithoutRules(options: { graphId: string; version: number; review: ReviewAgain }): Promise<ReReviewResult> {
  const result: ReReviewResult = { reviewed: 0, relabelled: 0, dismissedApprovals: 0, skipped: 0 };
  if (getGraphRulesStatus(options)?.state === "failed") return result;
  const db = getDb();
  const rows = await db.proposalAction.findMany({
    // A pending action (its proposal is pending or partially applied).
    where: { status: "pending", review: { contains: RULES_NOT_READY_MARK }, proposal: { graphId: options.graphId, baseVersion: options.version } },
    select: { id: true, index: true, action: true, review: true, confidence: true, proposalId: true, proposal: { select: { graph: { select: { name: true } } } } },
    orderBy: [{ proposalId: "asc" }, { index: "asc" }],
  });
  if (rows.length === 0) return result;
  const graphName = rows[0]?.proposal.graph.name as string;
  // One review call per proposal, for those of its actions that wait for the rules.
  const byProposal = new Map<string, typeof rows>();
  for (const row of rows) byProposal.set(row.proposalId, [...(byProposal.get(row.proposalId) ?? []), row]);
  for (const [proposalId, actions] of byProposal) {
    const reviews = await options.review({
      graph: graphName,
      version: options.version,
      actions: actions.map((a) => JSON.parse(a.action) as RefinementAction),
      rulesWaitMs: Number.POSITIVE_INFINITY,
    });
    for (const [i, row] of actions.entries()) {
      const review = reviews[i];
      // Still without rules (mining failed meanwhile): nothing better to store.
      if (!review || madeWithoutRules(review)) {
        result.skipped++;
        continue;
      }
      const reviewed: ActionReview = { ...review, index: row.index };
      const before = row.confidence;
      const after = reviewed.confidence;
      const written = await db.$transaction(async (tx) => {
        await lockActionRows(tx, proposalId, [row.index]);
        const { count } = await tx.proposalAction.updateMany({
          where: { id: row.id, status: "pending", review: row.review },
          data: { review: JSON.stringify(reviewed), confidence: after },
        });
        if (count !== 1) return null;
        const dismissed =
          before === after
            ? { count: 0 }
            : await tx.approval.updateMany({
                where: { actionId: row.id, kind: "approve", withdrawnAt: null, dismissedAt: null },
                data: { dismissedAt: new Date(), dismissedReason: `the review was made again once the graph rules were mined: ${before} → ${after}` },
              });
        await recordAudit(
          SYSTEM_ACTOR,
          {
            action: "action.rereview",
            summary:
              `reviewed action ${row.index + 1} of a proposal on ${graphName} again once the graph rules of version ${options.version} were mined: ` +
              `${formatAction(JSON.parse(row.action) as RefinementAction)} ${before === after ? `stays ${after}` : `${before} → ${after}`}` +
              (dismissed.count > 0 ? ` (${dismissed.count} approval${dismissed.count === 1 ? "" : "s"} dismissed)` : ""),
            graphName,
            targetType: "action",
            targetId: `${proposalId}#${row.index}`,
            details: { before, after, score: reviewed.score ?? null, dismissedApprovals: dismissed.count },
          },
          tx,
        );
        return dismissed.count;
      }, LOCKING_TRANSACTION);
      if (written === null) {
        result.skipped++;
        continue;
      }
      result.reviewed++;
      if (before !== after) result.relabelled++;
      result.dismissedApprovals += written;
    }
  }
  return result;
}

interface Job {
  done: Promise<ReReviewResult | null>;
  /** Asked for again while running: one more pass when this one ends (the asker's proposal may be newer than its read). */
  again: boolean;
}

/** The last failed job of a version: how many in a row, when, and why. */
export interface ReReviewFailure {
  failures: number;
  /** Epoch ms of the earliest next try. */
  retryAt: number;
  error: string;
}

const globalJobs = globalThis as unknown as { refineryReReviews?: Map<string, Job>; refineryReReviewFailures?: Map<string, ReReviewFailure> };
const jobs = (globalJobs.refineryReReviews ??= new Map<string, Job>());
const failures = (globalJobs.refineryReReviewFailures ??= new Map<string, ReReviewFailure>());

/** After a failed job, the next waits 2 s, then 4, 8, … up to 5 minutes: a page polling every 2 s does not restart it on every read. */
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 5 * 60_000;

/** Why the last job of this version failed and when the next may start, or null (none failed, or one succeeded since). */
export function reReviewFailure(options: { graphId: string; version: number }): ReReviewFailure | null {
  return failures.get(`${options.graphId}:${options.version}`) ?? null;
}

/**
 * Start `reReviewWithoutRules` for this version, or, when one is running, ask it for one more
 * pass once it ends (a proposal stored after its read is then found). Resolves when the job ends,
 * with the sum of its passes (tests, scripts). Errors are logged, never thrown at the caller: a
 * read that started it must not fail because of it. After a failure the version waits (2 s,
 * doubling up to 5 minutes) before a read may start it again; `reReviewFailure` says why.
 */
export function scheduleReReview(options: { graphId: string; version: number; review: ReviewAgain; now?: () => number }): Promise<ReReviewResult | null> {
  const key = `${options.graphId}:${options.version}`;
  const now = options.now ?? Date.now;
  const running = jobs.get(key);
  if (running) {
    running.again = true;
    return running.done;
  }
  // The last job failed: not before its back-off ends (a read during it starts nothing).
  const failed = failures.get(key);
  if (failed && now() < failed.retryAt) return Promise.resolve(null);
  const job: Job = { done: Promise.resolve(null), again: false };
  job.done = (async () => {
    const total: ReReviewResult = { reviewed: 0, relabelled: 0, dismissedApprovals: 0, skipped: 0 };
    try {
      do {
        job.again = false;
        const pass = await reReviewWithoutRules(options);
        total.reviewed += pass.reviewed;
        total.relabelled += pass.relabelled;
        total.dismissedApprovals += pass.dismissedApprovals;
        total.skipped += pass.skipped;
      } while (job.again);
      failures.delete(key);
      return total;
    } catch (error) {
      const count = (failures.get(key)?.failures ?? 0) + 1;
      const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (count - 1));
      failures.set(key, { failures: count, retryAt: now() + wait, error: error instanceof Error ? error.message : String(error) });
      console.error(`reviewing again the actions of ${key} reviewed without graph rules failed (${count} in a row; next try in ${Math.round(wait / 1000)} s)`, error);
      return null;
    } finally {
      jobs.delete(key);
    }
  })();
  jobs.set(key, job);
  return job.done;
}

/** The running job of this version, if any (tests: what a read started in the background). */
export function runningReReview(options: { graphId: string; version: number }): Promise<ReReviewResult | null> | null {
  return jobs.get(`${options.graphId}:${options.version}`)?.done ?? null;
}
