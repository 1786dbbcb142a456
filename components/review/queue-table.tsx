"use client";

import Link from "next/link";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { RefObject } from "react";
import type { Actor } from "@/lib/auth/permissions";
import { decisionFor } from "../proposals/decision-rules";
import { ActionLabel } from "../proposals/action-label";
import { OriginChip } from "../proposals/origin-chip";
import { warningSentence } from "../proposals/warning-text";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import { ActionStatusBadge } from "../proposals/action-status-badge";
import { ScoreTag, formatContribution } from "../proposals/score-tag";
import type { LabelDecisionStats } from "@/lib/review/count-decisions";
import { describeLabelStats } from "@/lib/review/count-decisions";
import type { QueueRow } from "./queue-rows";
import { decisionSubjectOf } from "./queue-rows";

export function proposalHref(row: { proposalId: string; index: number }, edit = false): string {
  return `/proposals/${encodeURIComponent(row.proposalId)}${edit ? `?edit=${row.index}` : ""}#action-${row.index + 1}`;
}

function sourceName(source: QueueRow["sources"][number]): string {
  const when = source.createdAt.slice(0, 10);
  const what = source.runId ? "run" : "proposal";
  return source.question ? `${what} of ${when}: ${source.question.length > 60 ? `${source.question.slice(0, 57)}…` : source.question}` : `${what} of ${when}`;
}

/** The proposals a merged row's copies came from; the first is the copy the row decides on. */
function QueueSources({ row }: { row: QueueRow }) {
  const runs = row.sources.filter((s) => s.runId !== null).length;
  return (
    <span className="queue-row__sources small" data-testid="row-sources" data-count={row.sources.length}>
      Proposed {row.sources.length} times{runs > 1 ? ` (by ${runs} runs)` : ""}:{" "}
      {row.sources.map((source, i) => (
        <span key={`${source.proposalId}:${source.index}`}>
          {i > 0 ? "; " : null}
          <Link href={proposalHref(source)} prefetch={false} data-testid="row-source" title={i === 0 ? "the copy this row approves" : `${source.approvals} approval(s) on this copy`}>
            {sourceName(source)}
          </Link>
          {i === 0 ? <span className="muted"> (decided here)</span> : null}
        </span>
      ))}
    </span>
  );
}

interface RowProps {
  row: QueueRow;
  /** 1-based, counting the header row (aria-rowindex): where the row sits in the whole list, drawn or not. */
  rowIndex: number;
  /** How people decided on this graph's actions of the same kind and label. */
  stats: LabelDecisionStats | undefined;
  actor: Actor | null;
  isSelected: boolean;
  onSelect: (key: string) => void;
  onApprove: (row: QueueRow) => void;
  onReject: (row: QueueRow) => void;
}

const QueueRowView = memo(function QueueRowView({ row, rowIndex, stats, actor, isSelected, onSelect, onApprove, onReject }: RowProps) {
  const isPending = row.status === "pending";
  const decision = decisionFor(actor, decisionSubjectOf(row), row.policy);
  return (
    <tr
      className={isSelected ? "queue-row is-selected" : "queue-row"}
      aria-selected={isSelected}
      onClick={() => onSelect(row.key)}
      data-testid="queue-row"
      data-key={row.key}
      data-confidence={row.confidence}
      data-approvals={`${row.approvals}/${row.required}`}
      aria-rowindex={rowIndex}
    >
      <td className="queue-row__label">
        <span className="queue-row__score">
          <ConfidenceBadge confidence={row.confidence} />
          <ScoreTag score={row.score} />
        </span>
      </td>
      <td className="queue-row__main">
        <div className="queue-row__change">
          <Link href={proposalHref(row)} className="queue-row__link" title={row.text} prefetch={false}>
            <ActionLabel action={row.action} text={row.text} />
          </Link>
          <span className="queue-row__why">{row.verdict}</span>
          {row.signals.length > 0 ? (
            <span className="queue-row__signals small" data-testid="row-signals">
              {row.signals.map((s, i) => (
                <span key={i} className={`queue-signal queue-signal--${s.contribution >= 0 ? "pos" : "neg"}`} title={s.summary}>
                  <span className="mono">{formatContribution(s.contribution)}</span> {s.kind}
                  {/* The verdict usually quotes the strongest signal already: its text is not repeated. */}
                  {row.verdict.includes(s.summary) ? null : <span className="queue-signal__summary">: {s.summary}</span>}
                </span>
              ))}
            </span>
          ) : null}
          {stats ? (
            <span className="queue-row__stats small muted" data-testid="row-decision-stats" title="How reviewers decided on this graph's actions of the same kind and label">
              {describeLabelStats(stats, `on ${row.graph}`)}
            </span>
          ) : null}
          {row.warnings.length > 0 ? (
            <span className="queue-row__warnings">
              {row.warnings.map((w, i) => (
                <span key={i} className="warning-code" title={w.message} data-code={w.code}>
                  {warningSentence(w.code)}
                </span>
              ))}
            </span>
          ) : null}
        </div>
      </td>
      <td className="queue-row__context">
        <span className="queue-row__question">{row.question ?? <span className="muted">no question (imported)</span>}</span>
        <span className="table__sub">
          {row.graph} · action {row.index + 1}
        </span>
        <span className="queue-row__origin">
          <OriginChip of={row} />
        </span>
        {row.sources.length > 1 ? <QueueSources row={row} /> : null}
      </td>
      <td className="queue-row__decide">
        {isPending ? (
          <div className="queue-row__decision">
            <span className="queue-row__tally small" data-testid="row-approvals" title="approvals that count now, of those this label needs">
              {row.approvals} of {row.required} approval{row.required === 1 ? "" : "s"}
            </span>
            {row.changedSinceApproved ? (
              <span className="status-chip status-chip--changed" title={row.changedSinceApproved} data-testid="row-changed">
                changed since approved
              </span>
            ) : null}
            {decision.canDecide ? (
              <span className="row">
                <button
                  type="button"
                  className={row.confidence === "LOW" ? "button button--small button--danger-outline" : "button button--small button--approve"}
                  onClick={() => onApprove(row)}
                  disabled={decision.refusal !== null}
                  title={decision.refusal ?? (row.confidence === "LOW" ? "LOW: asks for a written reason first" : decision.approveLabel)}
                  data-testid="row-approve"
                >
                  {decision.approveLabel}
                </button>
                <button type="button" className="button button--small" onClick={() => onReject(row)} data-testid="row-reject" title="Veto: blocks it until you withdraw">
                  Reject
                </button>
              </span>
            ) : null}
            {decision.refusal ? (
              <span className="queue-row__refusal small muted" data-testid="row-refusal">
                {decision.refusal}
              </span>
            ) : null}
          </div>
        ) : (
          <span className="queue-row__decision">
            <ActionStatusBadge status={row.status} version={row.status === "obsolete" ? row.obsoleteIn : row.appliedIn} graph={row.graph} reason={row.obsoleteReason} />
            {row.obsoleteReason ? (
              <span className="small muted" data-testid="row-obsolete">
                {row.obsoleteReason}
              </span>
            ) : null}
            {row.vetoedBy.length > 0 ? (
              <span className="small muted" data-testid="row-vetoed">
                vetoed by {row.vetoedBy.join(", ")}
              </span>
            ) : null}
          </span>
        )}
      </td>
    </tr>
  );
});

interface QueueTableProps {
  rows: QueueRow[];
  statsOf: (row: QueueRow) => LabelDecisionStats | undefined;
  actor: Actor | null;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onApprove: (row: QueueRow) => void;
  onReject: (row: QueueRow) => void;
}

/**
 * Longer lists than this are windowed: only the rows near the viewport are in the DOM, spacer
 * rows stand for the others. Drawing 5,000 rows at once took one 14 s task in Chromium and
 * scrolled at 2–3 frames a second; the default page of 100 is drawn whole, as before.
 */
export const WINDOW_FROM = 150;
/** Drawn beyond each edge of the viewport, so a quick scroll or j / k never reaches an empty band. */
const OVERSCAN_PX = 1_200;
/** A row's height before it has been drawn once (then its measured height is kept by key). */
const ROW_ESTIMATE_PX = 110;

interface RowWindow {
  start: number;
  end: number;
  /** Heights of the spacers standing for the rows before `start` and from `end` on. */
  above: number;
  below: number;
}

/** Row heights by key, and a stand-in (their average) for rows not drawn yet. */
function heightsOf(known: Map<string, number>, keys: readonly string[]): (i: number) => number {
  let sum = 0;
  for (const h of known.values()) sum += h;
  const average = known.size === 0 ? ROW_ESTIMATE_PX : sum / known.size;
  return (i: number) => known.get(keys[i] as string) ?? average;
}

/**
 * The rows of `keys` to draw for the window's scroll position: measured heights by key (rows
 * vary: signals, warnings, sources), their average for rows not drawn yet. Recomputed on scroll,
 * on resize and when the drawn rows change size (a ResizeObserver on the body), one frame at a
 * time. Returns the range, the spacer heights above and below it, and `offsetOf` (a row's top
 * within the body, for effects).
 */
function useRowWindow(keys: readonly string[], enabled: boolean, body: RefObject<HTMLTableSectionElement | null>) {
  const heights = useRef(new Map<string, number>());
  const [range, setRange] = useState<RowWindow>(() => {
    const end = Math.min(keys.length, 40);
    return { start: 0, end, above: 0, below: (keys.length - end) * ROW_ESTIMATE_PX };
  });

  useEffect(() => {
    const element = body.current;
    if (!enabled || !element) return;
    const known = heights.current;
    const update = () => {
      for (const tr of element.querySelectorAll<HTMLTableRowElement>("tr[data-key]")) known.set(tr.dataset.key as string, tr.getBoundingClientRect().height);
      const top = element.getBoundingClientRect().top;
      const from = -top - OVERSCAN_PX;
      const to = -top + window.innerHeight + OVERSCAN_PX;
      const h = heightsOf(known, keys);
      let y = 0;
      let start = 0;
      while (start < keys.length - 1 && y + h(start) < from) y += h(start++);
      const above = y;
      let end = start;
      while (end < keys.length && y < to) y += h(end++);
      let below = 0;
      for (let i = end; i < keys.length; i++) below += h(i);
      setRange((r) => (r.start === start && r.end === end && Math.abs(r.above - above) < 0.5 && Math.abs(r.below - below) < 0.5 ? r : { start, end, above, below }));
    };
    let frame = 0;
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), update()));
    };
    const resized = new ResizeObserver(schedule);
    resized.observe(element);
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    schedule();
    return () => {
      resized.disconnect();
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      cancelAnimationFrame(frame);
    };
  }, [body, enabled, keys]);

  const offsetOf = useCallback(
    (index: number) => {
      const h = heightsOf(heights.current, keys);
      let y = 0;
      for (let i = 0; i < index; i++) y += h(i);
      return y;
    },
    [keys],
  );

  if (!enabled) return { start: 0, end: keys.length, above: 0, below: 0, offsetOf };
  const start = Math.min(range.start, Math.max(0, keys.length - 1));
  const end = Math.min(Math.max(range.end, start), keys.length);
  return { start, end, above: range.above, below: range.below, offsetOf };
}

function Spacer({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" className="queue-spacer">
      <td colSpan={4} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

export function QueueTable({ rows, statsOf, actor, selectedKey, onSelect, onApprove, onReject }: QueueTableProps) {
  const body = useRef<HTMLTableSectionElement>(null);
  const windowed = rows.length > WINDOW_FROM;
  const current = useMemo(() => rows.map((r) => r.key), [rows]);
  const { start, end, above, below, offsetOf } = useRowWindow(current, windowed, body);

  // The selected row off screen and not drawn (j / k moved past the window): bring it into view.
  const selectedIndex = selectedKey === null ? -1 : current.indexOf(selectedKey);
  useEffect(() => {
    const element = body.current;
    if (!windowed || !element || selectedIndex < 0 || (selectedIndex >= start && selectedIndex < end)) return;
    const top = element.getBoundingClientRect().top + window.scrollY + offsetOf(selectedIndex);
    window.scrollTo({ top: top - window.innerHeight / 3 });
    // Only when the selection moves: scrolling by hand past the selected row must not pull it back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedKey, windowed]);

  return (
    <div className="card table-card">
      <table className="table queue-table" data-testid="queue-table" aria-label="Actions to review" aria-rowcount={rows.length + 1} data-rows={rows.length}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Label · score</th>
            <th scope="col">Proposed change and why</th>
            <th scope="col">Question · graph</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody ref={body}>
          <Spacer height={above} />
          {rows.slice(start, end).map((row, i) => (
            <QueueRowView
              key={row.key}
              row={row}
              rowIndex={start + i + 2}
              stats={statsOf(row)}
              actor={actor}
              isSelected={row.key === selectedKey}
              onSelect={onSelect}
              onApprove={onApprove}
              onReject={onReject}
            />
          ))}
          <Spacer height={below} />
        </tbody>
      </table>
    </div>
  );
}
