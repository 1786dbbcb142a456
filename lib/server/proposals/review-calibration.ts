/**
 * Calibration from people's decisions (issue #10): per graph, per action kind and per label,
 * how often reviewers approved, rejected (vetoed) or later reverted what the review proposed,
 * and the per-graph score thresholds an admin re-fitted from those decisions.
 *
 * Decisions are read from ProposalAction.status, which the approval, veto and revert paths keep
 * in step with the Approval and Changeset rows: `applied`/`skipped` = approved (a skipped action
 * was approved but had nothing left to change), `reverted` = approved and later undone by a
 * revert changeset, `rejected` = vetoed (a withdrawn veto puts it back to `pending`).
 *
 * Thresholds live in the Setting table under `review.thresholds:<graphId>`; no row = the review's
 * own defaults. Applying or resetting is audited (policy.thresholds) in the same transaction.
 */
import { z } from "zod";
import type { Actor } from "../../auth/permissions";
import { actorLabel, can } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { ScoredDecision, ThresholdRefit } from "../../review/calibrate-thresholds";
import { isValidThresholds, refitThresholds } from "../../review/calibrate-thresholds";
import { DEFAULT_THRESHOLDS, hasPositiveEvidence, hasStrongAgainst } from "../../review/score-action";
import type { ActionReview, Confidence, LabelThresholds } from "../../review/types";
import type { RefinementAction } from "../../loop/types";
import type { DecisionOutcome, DecisionStats } from "../../review/count-decisions";
import { DECIDED_STATUSES, DECISION_LABELS, countDecisions, emptyDecisionStats, outcomeOfStatus } from "../../review/count-decisions";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getGraphRecord } from "../graphs";

export type { ActionKind, DecisionStats, LabelDecisionStats } from "../../review/count-decisions";

export interface StoredThresholds extends LabelThresholds {
  /** Decisions the re-fit rested on when it was applied. */
  decisions: number;
  appliedAt: string;
  appliedBy: string;
}

export interface GraphCalibration {
  graph: string;
  stats: DecisionStats;
  /** This graph's re-fitted thresholds, or null: the review's defaults apply. */
  thresholds: StoredThresholds | null;
  /** The review's default thresholds. */
  defaults: LabelThresholds;
  /** What a re-fit from the decisions so far would set (thresholds null when they do not suffice). */
  refit: ThresholdRefit;
}

const storedSchema = z.object({
  high: z.number().min(0).max(1),
  medium: z.number().min(0).max(1),
  decisions: z.number().int().min(0),
  appliedAt: z.string(),
  appliedBy: z.string(),
});

export const thresholdsKey = (graphId: string) => `review.thresholds:${graphId}`;

async function findStoredThresholds(graphId: string): Promise<StoredThresholds | null> {
  const row = await getDb().setting.findUnique({ where: { key: thresholdsKey(graphId) } });
  if (!row) return null;
  let json: unknown;
  try {
    json = JSON.parse(row.value);
  } catch {
    json = null;
  }
  const parsed = storedSchema.safeParse(json);
  // A damaged row must not change labels: the review falls back to its defaults.
  if (!parsed.success || !isValidThresholds(parsed.data)) return null;
  return parsed.data;
}

/** The thresholds the review should use for this graph, or null for its defaults. */
export async function findLabelThresholds(graphId: string): Promise<LabelThresholds | null> {
  const stored = await findStoredThresholds(graphId);
  return stored ? { high: stored.high, medium: stored.medium } : null;
}

function kindOf(actionJson: string): string {
  try {
    return String((JSON.parse(actionJson) as Partial<RefinementAction>).type);
  } catch {
    return "";
  }
}

/** Decision statistics of several graphs at once. */
export async function findDecisionStats(options: { graphs: readonly string[] }): Promise<DecisionStats[]> {
  const graphs = [...new Set(options.graphs)];
  if (graphs.length === 0) return [];
  const rows = await getDb().proposalAction.findMany({
    where: { status: { in: [...DECIDED_STATUSES] }, proposal: { graph: { name: { in: graphs } } } },
    select: { action: true, confidence: true, status: true, proposal: { select: { graph: { select: { name: true } } } } },
  });
  return countDecisions({ graphs, rows: rows.map((r) => ({ graph: r.proposal.graph.name, kind: kindOf(r.action), label: r.confidence, status: r.status })) });
}

function scoredDecision(reviewJson: string, label: Confidence, outcome: DecisionOutcome): ScoredDecision {
  let review: Partial<ActionReview> = {};
  try {
    review = JSON.parse(reviewJson) as Partial<ActionReview>;
  } catch {
    // An unreadable review counts as unscored.
  }
  const signals = Array.isArray(review.signals) ? review.signals : [];
  const blocked = signals.some((s) => s.kind === "warning");
  return {
    score: typeof review.score === "number" ? review.score : Number.NaN,
    // The review's own gates (score-action.ts): a blocking warning is LOW whatever the thresholds,
    // like no evidence at all; strong evidence against keeps an action from HIGH.
    hasPositiveEvidence: !blocked && hasPositiveEvidence(signals),
    hasStrongEvidence: !blocked && signals.some((s) => s.positive === true && s.strong === true && s.contribution > 0) && !hasStrongAgainst(signals),
    label,
    outcome,
  };
}

async function findScoredDecisions(graphId: string): Promise<ScoredDecision[]> {
  const rows = await getDb().proposalAction.findMany({
    where: { status: { in: [...DECIDED_STATUSES] }, proposal: { graphId } },
    select: { review: true, confidence: true, status: true },
  });
  const out: ScoredDecision[] = [];
  for (const row of rows) {
    const outcome = outcomeOfStatus(row.status);
    const label = DECISION_LABELS.find((l) => l === row.confidence);
    if (outcome && label) out.push(scoredDecision(row.review, label, outcome));
  }
  return out;
}

/** A graph's decision statistics, its thresholds and what a re-fit would propose now. */
export async function getCalibration(options: { graph: string }): Promise<GraphCalibration> {
  const record = await getGraphRecord(options.graph);
  const [[stats], thresholds, decisions] = await Promise.all([
    findDecisionStats({ graphs: [record.name] }),
    findStoredThresholds(record.id),
    findScoredDecisions(record.id),
  ]);
  return { graph: record.name, stats: stats ?? emptyDecisionStats(record.name), thresholds, defaults: { ...DEFAULT_THRESHOLDS }, refit: refitThresholds({ decisions }) };
}

function requireAdmin(actor: Actor): void {
  if (actor.kind === "token" || !can(actor, "admin")) throw new AppError("FORBIDDEN", "only admins can change a graph's review thresholds");
}

const fmt = (t: LabelThresholds) => `HIGH ≥ ${t.high.toFixed(2)}, MEDIUM ≥ ${t.medium.toFixed(2)}`;

/**
 * Apply the re-fit the decisions support now. `expected`: the thresholds the admin was shown;
 * when decisions arrived meanwhile and the fit moved, nothing is changed (CONFLICT).
 */
export async function applyThresholdRefit(options: { graph: string; actor: Actor; expected?: LabelThresholds }): Promise<GraphCalibration> {
  requireAdmin(options.actor);
  const before = await getCalibration({ graph: options.graph });
  const proposed = before.refit.thresholds;
  if (!proposed) throw new AppError("CONFLICT", `no re-fit to apply: ${before.refit.reason}`);
  if (options.expected && (Math.abs(options.expected.high - proposed.high) > 1e-9 || Math.abs(options.expected.medium - proposed.medium) > 1e-9)) {
    throw new AppError("CONFLICT", `the decisions changed since you looked: the re-fit is now ${fmt(proposed)}, not ${fmt(options.expected)}. Nothing was changed.`, { proposed });
  }
  const record = await getGraphRecord(options.graph);
  const stored: StoredThresholds = { ...proposed, decisions: before.refit.decisions, appliedAt: new Date().toISOString(), appliedBy: actorLabel(options.actor) };
  await getDb().$transaction(async (tx) => {
    const key = thresholdsKey(record.id);
    await tx.setting.upsert({ where: { key }, create: { key, value: JSON.stringify(stored) }, update: { value: JSON.stringify(stored) } });
    await recordAudit(
      options.actor,
      {
        action: "policy.thresholds",
        summary: `re-fitted the review thresholds of ${record.name} from ${before.refit.decisions} decisions: ${before.thresholds ? fmt(before.thresholds) : `defaults (${fmt(before.defaults)})`} → ${fmt(proposed)}`,
        graphName: record.name,
        targetType: "policy",
        targetId: record.name,
        details: { before: before.thresholds, after: stored, refit: before.refit },
      },
      tx,
    );
  });
  return getCalibration({ graph: record.name });
}

/** Go back to the review's default thresholds (the undo of a re-fit). */
export async function resetThresholds(options: { graph: string; actor: Actor }): Promise<GraphCalibration> {
  requireAdmin(options.actor);
  const record = await getGraphRecord(options.graph);
  const before = await findStoredThresholds(record.id);
  await getDb().$transaction(async (tx) => {
    await tx.setting.deleteMany({ where: { key: thresholdsKey(record.id) } });
    await recordAudit(
      options.actor,
      {
        action: "policy.thresholds",
        summary: `reset the review thresholds of ${record.name} to the defaults${before ? ` (were ${fmt(before)})` : " (they already were)"}`,
        graphName: record.name,
        targetType: "policy",
        targetId: record.name,
        details: { before, after: null },
      },
      tx,
    );
  });
  return getCalibration({ graph: record.name });
}

/** POST /api/graphs/{name}/calibration: apply the re-fit shown, or go back to the defaults. */
export const calibrationRequestSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("refit").describe("apply the thresholds the decisions support now"),
    expected: z
      .object({ high: z.number().min(0).max(1), medium: z.number().min(0).max(1) })
      .optional()
      .describe("the thresholds the admin was shown; if the re-fit moved since, nothing changes (409)"),
  }),
  z.object({ action: z.literal("reset").describe("remove this graph's thresholds: the review's defaults apply again") }),
]);
