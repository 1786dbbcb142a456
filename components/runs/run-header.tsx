import Link from "next/link";
import type { LoopConfig, RunDetails } from "../api/run-types";
import { formatTimestamp, runDuration } from "./run-format";
import { describeRunOutcome } from "./run-outcome-text";
import { ProviderNote, RunStatusBadge } from "./run-status-badge";

function configItems(config: LoopConfig): { label: string; value: string }[] {
  return [
    { label: "max hops", value: String(config.maxHops) },
    { label: "increment hop", value: String(config.incrementHop) },
    { label: "base top-k", value: String(config.baseTopK) },
    { label: "triple cap by step", value: config.maxTripleNumByStep.join(" / ") },
    { label: "history horizon", value: String(config.historyHorizon) },
    { label: "max actions", value: String(config.maxActions) },
    { label: "refine after a final Yes", value: config.refineAfterFinalYes ? "yes" : "no" },
    { label: "format retries", value: String(config.formatRetries) },
  ];
}

export function RunHeader({ run }: { run: RunDetails }) {
  const graphHref = `/graphs/${encodeURIComponent(run.graph)}`;
  const duration = runDuration(run);
  return (
    <header className="run-header">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Graphs</Link>
        <span aria-hidden="true">/</span>
        <Link href={graphHref}>{run.graph}</Link>
        <span aria-hidden="true">/</span>
        <Link href={`${graphHref}/runs`}>Runs</Link>
        <span aria-hidden="true">/</span>
        <span className="mono">{run.id}</span>
      </nav>
      <div className="run-header__title">
        <h1 data-testid="run-question">{run.question}</h1>
        <RunStatusBadge run={run} />
      </div>
      <p className="run-header__outcome" data-testid="run-outcome-sentence">
        {describeRunOutcome(run).sentence}
      </p>
      <dl className="facts">
        <div>
          <dt>Provider</dt>
          <dd data-testid="run-provider">
            <ProviderNote provider={run.provider} model={run.model} isLlm={run.isLlm} />
            {run.isLlm ? null : <span className="muted small"> rule-based stand-in: its judgements are not a model’s</span>}
          </dd>
        </div>
        <div>
          <dt>Graph</dt>
          <dd>
            <Link href={graphHref}>{run.graph}</Link> <span className="badge badge--quiet">v{run.graphVersion}</span>
          </dd>
        </div>
        <div>
          <dt>Query id</dt>
          <dd className="mono">{run.queryId}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <time dateTime={run.createdAt}>{formatTimestamp(run.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{duration ?? "running…"}</dd>
        </div>
        <div>
          <dt>Model calls</dt>
          <dd>{run.calls.length}</dd>
        </div>
      </dl>
      <div className="config">
        <span className="config__title">Loop constants</span>
        <dl className="config__list" data-testid="run-config">
          {configItems(run.config).map((item) => (
            <div key={item.label}>
              <dt>{item.label}</dt>
              <dd className="mono">{item.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </header>
  );
}
