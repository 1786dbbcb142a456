/**
 * Refinement campaigns (issue #15, seed 003's Content Refinement Agent applied to a graph): the
 * shared types of the pure core. A campaign scores a question set on a sandbox of the graph,
 * lets the loop propose actions for the failing questions, gates them on evidence, lets a
 * devil's advocate challenge them, applies the survivors to the sandbox, re-scores and accepts
 * or reverts. The live graph never changes; the best accepted iteration becomes one proposal.
 *
 * CONTRACT: the server stores `CampaignIteration` and `WorklogEntry` as JSON. Extend additively.
 */
import type { Changeset } from "../changes/changeset";
import type { RefinementAction } from "../loop/types";
import type { Confidence } from "../review/types";

export interface CampaignQuestion {
  id: string;
  question: string;
  /** Gold answers, when the question set has them (MuSiQue, countries' held-out regions). */
  answers?: string[];
}

export type Band = "Accept" | "Minor" | "Major" | "Reject";

export interface SubScores {
  /** % of questions the loop judge found answerable. */
  answerability: number;
  /** % of gold questions whose best Ask answer is a gold answer reached through evidence; null without gold. */
  accuracy: number | null;
  /** Hops needed: 100 for an answer at step 1, less for each further step, 0 when unanswerable. */
  efficiency: number;
  /** 100 minus the share of the sandbox's changes that introduce duplicates, dangling nodes or conflicts. */
  hygiene: number;
}

export const SUB_SCORE_KEYS = ["answerability", "accuracy", "efficiency", "hygiene"] as const;
export type SubScoreKey = (typeof SUB_SCORE_KEYS)[number];

export interface QuestionResult {
  id: string;
  question: string;
  answerable: boolean;
  /** Loop steps run (the step of the first Yes when answerable). */
  steps: number;
  /** Gold questions only: the best Ask answer, whether it is gold, whether evidence reaches it. */
  answer?: string | null;
  correct?: boolean | null;
  /** Why a gold answer did not count (no answer, model-only answer, wrong answer). */
  accuracyNote?: string;
  /** The loop failed for this question (provider down, bad format): counted as unanswerable. */
  error?: string | null;
}

export interface HygieneReport {
  changes: number;
  duplicates: string[];
  dangling: string[];
  conflicts: string[];
}

export interface CampaignScore {
  sub: SubScores;
  /** Computed from `sub` (mean of the sub-scores that exist), never taken from a model. */
  overall: number;
  band: Band;
  questions: QuestionResult[];
  hygiene: HygieneReport;
}

export type Decision = "BASELINE" | "ACCEPT" | "REVERT" | "HALT_PLATEAU" | "HALT_TARGET_MET" | "NOTHING_TO_FIX" | "ERROR";

export type HaltReason = "target_met" | "plateau" | "cap" | "nothing_left" | "stopped" | "error";

/** How the claim-evidence gate sorted a proposed action. */
export type EvidenceClass = "supported" | "attributed" | "needs_evidence";

export interface GatedAction {
  action: RefinementAction;
  text: string;
  /** Questions whose loop run proposed it. */
  questions: string[];
  evidence: EvidenceClass;
  confidence: Confidence;
  score: number;
  /** One line: the signal or source behind the class. */
  why: string;
}

export type Severity = "CRITICAL" | "MAJOR" | "MINOR";

/** One devil's-advocate challenge of one action in one round (iteration). */
export interface DaFinding {
  /** The action text: findings are matched across rounds by it. */
  id: string;
  round: number;
  severity: Severity;
  challenge: string;
  /** How well the action's evidence answers the challenge, 1–5. */
  rebuttalScore: number;
  rebuttal: string;
  /** The DA says it concedes; the guard decides whether the concession stands. */
  conceded: boolean;
  /** The action was withdrawn from the round (dropped or not proposed): the finding is resolved. */
  withdrawn?: boolean;
}

export interface DaGuardResult {
  /** Findings that still stand after the latest round, by their latest state. */
  standing: DaFinding[];
  /** Concessions the guard refused, with why (rebuttal < 4, or the round after a concession). */
  refused: Array<{ id: string; round: number; reason: string }>;
  /** A standing CRITICAL finding: the iteration may not be accepted. */
  blocked: boolean;
}

export interface CritiqueMemory {
  /** Questions still failing that failed in ≥ 2 iterations, most persistent first, and standing criticals. */
  focusOn: string[];
  /** Action texts not to propose again: rejected or reverted by people, or already tried here. */
  doNotRepropose: string[];
}

export interface CampaignIteration {
  iter: number;
  decision: Decision;
  score: CampaignScore;
  /** Overall − previous accepted overall (0 for the baseline). */
  delta: number;
  accepted: boolean;
  /** Actions that entered the sandbox this iteration (after gate and devil's advocate). */
  actions: GatedAction[];
  /** Actions the gate held back (needs evidence) or the devil's advocate dropped. */
  heldBack: Array<GatedAction & { reason: string }>;
  da: { findings: DaFinding[]; guard: DaGuardResult };
  memory: CritiqueMemory;
  /** This iteration's changeset over the previous accepted sandbox. */
  changeset: Changeset;
  /** All accepted actions up to and including this one (what a proposal of this iteration holds). */
  cumulativeActions: RefinementAction[];
  reasons: string[];
  consecutiveSmall: number;
  error?: string;
  startedAt: string;
  finishedAt: string;
}

export interface WorklogEntry {
  iter: number;
  at: string;
  decision: Decision;
  overall: number;
  band: Band;
  sub: SubScores;
  actions: string[];
  heldBack: string[];
  daFindings: Array<{ id: string; severity: Severity; rebuttalScore: number; standing: boolean }>;
  reasons: string[];
}

export interface CampaignThresholds {
  /** Accept band and the target-met halt (default 80). */
  target: number;
  /** A gain below this is small (default 1.0). */
  plateauThreshold: number;
  /** This many small gains in a row halt on a plateau (default 3). */
  plateauStreak: number;
  /** Overall scores closer than this are a tie (default 0.5): no exact float equality. */
  tieTolerance: number;
}

export const DEFAULT_THRESHOLDS: Readonly<CampaignThresholds> = Object.freeze({ target: 80, plateauThreshold: 1, plateauStreak: 3, tieTolerance: 0.5 });

export const DEFAULT_ITERATION_CAP = 3;

export interface CampaignResult {
  iterations: CampaignIteration[];
  worklog: WorklogEntry[];
  bestIter: number;
  haltedBecause: HaltReason;
  /** The best accepted iteration's cumulative actions: the proposal's content (empty: nothing to propose). */
  bestActions: RefinementAction[];
  /** "iter0 58.0 Major → iter1 67.3 Minor (accept) → …" */
  trajectory: string;
}
