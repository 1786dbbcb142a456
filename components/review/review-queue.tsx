"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useRejectActions } from "../api/reject-actions";
import { ApplyResultPanel } from "../proposals/apply-result-panel";
import { ApprovalRecorded } from "../proposals/approval-recorded";
import type { Decider } from "../proposals/decision-rules";
import { decisionFor } from "../proposals/decision-rules";
import { LowConfirmDialog } from "../proposals/low-confirm-dialog";
import { useApproval } from "../proposals/use-approval";
import { EmptyState } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";
import { KeyboardHelp } from "./keyboard-help";
import { QueueFiltersBar, questionOptions } from "./queue-filters";
import { QueueHeader } from "./queue-header";
import type { QueueFilters, QueueRow } from "./queue-rows";
import { DEFAULT_FILTERS, applyQueueFilters, countQueueOrigins, decisionSubjectOf, queueFiltersToParams, toApprovalTarget } from "./queue-rows";
import { QueueTable, proposalHref } from "./queue-table";
import type { QueueKey } from "./use-queue-keys";
import { useQueueKeys } from "./use-queue-keys";
import { useQueueRows } from "./use-queue-rows";
import { QueueCalibration } from "./queue-calibration";
import { QueueMode } from "./queue-mode";
import { countDecisions, describeLabelStats } from "@/lib/review/count-decisions";

/** Rows drawn at first: the rest of a long queue waits for "Show more" (or j walking past the end), so it hydrates fast. */
const PAGE_SIZE = 100;

/** The server's counts of every pending action (GET /api/proposals' summary), for the header while the queue is still being read. */
export interface QueueTotals {
  pendingActions: number;
  pendingByLabel: Record<"HIGH" | "MEDIUM" | "LOW", number>;
}

/** `viewer`: the signed-in person, from the page's own session check (labels and hides controls; the server decides). */
export function ReviewQueue({
  initialRows,
  initialComplete = true,
  initialTotals,
  initialFilters,
  viewer,
}: {
  initialRows: QueueRow[];
  /** False when `initialRows` are the newest page only: the rest is read in the background. */
  initialComplete?: boolean;
  /** With an incomplete first page: what the whole queue holds, so the header does not understate it meanwhile. */
  initialTotals?: QueueTotals;
  initialFilters: QueueFilters;
  viewer: Decider;
}) {
  const router = useRouter();
  const rootRef = useRef<HTMLDivElement>(null);
  const query = useQueueRows(initialRows, viewer, initialComplete);
  const loadingRest = !initialComplete && query.data === initialRows && !query.isError;
  const rows = query.data;
  const [filters, setFiltersState] = useState(initialFilters);
  // The fields follow each key press at once; the rows (5,000 to filter and sort) follow when
  // React has time, in a render a next key press interrupts.
  const listFilters = useDeferredValue(filters);
  const { visible, counts } = useMemo(() => applyQueueFilters(rows, listFilters), [rows, listFilters]);
  const graphs = useMemo(() => [...new Set(rows.map((r) => r.graph))].sort(), [rows]);
  const questions = useMemo(() => questionOptions(rows), [rows]);
  const origins = useMemo(() => countQueueOrigins(rows, listFilters), [rows, listFilters]);
  const pendingTotal = useMemo(() => rows.reduce((n, r) => n + (r.status === "pending" ? 1 : 0), 0), [rows]);
  const modeRows = useMemo(() => rows.filter((r) => r.status === "pending" && (!listFilters.graph || r.graph === listFilters.graph)), [rows, listFilters.graph]);
  // Counted from the rows the queue holds (every status), so the figures move with each decision.
  const decisionStats = useMemo(
    () => new Map(countDecisions({ graphs, rows: rows.map((r) => ({ graph: r.graph, kind: r.action.type, label: r.confidence, status: r.status })) }).map((s) => [s.graph, s])),
    [rows, graphs],
  );
  const statsOf = useCallback((row: QueueRow) => decisionStats.get(row.graph)?.stats.find((s) => s.kind === row.action.type && s.label === row.confidence), [decisionStats]);
  // The selection follows its row; when the row leaves (approved, filtered out) the one now at its place takes over.
  const [selection, setSelection] = useState<{ key: string | null; index: number }>({ key: null, index: 0 });
  const found = visible.findIndex((r) => r.key === selection.key);
  const position = found >= 0 ? found : Math.min(selection.index, visible.length - 1);
  const selected = visible[position] ?? null;
  const approval = useApproval();
  const reject = useRejectActions();
  const actor = viewer;
  const onceReject = useSingleFlight();
  const [rejected, setRejected] = useState<QueueRow | null>(null);
  const [showHelp, setShowHelp] = useState(false);
  /** Why a key did nothing (a refused approve): said instead of ignoring the key silently. */
  const [keyNotice, setKeyNotice] = useState<string | null>(null);
  const [limit, setLimit] = useState(PAGE_SIZE);
  const shownCount = Math.min(visible.length, Math.max(limit, position + 1));
  const shown = useMemo(() => visible.slice(0, shownCount), [visible, shownCount]);
  // Viewers and signed-out readers get no buttons at all: say so once instead of leaving the Decision column blank.
  // (A reviewer under an admins-only policy sees the refusal on each row instead.)
  const readOnly = useMemo(
    () =>
      visible.every((r) => {
        const d = decisionFor(actor, decisionSubjectOf(r), r.policy);
        return !d.canDecide && d.refusal === null;
      }),
    [visible, actor],
  );

  useEffect(() => {
    // For the e2e timing: set once React has attached its handlers.
    if (rootRef.current) rootRef.current.dataset.hydrated = String(Math.round(performance.now()));
  }, []);

  const setFilters = (next: QueueFilters) => {
    setFiltersState(next);
    const params = queueFiltersToParams(next).toString();
    window.history.replaceState(null, "", params ? `?${params}` : window.location.pathname);
  };

  const select = useCallback((key: string) => setSelection((s) => ({ key, index: s.index })), []);
  const onHelp = useCallback(() => setShowHelp(true), []);
  const { approve: approveTarget } = approval;
  const approve = useCallback(
    (row: QueueRow) => {
      const stats = statsOf(row);
      approveTarget(toApprovalTarget(row, stats ? describeLabelStats(stats, `on ${row.graph}`) : null));
    },
    [approveTarget, statsOf],
  );
  const { mutateAsync: rejectAsync } = reject;
  const rejectRow = useCallback(
    (row: QueueRow) =>
      onceReject(async () => {
        await rejectAsync({ proposalId: row.proposalId, actions: [row.index] });
        setRejected(row);
      }),
    [onceReject, rejectAsync],
  );

  const move = (delta: number) => {
    const next = visible[Math.max(0, Math.min(visible.length - 1, position + delta))];
    if (!next) return;
    setSelection({ key: next.key, index: visible.indexOf(next) });
    requestAnimationFrame(() => document.querySelector(`[data-key="${CSS.escape(next.key)}"]`)?.scrollIntoView({ block: "nearest" }));
  };

  useQueueKeys((key: QueueKey) => {
    if (key === "help") return setShowHelp(true);
    if (key === "next" || key === "previous") return move(key === "next" ? 1 : -1);
    setKeyNotice(null);
    if (!selected) return;
    if (key === "open" || key === "edit") return router.push(proposalHref(selected, key === "edit"));
    const verb = key === "approve" ? "approve" : "reject";
    if (selected.status !== "pending") return setKeyNotice(`Cannot ${verb} action ${selected.index + 1}: it is already ${selected.status}.`);
    // The keys do what the buttons offer, and say why when that is nothing.
    const decision = decisionFor(actor, decisionSubjectOf(selected), selected.policy);
    if (!decision.canDecide) return setKeyNotice(`Cannot ${verb}: ${decision.refusal ?? "approving and rejecting need a reviewer or admin"}.`);
    if (key === "approve") {
      if (decision.refusal === null) approve(selected);
      else setKeyNotice(`Cannot approve action ${selected.index + 1}: ${decision.refusal}.`);
    } else rejectRow(selected);
  });

  return (
    <div className="stack review-queue" ref={rootRef} data-testid="review-queue" data-selected={selected?.key ?? ""} data-visible={visible.length}>
      <QueueHeader rows={rows} totals={loadingRest ? initialTotals : undefined} onHelp={onHelp} />
      <QueueMode rows={modeRows} />
      {keyNotice ? (
        <p className="notice notice--warning" role="status" data-testid="key-notice">
          {keyNotice}{" "}
          <button type="button" className="link-button small" onClick={() => setKeyNotice(null)}>
            Dismiss
          </button>
        </p>
      ) : null}
      {approval.outcome ? <ApplyResultPanel key={approval.outcome.result.version} outcome={approval.outcome} onDismiss={approval.clearOutcome} /> : null}
      {approval.recorded ? <ApprovalRecorded recorded={approval.recorded} onDismiss={approval.clearOutcome} /> : null}
      {rejected && !reject.isPending ? (
        <div className="notice" role="status" data-testid="reject-notice">
          Vetoed action {rejected.index + 1}: <span className="mono">{rejected.text}</span>. Nobody can approve or apply it until you withdraw
          the veto on its proposal page.
        </div>
      ) : null}
      {approval.error && !approval.lowPrompt ? (
        <div className="alert alert--error" role="alert">
          <strong>Nothing was applied</strong>
          <p className="alert__message">{approval.error.message}</p>
        </div>
      ) : null}
      {reject.error ? (
        <p className="inline-error" role="alert">
          Could not reject: {reject.error.message}
        </p>
      ) : null}
      {loadingRest ? (
        <p className="muted small" role="status" data-testid="queue-loading-rest">
          {initialTotals && initialTotals.pendingActions > pendingTotal
            ? `Listing the newest ${pendingTotal.toLocaleString("en")} of ${initialTotals.pendingActions.toLocaleString("en")} pending actions; reading the older ones…`
            : "Showing the newest proposals; reading older ones…"}
        </p>
      ) : null}
      {query.isRefetchError ? (
        <p className="inline-error" role="alert">
          Could not refresh the queue: {query.error.message}{" "}
          <button type="button" className="link-button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="card">
          <EmptyState title="Nothing to review yet">
            <p className="muted">
              Proposals arrive here when a run finds the graph cannot answer a question and suggests changes, or when a refinement file is
              reviewed with <code>npx refinery review</code>. Start from a graph’s Questions tab.
            </p>
            <Link href="/" className="button button--primary">
              Pick a graph
            </Link>
          </EmptyState>
        </div>
      ) : (
        <>
          <QueueFiltersBar filters={filters} counts={counts} graphs={graphs} questions={questions} origins={origins} onChange={setFilters} />
          {visible.length === 0 ? (
            <div className="card" data-testid="queue-empty">
              {pendingTotal === 0 && listFilters.status === "pending" ? (
                <EmptyState title="All caught up">
                  <p className="muted">Every proposed change has been decided. Decided actions stay in the history.</p>
                  <button type="button" className="button" onClick={() => setFilters({ ...filters, status: "all" })}>
                    Show decided actions
                  </button>
                </EmptyState>
              ) : (
                <EmptyState title="No action matches these filters">
                  <button type="button" className="button" onClick={() => setFilters(DEFAULT_FILTERS)}>
                    Reset filters
                  </button>
                </EmptyState>
              )}
            </div>
          ) : (
            <>
              {readOnly ? (
                <p className="notice" role="status" data-testid="queue-read-only">
                  {actor ? "You can read the queue; approving and rejecting need a reviewer or admin." : "Sign in as a reviewer or admin to approve or reject."}
                </p>
              ) : null}
              <QueueTable rows={shown} statsOf={statsOf} actor={actor} selectedKey={selected?.key ?? null} onSelect={select} onApprove={approve} onReject={rejectRow} />
              {shown.length < visible.length ? (
                <div className="row queue-more" data-testid="queue-more">
                  <span className="muted small">
                    Showing {shown.length} of {visible.length}.
                  </span>
                  <button type="button" className="button button--small" onClick={() => setLimit(shown.length + PAGE_SIZE)}>
                    Show {Math.min(PAGE_SIZE, visible.length - shown.length)} more
                  </button>
                  <button type="button" className="link-button small" onClick={() => setLimit(visible.length)}>
                    Show all
                  </button>
                </div>
              ) : null}
            </>
          )}
        </>
      )}
      {approval.lowPrompt ? (
        <LowConfirmDialog
          graph={approval.lowPrompt.graph}
          items={approval.lowPrompt.items}
          isPending={approval.isPending}
          error={approval.error?.message ?? null}
          onCancel={approval.cancelLow}
          onConfirm={approval.confirmLow}
          confirmLabel={approval.lowPrompt.label}
        />
      ) : null}
      {rows.length > 0 ? <QueueCalibration graphs={filters.graph ? [filters.graph] : graphs} viewer={actor} /> : null}
      {showHelp ? <KeyboardHelp onClose={() => setShowHelp(false)} /> : null}
    </div>
  );
}
