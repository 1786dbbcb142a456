import type { Confidence } from "../api/proposal-types";
import type { RefinementAction } from "../api/run-types";

/** One action a person is about to approve, with what the LOW confirmation has to show. */
export interface ApprovalItem {
  index: number;
  action: RefinementAction;
  confidence: Confidence;
  reasons: string[];
  warnings: { code: string; message: string }[];
  /** The review's score (0–1), when it has one. */
  score?: number | null;
  /** How people decided on this graph's actions of the same kind and label ("LOW inserts on this graph: 2 of 31 approved"). */
  history?: string | null;
}

export interface ApprovalTarget {
  proposalId: string;
  graph: string;
  question: string | null;
  items: ApprovalItem[];
  /** The approve button's words, reused by the LOW confirmation ("Approve and apply", "Approve (1 of 2)"). */
  label?: string;
}
