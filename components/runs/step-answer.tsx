"use client";

import Link from "next/link";
import type { RunDetails } from "../api/run-types";
import { useRunAnswer } from "../api/asks";
import { AskAnswerList } from "../ask/ask-answer";

/**
 * What the graph answers once a step was judged answerable: the heuristic Ask over that step's
 * triples only (the judge says "answerable"; this says "with what").
 */
export function StepAnswer({ run }: { run: RunDetails }) {
  const judged = run.stepRecords.find((s) => s.answerable);
  const answer = useRunAnswer(run.id, run.status, judged !== undefined);
  if (!judged) return null;
  const result = answer.data?.answer;
  return (
    <section className="card step-answer" aria-labelledby="step-answer-title" data-testid="step-answer">
      <h2 id="step-answer-title" className="card__title">
        The graph&apos;s answer at step {judged.step}
      </h2>
      {answer.isPending ? (
        <p className="muted small">Working out the answer…</p>
      ) : answer.isError ? (
        <p className="inline-error" role="alert">
          Could not work out the answer: {answer.error.message}
        </p>
      ) : !result || result.trace.answers.length === 0 ? (
        <p className="small" data-testid="step-answer-none">
          The judge said answerable, but the heuristic Ask finds no answer entity in these {judged.triples.length} triples: check them below.
        </p>
      ) : (
        <AskAnswerList answers={result.trace.answers.slice(0, 5)} />
      )}
      <p className="muted small">
        Heuristic Ask over the step&apos;s {judged.triples.length} triples (rule-based, not an LLM).{" "}
        <Link href={`/graphs/${encodeURIComponent(run.graph)}/ask`}>Ask the whole graph</Link>
      </p>
    </section>
  );
}
