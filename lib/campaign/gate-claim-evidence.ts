/**
 * The claim-evidence gate (seed 003's Gate B, for graph actions instead of numbers): every
 * proposed action is sorted by its review into
 * - supported: the review's plausibility evidence states or predicts it (label MEDIUM or HIGH,
 *   which needs a positive signal — a stating sentence, a mined rule, the code, an alias — and a
 *   score at the MEDIUM threshold, with no blocking warning);
 * - attributed: not that, but a cited passage or source file speaks about it (an evidence item
 *   with a source) and nothing blocks it;
 * - needs evidence: neither. Only the first two enter the sandbox, so the campaign cannot raise
 *   its score with edges nothing backs (the seed's warning about gaming the reviewer).
 */
import type { ActionReview } from "../review/types";
import type { EvidenceClass } from "./types";

/** Warnings that do not stop an action from being attributed (the review's non-blocking ones). */
const NON_BLOCKING = new Set(["OUTSIDE_RETRIEVED", "PARALLEL_RELATION", "MERGE_EXISTING", "EDGE_EXISTS", "RULES_NOT_MINED"]);

export function classifyEvidence(review: ActionReview): { evidence: EvidenceClass; why: string } {
  const signals = review.signals ?? [];
  if (review.confidence !== "LOW") {
    const best = signals.filter((s) => s.positive === true && s.contribution > 0).sort((a, b) => Number(b.strong === true) - Number(a.strong === true) || b.contribution - a.contribution)[0];
    return { evidence: "supported", why: `${review.confidence} (score ${(review.score ?? 0).toFixed(2)}): ${best?.summary ?? review.reasons[review.reasons.length - 1] ?? ""}` };
  }
  const blocking = review.warnings.filter((w) => !NON_BLOCKING.has(w.code));
  const cited = review.evidence.find((e) => (e.kind === "text" || e.kind === "code") && e.source?.docId);
  if (blocking.length === 0 && cited?.source) {
    return { evidence: "attributed", why: `cites ${cited.source.path ?? cited.source.docId}${cited.source.line ? `:${cited.source.line}` : ""}: ${cited.summary}` };
  }
  const why = blocking.length > 0 ? `blocked: ${blocking.map((w) => w.code).join(", ")}` : (review.reasons[review.reasons.length - 1] ?? "no evidence for it");
  return { evidence: "needs_evidence", why };
}
