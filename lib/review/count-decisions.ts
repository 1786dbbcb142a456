/**
 * How people decided, per graph, action kind and label (issue #10). One counting rule for the
 * server (lib/server/proposals/review-calibration.ts) and the review queue, which counts the same rows it
 * already holds so its figures move with every decision without another request.
 *
 * An action's status says what happened to it: `applied`/`skipped` = approved (skipped: approved,
 * nothing left to change), `reverted` = approved and later undone, `rejected` = vetoed (a
 * withdrawn veto puts it back to `pending`, which is no decision).
 */
import type { Confidence } from "./types";

export const ACTION_KINDS = ["insert_edge", "delete_edge", "replace_node"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
export const DECISION_LABELS: readonly Confidence[] = ["HIGH", "MEDIUM", "LOW"];
/** The statuses that are a decision. */
export const DECIDED_STATUSES = ["applied", "skipped", "reverted", "rejected"] as const;

export type DecisionOutcome = "approved" | "rejected" | "reverted";

export interface LabelDecisionStats {
  kind: ActionKind;
  label: Confidence;
  /** approved + rejected. */
  decided: number;
  /** Approved by people (applied, skipped as already true, or applied and later reverted). */
  approved: number;
  /** Vetoed. */
  rejected: number;
  /** Of the approved, how many a later revert undid. */
  reverted: number;
}

export interface DecisionStats {
  graph: string;
  decided: number;
  /** One entry per action kind × label, zeros included. */
  stats: LabelDecisionStats[];
}

export interface DecisionRow {
  graph: string;
  kind: string;
  label: string;
  status: string;
}

export function outcomeOfStatus(status: string): DecisionOutcome | null {
  if (status === "applied" || status === "skipped") return "approved";
  if (status === "reverted") return "reverted";
  if (status === "rejected") return "rejected";
  return null;
}

export function emptyDecisionStats(graph: string): DecisionStats {
  return { graph, decided: 0, stats: ACTION_KINDS.flatMap((kind) => DECISION_LABELS.map((label) => ({ kind, label, decided: 0, approved: 0, rejected: 0, reverted: 0 }))) };
}

/** Statistics for each of `graphs` (in that order), from action rows of any status. */
export function countDecisions(options: { graphs: readonly string[]; rows: Iterable<DecisionRow> }): DecisionStats[] {
  const byGraph = new Map(options.graphs.map((g) => [g, emptyDecisionStats(g)]));
  for (const row of options.rows) {
    const stats = byGraph.get(row.graph);
    const outcome = outcomeOfStatus(row.status);
    const entry = stats?.stats.find((s) => s.kind === row.kind && s.label === row.label);
    if (!stats || !outcome || !entry) continue;
    entry.decided++;
    stats.decided++;
    if (outcome === "rejected") entry.rejected++;
    else {
      entry.approved++;
      if (outcome === "reverted") entry.reverted++;
    }
  }
  return [...byGraph.values()];
}

const KIND_NOUN: Record<ActionKind, [string, string]> = {
  insert_edge: ["insert", "inserts"],
  delete_edge: ["delete", "deletes"],
  replace_node: ["merge", "merges"],
};

/** "LOW inserts on this graph: 2 of 31 approved; 1 reverted" (or that none was decided yet). */
export function describeLabelStats(entry: LabelDecisionStats, where = "on this graph"): string {
  const [one, many] = KIND_NOUN[entry.kind];
  if (entry.decided === 0) return `No ${entry.label} ${one} ${where} decided yet`;
  // "x of n approved": the rest were rejected.
  const reverted = entry.reverted > 0 ? `; ${entry.reverted} reverted` : "";
  return `${entry.label} ${many} ${where}: ${entry.approved} of ${entry.decided} approved${reverted}`;
}
