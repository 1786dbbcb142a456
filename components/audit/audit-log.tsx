"use client";

import { useCallback, useMemo, useState } from "react";
import type { AuditActionGroup } from "@/lib/audit/format-audit-event";
import { groupAuditEventsByDay } from "@/lib/audit/format-audit-event";
import type { AuditPageFilters } from "@/lib/audit/audit-page-filters";
import { auditApiSearch, auditPageSearch } from "@/lib/audit/audit-page-filters";
import type { AuditEventPage, AuditFacets } from "@/lib/audit/types";
import { useAuditEvents } from "../api/find-audit-events";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { AuditEventRow } from "./audit-event-row";
import { AuditFiltersBar } from "./audit-filters";

export interface AuditLogProps {
  initialFilters: AuditPageFilters;
  /** The first page for initialFilters, read by the server. */
  initialPage: AuditEventPage;
  facets: AuditFacets;
  actionGroups: AuditActionGroup[];
  /** The server's zone: days and times read the same on the server and in every browser. */
  timeZone: string;
}

export function AuditLog({ initialFilters, initialPage, facets, actionGroups, timeZone }: AuditLogProps) {
  const [filters, setFilters] = useState(initialFilters);
  const initialQuery = useMemo(() => auditApiSearch(initialFilters, timeZone).toString(), [initialFilters, timeZone]);
  const query = auditApiSearch(filters, timeZone).toString();
  const events = useAuditEvents(query, query === initialQuery ? initialPage : undefined);
  const all = useMemo(() => events.data?.pages.flatMap((p) => p.events) ?? [], [events.data]);
  const days = useMemo(() => groupAuditEventsByDay(all, timeZone), [all, timeZone]);
  const meanings = useMemo(() => new Map(actionGroups.flatMap((g) => g.actions.map((a) => [a.name, a.meaning] as const))), [actionGroups]);
  const exportHref = `/api/audit/export${query ? `?${query}` : ""}`;

  const changeFilters = useCallback((next: AuditPageFilters) => {
    setFilters(next);
    // The URL follows the filters so a view can be bookmarked or shared, without a server round trip.
    const search = auditPageSearch(next);
    window.history.replaceState(null, "", `/audit${search ? `?${search}` : ""}`);
  }, []);

  return (
    <div className="stack audit-log">
      <div className="audit-header">
        <div className="page-heading">
          <h1>Audit log</h1>
          <p className="muted">
            Every run, approval, rejection, apply, revert, policy change and sign-in: who, when and what. Times in {timeZone}.
          </p>
        </div>
        <a className="button" href={exportHref} download data-testid="audit-export">
          Export JSONL
        </a>
      </div>
      <AuditFiltersBar filters={filters} facets={facets} actionGroups={actionGroups} onChange={changeFilters} />
      {events.isPending ? (
        <LoadingState label="Reading the audit log…" />
      ) : events.isError ? (
        <ErrorState title="Could not read the audit log" message={events.error.message} />
      ) : all.length === 0 ? (
        <EmptyState title={Object.values(filters).some((v) => v !== "") ? "No events match these filters" : "Nothing recorded yet"}>
          <p className="muted">Runs, decisions, applies, reverts, policy changes and sign-ins appear here as they happen.</p>
        </EmptyState>
      ) : (
        <>
          {days.map((day) => (
            <section key={day.key} className="card audit-day" aria-labelledby={`audit-day-${day.key}`} data-testid="audit-day">
              <h2 id={`audit-day-${day.key}`} className="audit-day__title">
                {day.label}
              </h2>
              <ol className="audit-day__events">
                {day.events.map((event) => (
                  <AuditEventRow key={event.id} event={event} timeZone={timeZone} meaning={meanings.get(event.action)} />
                ))}
              </ol>
            </section>
          ))}
          <div className="audit-more">
            {events.hasNextPage ? (
              <button type="button" className="button" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage} data-testid="audit-load-more">
                {events.isFetchingNextPage ? "Loading…" : "Load older events"}
              </button>
            ) : (
              <span className="muted small">{all.length === 1 ? "1 event" : `${all.length} events`}: that is everything that matches.</span>
            )}
          </div>
        </>
      )}
    </div>
  );
}
