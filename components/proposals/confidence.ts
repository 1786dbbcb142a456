import type { Confidence } from "../api/proposal-types";

/** What each label means, in the words a first-time reviewer needs (docs/review-rules.md, condensed). */
export const CONFIDENCE_MEANING: Record<Confidence, string> = {
  HIGH: "Well supported: the source code or text states it, or no fact is lost.",
  MEDIUM: "Plausible but not proven: partly supported, or capped by a warning. Read the reasons.",
  LOW: "Unsupported, or a warning blocks it. Approving needs a written reason.",
};

/** Reviewers triage LOW first by default; the order also drives "sort by label". */
export const CONFIDENCE_RANK: Record<Confidence, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };
