/**
 * A campaign's result as ONE proposal in the review queue: the best accepted iteration's
 * cumulative actions, each reviewed against the campaign's base version exactly as a run's are
 * (so a LOW action still needs its confirmation), with the campaign's evidence in its reasons:
 * the iteration that accepted it, the questions it was proposed for and their before/after
 * (baseline → best iteration), and the trajectory in the proposal's title line. Nothing reaches
 * the live graph until people approve.
 */
import type { Actor } from "../../auth/permissions";
import type { CampaignResult, QuestionResult } from "../../campaign/types";
import { AppError } from "../../errors";
import { formatAction } from "../../loop/parse-output";
import { getDb } from "../db/db";
import { RUN_RULES_WAIT_MS, createProposal, reviewForGraph } from "../proposals";

function describeResult(r: QuestionResult | undefined): string {
  if (!r) return "not scored";
  const parts = [r.answerable ? `answerable at step ${r.steps}` : "unanswerable"];
  if (r.correct !== undefined) parts.push(r.correct ? `right answer "${r.answer ?? ""}"` : r.answer ? `answer "${r.answer}" (${r.accuracyNote ?? "wrong"})` : (r.accuracyNote ?? "no answer"));
  return parts.join(", ");
}

/** "q1: unanswerable → answerable at step 1" for each question whose result changed. */
export function questionChanges({ result, ids }: { result: CampaignResult; ids?: readonly string[] }): string[] {
  const before = result.iterations[0]?.score.questions ?? [];
  const best = result.iterations.find((i) => i.iter === result.bestIter)?.score.questions ?? [];
  const wanted = ids ? new Set(ids) : null;
  const out: string[] = [];
  for (const b of before) {
    if (wanted && !wanted.has(b.id)) continue;
    const a = best.find((x) => x.id === b.id);
    const from = describeResult(b);
    const to = describeResult(a);
    if (from !== to) out.push(`${JSON.stringify(b.question)}: ${from} → ${to}`);
  }
  return out;
}

export async function submitCampaignProposal({ campaignId, graph, baseVersion, result, actor }: { campaignId: string; graph: string; baseVersion: number; result: CampaignResult; actor: Actor | null }): Promise<string> {
  const actions = result.bestActions;
  if (actions.length === 0) throw new AppError("INVALID_INPUT", "the best iteration has no actions to propose");
  const reviews = await reviewForGraph({ graph, version: baseVersion, actions, rulesWaitMs: RUN_RULES_WAIT_MS });
  const accepted = result.iterations.filter((i) => i.iter <= result.bestIter && i.accepted && i.iter > 0);
  const withEvidence = reviews.map((review, k) => {
    const text = formatAction(actions[k] ?? review.action);
    const it = accepted.find((i) => i.actions.some((a) => a.text === text));
    const gated = it?.actions.find((a) => a.text === text);
    const lines = [`campaign ${campaignId}: ${result.trajectory}`];
    if (it && gated) {
      lines.push(`accepted in iteration ${it.iter} (overall ${(it.score.overall - it.delta).toFixed(1)} → ${it.score.overall.toFixed(1)}); claim-evidence gate: ${gated.evidence} (${gated.why})`);
      const changes = questionChanges({ result, ids: gated.questions });
      lines.push(changes.length ? `questions it was proposed for, baseline → best iteration: ${changes.join("; ")}` : `proposed for ${gated.questions.length} question(s) whose results did not change on their own`);
    }
    return { ...review, reasons: [...review.reasons, ...lines] };
  });
  return getDb().$transaction((tx) =>
    createProposal(
      { graph, baseVersion, source: "campaign", question: `Campaign: ${result.trajectory}`, actions, reviews: withEvidence, submittedBy: actor },
      tx,
    ),
  );
}
