import type { RunDetails, StepRecord } from "../api/run-types";
import { Spinner } from "../ui/states";
import { formatMs } from "./run-format";

const METHOD_LABEL: Record<StepRecord["retrieval"]["method"], string> = {
  graphify_query: "graphify query",
  k_hop_expansion: "k-hop expansion",
  "graphify_query+k_hop_expansion": "query + k-hop expansion",
  graph_rft_plan: "planned retrieval (Ask plan)",
};

interface StepTimelineProps {
  run: RunDetails;
  selected: number | null;
  onSelect: (step: number) => void;
}

export function StepTimeline({ run, selected, onSelect }: StepTimelineProps) {
  const steps = run.stepRecords;
  const isRunning = run.status === "running";
  if (steps.length === 0 && !isRunning) {
    return <p className="muted timeline__empty">No step finished before the run stopped.</p>;
  }
  return (
    <ol className="timeline" data-testid="step-timeline">
      {steps.map((step) => (
        <li key={step.step} className="timeline__step" data-testid="timeline-step" aria-current={step.step === selected ? "step" : undefined}>
          <button type="button" className="timeline__head" onClick={() => onSelect(step.step)} aria-pressed={step.step === selected}>
            <span className="timeline__title">Step {step.step}</span>
            <span className={step.answerable ? "verdict verdict--yes" : "verdict verdict--no"} data-testid="step-answerable">
              {step.answerable ? "answerable: Yes" : "answerable: No"}
            </span>
          </button>
          <dl className="timeline__facts">
            <div>
              <dt>retrieval</dt>
              <dd>{METHOD_LABEL[step.retrieval.method] ?? step.retrieval.method}</dd>
            </div>
            <div>
              <dt>triples</dt>
              <dd>
                {step.triples.length} <span className="muted">of cap {step.cap}</span>
              </dd>
            </div>
            <div>
              <dt>hops</dt>
              <dd>{step.numHops}</dd>
            </div>
            <div>
              <dt>time</dt>
              <dd>
                {formatMs(step.timings.retrievalMs)} retrieve · {formatMs(step.timings.judgeMs)} judge
              </dd>
            </div>
          </dl>
          <details className="disclosure">
            <summary>Judgement, as the provider wrote it</summary>
            <pre className="raw">{step.judgementRaw}</pre>
          </details>
          <details className="disclosure">
            <summary>Retrieval evidence</summary>
            <pre className="raw raw--evidence">{step.retrieval.evidence}</pre>
          </details>
        </li>
      ))}
      {isRunning ? (
        <li className="timeline__step timeline__step--pending">
          <Spinner size={14} />
          <span>
            {steps.at(-1)?.answerable || steps.length >= run.config.maxHops
              ? "Error abduction and refinement…"
              : `Step ${steps.length + 1} of at most ${run.config.maxHops}: retrieving and judging…`}
          </span>
        </li>
      ) : null}
    </ol>
  );
}
