"use client";

import { useEffect, useState } from "react";
import type { AuditActionGroup } from "@/lib/audit/format-audit-event";
import type { AuditPageFilters } from "@/lib/audit/audit-page-filters";
import { EMPTY_AUDIT_FILTERS } from "@/lib/audit/audit-page-filters";
import type { AuditFacets } from "@/lib/audit/types";

interface AuditFiltersBarProps {
  filters: AuditPageFilters;
  facets: AuditFacets;
  actionGroups: AuditActionGroup[];
  onChange: (filters: AuditPageFilters) => void;
}

const KIND_SUFFIX = { user: "", token: " (token)", cli: " (CLI)", system: " (system)" } as const;

/** Who, what, graph, days and text. Choices apply at once; typed text after a short pause. */
export function AuditFiltersBar({ filters, facets, actionGroups, onChange }: AuditFiltersBarProps) {
  const set = <K extends keyof AuditPageFilters>(key: K, value: AuditPageFilters[K]) => onChange({ ...filters, [key]: value });
  const [text, setText] = useState(filters.q);
  useEffect(() => {
    if (text === filters.q) return;
    const timer = setTimeout(() => onChange({ ...filters, q: text }), 300);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);
  const isFiltered = Object.values(filters).some((v) => v !== "");
  // A value from a shared link may name someone the list does not offer: keep it choosable.
  const actors = facets.actors.some((a) => a.value === filters.actor) || !filters.actor ? facets.actors : [...facets.actors, { value: filters.actor, label: filters.actor, kind: "user" as const }];
  const graphs = facets.graphs.includes(filters.graph) || !filters.graph ? facets.graphs : [...facets.graphs, filters.graph];

  return (
    <form className="card audit-filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
      <label className="audit-field">
        <span>Who</span>
        <select value={filters.actor} onChange={(e) => set("actor", e.target.value)} data-testid="audit-filter-actor">
          <option value="">Anyone</option>
          {actors.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
              {KIND_SUFFIX[a.kind]}
            </option>
          ))}
        </select>
      </label>
      <label className="audit-field">
        <span>What</span>
        <select value={filters.action} onChange={(e) => set("action", e.target.value)} data-testid="audit-filter-action">
          <option value="">Everything</option>
          {actionGroups.map((group) => (
            <optgroup key={group.prefix} label={group.label}>
              {group.actions.length > 1 && <option value={group.prefix}>{`All: ${group.label.toLowerCase()}`}</option>}
              {group.actions.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.meaning}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label className="audit-field">
        <span>Graph</span>
        <select value={filters.graph} onChange={(e) => set("graph", e.target.value)} data-testid="audit-filter-graph">
          <option value="">All graphs</option>
          {graphs.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </label>
      <label className="audit-field">
        <span>From</span>
        <input type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => set("from", e.target.value)} data-testid="audit-filter-from" />
      </label>
      <label className="audit-field">
        <span>To</span>
        <input type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => set("to", e.target.value)} data-testid="audit-filter-to" />
      </label>
      <label className="audit-field audit-field--grow">
        <span>Text</span>
        <input type="search" value={text} placeholder="e.g. BaseClient, version 3, veto" onChange={(e) => setText(e.target.value)} data-testid="audit-filter-text" />
      </label>
      {isFiltered && (
        <button
          type="button"
          className="link-button audit-filters__clear"
          onClick={() => {
            setText("");
            onChange(EMPTY_AUDIT_FILTERS);
          }}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
