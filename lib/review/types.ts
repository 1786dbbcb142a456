/**
 * What a review says about each proposed action: a confidence label with the reasons that
 * produced it, the evidence behind it, warnings, and ranked suggested replacements. Shared by
 * the review (lib/review), apply (lib/changes), the CLI and the dashboard.
 */
import type { Triple } from "../graph/model";
import type { NameCandidate, ResolutionStatus } from "../graph/resolve-name";
import type { RefinementAction } from "../loop/types";

export type Confidence = "HIGH" | "MEDIUM" | "LOW";

export type WarningCode =
  | "UNPARSEABLE"
  | "UNKNOWN_ENTITY"
  | "AMBIGUOUS_NAME"
  | "GENERIC_NAME"
  | "GENERIC_OBJECT"
  | "EDGE_EXISTS"
  | "PARALLEL_RELATION"
  | "CROSS_COMMUNITY_NO_PATH"
  | "DELETE_MISSING"
  | "MERGE_EXISTING"
  | "SELF_LOOP"
  | "OUTSIDE_RETRIEVED"
  | "RULES_NOT_MINED"; // a graph reviewed from a neighbourhood (SQL retrieval): no mined rules

export interface ReviewWarning {
  code: WarningCode;
  message: string;
  /** Ranked candidates, shown as unambiguous ids / `file::label`, when a name is ambiguous. */
  candidates?: NameCandidate[];
}

export type EvidenceKind = "node" | "edge" | "path" | "relation_usage" | "retrieved" | "text" | "code";

export interface EvidenceSource {
  /** Document id (passage id or the graph's `source_file` value). */
  docId: string;
  title?: string | null;
  /** Path relative to the project root, for files. */
  path?: string | null;
  /** 1-based line for files. */
  line?: number | null;
}

export interface EvidenceItem {
  kind: EvidenceKind;
  /** One line a reviewer reads: "path of 2 hops: A --calls--> B --uses--> C". */
  summary: string;
  /** The quoted sentence or code line, verbatim. */
  quote?: string;
  source?: EvidenceSource;
  /** For paths: the triples, in order. */
  path?: Triple[];
  /** Entity names to highlight inside `quote`. */
  highlights?: string[];
}

export interface Suggestion {
  action: RefinementAction;
  /** Canonical text, re-parseable: insert_edge("…", "…", "…"). */
  text: string;
  reason: string;
  score: number;
}

/** How a name in an action maps onto the graph (the same resolver review and apply use). */
export interface ResolvedName {
  name: string;
  status: ResolutionStatus;
  /** The node the action will touch; null when the name is new (insert creates it) or ambiguous. */
  nodeId: string | null;
  candidates: NameCandidate[];
}

/** Which independent signal a score contribution comes from (issue #10). */
export type SignalKind =
  | "text" // a sentence that states the relation (not co-mention, not a list or metadata line)
  | "rule" // a path rule mined from the graph predicts (or fails to predict) the edge
  | "signature" // the relation's usual domain / range (node kinds) fits or breaks
  | "functional" // a one-object-per-subject relation already has another object
  | "disjoint" // the pair is already linked by a relation this one (almost) never shares a pair with
  | "code" // the language-aware code check confirms or contradicts
  | "graph" // other graph context (path, community, degree, duplicate copies)
  | "name" // name-level evidence for replace_node (alias statement, equal labels, kinds)
  | "llm" // an optional verification call whose quotes were checked against the source
  | "warning"; // a blocking warning

/**
 * One signal's part in the plausibility score, shown to the reviewer with its contribution:
 * positive speaks for the action, negative against it. `evidence` points into
 * `ActionReview.evidence` at the item carrying the quote / path / source, when there is one.
 */
export interface ScoreSignal {
  kind: SignalKind;
  contribution: number;
  summary: string;
  evidence?: number;
  /**
   * True when this signal is evidence for the action (a statement, a prediction, a confirmation):
   * an action with none is LOW whatever its score. Kinds of node, "both endpoints exist" and
   * signals against are never positive.
   */
  positive?: boolean;
  /** True when it states or strongly predicts the fact (what HIGH needs); implies `positive`. */
  strong?: boolean;
}

/** Score thresholds for the labels (chosen on data; an admin may re-fit them per graph). */
export interface LabelThresholds {
  /** score ≥ high (and positive evidence) → HIGH */
  high: number;
  /** score ≥ medium (and positive evidence) → MEDIUM; below → LOW */
  medium: number;
}

export interface ActionReview {
  index: number;
  action: RefinementAction;
  text: string;
  confidence: Confidence;
  /**
   * Plausibility 0–1 from independent signals. Optional only because reviews stored before
   * #10 lack it; every review made now has it.
   */
  score?: number;
  /** The signals behind `score`, each with its contribution (empty for stored old reviews). */
  signals?: ScoreSignal[];
  /** Why this label: every rule that fired, in order. */
  reasons: string[];
  evidence: EvidenceItem[];
  warnings: ReviewWarning[];
  suggestions: Suggestion[];
  resolved: { subject?: ResolvedName; object?: ResolvedName; old?: ResolvedName; new?: ResolvedName };
}
