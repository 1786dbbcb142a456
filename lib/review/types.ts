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
  | "OUTSIDE_RETRIEVED";

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

export interface ActionReview {
  index: number;
  action: RefinementAction;
  text: string;
  confidence: Confidence;
  /** Why this label: every rule that fired, in order. */
  reasons: string[];
  evidence: EvidenceItem[];
  warnings: ReviewWarning[];
  suggestions: Suggestion[];
  resolved: { subject?: ResolvedName; object?: ResolvedName; old?: ResolvedName; new?: ResolvedName };
}
