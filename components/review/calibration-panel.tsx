"use client";

import type { Actor } from "@/lib/auth/permissions";
import type { DecisionStats, LabelDecisionStats } from "@/lib/review/count-decisions";
import { ACTION_KINDS, DECISION_LABELS } from "@/lib/review/count-decisions";
import type { LabelThresholds } from "@/lib/review/types";
import type { GraphCalibration } from "../api/calibration";
import { useCalibration, useUpdateCalibration } from "../api/calibration";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import { ACTION_TYPE_LABEL } from "../proposals/describe-action";
import { LoadingState } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
const fmt = (t: LabelThresholds) => `HIGH ≥ ${t.high.toFixed(2)}, MEDIUM ≥ ${t.medium.toFixed(2)}`;
const same = (a: LabelThresholds | null, b: LabelThresholds | null) => a !== null && b !== null && Math.abs(a.high - b.high) < 1e-9 && Math.abs(a.medium - b.medium) < 1e-9;

function StatsCell({ entry }: { entry: LabelDecisionStats | undefined }) {
  if (!entry || entry.decided === 0) return <td className="muted">–</td>;
  return (
    <td data-testid="calibration-cell" data-kind={entry.kind} data-label={entry.label}>
      <strong>{entry.approved}</strong> of {entry.decided} approved
      {entry.reverted > 0 ? <span className="calibration__reverted"> · {entry.reverted} reverted</span> : null}
    </td>
  );
}

/** Per action kind (rows) and label (columns): how people decided. */
export function DecisionStatsTable({ stats }: { stats: DecisionStats }) {
  if (stats.decided === 0) {
    return (
      <p className="muted small" data-testid="calibration-empty">
        No decision on {stats.graph} yet. Once reviewers approve, reject or revert actions, this shows how often each label was right.
      </p>
    );
  }
  return (
    <table className="table calibration__table" data-testid="calibration-table">
      <thead>
        <tr>
          <th scope="col">Action</th>
          {DECISION_LABELS.map((l) => (
            <th key={l} scope="col">
              <ConfidenceBadge confidence={l} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ACTION_KINDS.map((kind) => (
          <tr key={kind}>
            <th scope="row">{ACTION_TYPE_LABEL[kind]}</th>
            {DECISION_LABELS.map((label) => (
              <StatsCell key={label} entry={stats.stats.find((s) => s.kind === kind && s.label === label)} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Refit({ calibration, isAdmin }: { calibration: GraphCalibration; isAdmin: boolean }) {
  const update = useUpdateCalibration(calibration.graph);
  const once = useSingleFlight();
  const { refit, thresholds } = calibration;
  const proposed = refit.thresholds;
  const isCurrent = same(proposed, thresholds ?? calibration.defaults);
  return (
    <div className="calibration__refit" data-testid="calibration-refit">
      <p className="small" data-testid="calibration-thresholds">
        <strong>Thresholds:</strong>{" "}
        {thresholds ? (
          <>
            {fmt(thresholds)}, re-fitted from {thresholds.decisions} decisions by {thresholds.appliedBy} on {thresholds.appliedAt.slice(0, 10)}.
          </>
        ) : (
          <>the review&apos;s defaults, {fmt(calibration.defaults)}.</>
        )}
      </p>
      {proposed ? (
        <p className="small" data-testid="calibration-proposal">
          <strong>Re-fit:</strong> {isCurrent ? `the ${refit.decisions} decisions support the thresholds in use` : <>from {refit.decisions} decisions ({refit.accepted} accepted, {refit.refused} rejected or reverted): {fmt(proposed)}</>}. Agreement with the decisions:{" "}
          {pct(refit.agreementBefore)} as labelled → {pct(refit.agreementAfter)}. {refit.reason}.
        </p>
      ) : (
        <p className="small muted" data-testid="calibration-proposal">
          <strong>Re-fit:</strong> not yet — {refit.reason}.
        </p>
      )}
      <p className="small muted">
        {refit.floorDecisions > 0 ? `${refit.floorDecisions} decided action${refit.floorDecisions === 1 ? " had" : "s had"} no positive evidence and ${refit.floorDecisions === 1 ? "is" : "are"} left out. ` : ""}
        {refit.unscoredDecisions > 0 ? `${refit.unscoredDecisions} ${refit.unscoredDecisions === 1 ? "was" : "were"} reviewed before scores existed and ${refit.unscoredDecisions === 1 ? "is" : "are"} left out. ` : ""}
        Whatever the thresholds, an action without positive evidence stays LOW. New thresholds label reviews made from now on; labels already given stay.
      </p>
      {isAdmin ? (
        <div className="row calibration__buttons">
          <button
            type="button"
            className={proposed && !isCurrent ? "button button--small button--primary" : "button button--small"}
            disabled={!proposed || isCurrent || update.isPending}
            title={!proposed ? refit.reason : isCurrent ? "these thresholds are already in use" : `set ${fmt(proposed)} for reviews of ${calibration.graph} from now on`}
            onClick={() => proposed && once(() => update.mutateAsync({ action: "refit", expected: proposed }))}
            data-testid="calibration-apply"
          >
            Apply re-fit
          </button>
          {thresholds ? (
            <button type="button" className="button button--small" disabled={update.isPending} onClick={() => once(() => update.mutateAsync({ action: "reset" }))} data-testid="calibration-reset">
              Reset to defaults
            </button>
          ) : null}
          {update.error ? (
            <span className="inline-error small" role="alert">
              {update.error.message}
            </span>
          ) : null}
        </div>
      ) : (
        <p className="small muted">Only admins can apply a re-fit.</p>
      )}
    </div>
  );
}

/**
 * A graph's decisions and thresholds. `initial`: the server-rendered copy; without it the panel
 * loads when shown.
 */
export function CalibrationPanel({ graph, viewer, initial }: { graph: string; viewer: Actor | null; initial?: GraphCalibration }) {
  const query = useCalibration(graph, { initial });
  if (!query.data) {
    return query.error ? <p className="inline-error small">Could not load the decisions of {graph}: {query.error.message}</p> : <LoadingState label={`Loading the decisions of ${graph}…`} compact />;
  }
  return (
    <section className="calibration" aria-label={`Decisions and thresholds of ${graph}`} data-testid="calibration-panel" data-graph={graph}>
      <DecisionStatsTable stats={query.data.stats} />
      <Refit calibration={query.data} isAdmin={viewer?.kind === "user" && viewer.role === "admin"} />
    </section>
  );
}
