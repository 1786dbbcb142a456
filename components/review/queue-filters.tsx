"use client";

import type { Confidence, ProposalOrigin } from "../api/proposal-types";
import { CONFIDENCES } from "../api/proposal-types";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import { ORIGIN_LABELS } from "../proposals/origin-chip";
import type { QueueFilters, QueueSort, StatusFilter } from "./queue-rows";
import { DEFAULT_FILTERS, NO_QUESTION } from "./queue-rows";

interface QueueFiltersBarProps {
  filters: QueueFilters;
  counts: Record<Confidence, number>;
  graphs: string[];
  questions: { value: string; label: string }[];
  /** Rows per origin over every other filter (so the options say what choosing one would show). */
  origins: Record<ProposalOrigin, number>;
  onChange: (filters: QueueFilters) => void;
}

const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: "pending", label: "Pending" },
  { value: "applied", label: "Applied" },
  { value: "rejected", label: "Rejected" },
  { value: "skipped", label: "Skipped (nothing to change)" },
  { value: "reverted", label: "Undone" },
  { value: "obsolete", label: "Obsolete (made moot by a version)" },
  { value: "all", label: "Any status" },
];

const SORT_OPTIONS: { value: QueueSort; label: string }[] = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
  { value: "low-first", label: "LOW first" },
  { value: "high-first", label: "HIGH first" },
  { value: "graph", label: "By graph" },
];

const ORIGIN_OPTIONS: ProposalOrigin[] = ["person", "agent", "cli", "campaign"];

export function QueueFiltersBar({ filters, counts, graphs, questions, origins, onChange }: QueueFiltersBarProps) {
  const set = <K extends keyof QueueFilters>(key: K, value: QueueFilters[K]) => onChange({ ...filters, [key]: value });
  const toggleLabel = (label: Confidence) =>
    set("labels", filters.labels.includes(label) ? filters.labels.filter((l) => l !== label) : [...filters.labels, label]);
  const isDefault = JSON.stringify(filters) === JSON.stringify(DEFAULT_FILTERS);
  return (
    <div className="card queue-filters" role="search" aria-label="Filter the queue">
      <div className="queue-filters__labels" role="group" aria-label="Label">
        {CONFIDENCES.map((label) => (
          <button
            key={label}
            type="button"
            className="label-toggle"
            aria-pressed={filters.labels.includes(label)}
            onClick={() => toggleLabel(label)}
            data-testid={`label-count-${label}`}
            data-count={counts[label]}
            title={`Show only ${label} actions (click again to show all)`}
          >
            <ConfidenceBadge confidence={label} count={counts[label]} />
          </button>
        ))}
      </div>
      <div className="queue-filters__fields">
        <label className="field field--inline">
          <span>Status</span>
          <select value={filters.status} onChange={(e) => set("status", e.target.value as StatusFilter)} data-testid="filter-status">
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline">
          <span>Graph</span>
          <select value={filters.graph} onChange={(e) => set("graph", e.target.value)} data-testid="filter-graph">
            <option value="">All graphs</option>
            {graphs.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline queue-filters__question">
          <span>Question</span>
          <select value={filters.question} onChange={(e) => set("question", e.target.value)} data-testid="filter-question">
            <option value="">All questions</option>
            {questions.map((q) => (
              <option key={q.value} value={q.value}>
                {q.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline">
          <span>Action</span>
          <select value={filters.type} onChange={(e) => set("type", e.target.value as QueueFilters["type"])} data-testid="filter-type">
            <option value="">Any action</option>
            <option value="insert_edge">Add link</option>
            <option value="delete_edge">Remove link</option>
            <option value="replace_node">Rename / merge</option>
          </select>
        </label>
        <label className="field field--inline">
          <span>From</span>
          <select value={filters.origin} onChange={(e) => set("origin", e.target.value as QueueFilters["origin"])} data-testid="filter-origin" title="Where the proposal came from">
            <option value="">Anyone</option>
            {ORIGIN_OPTIONS.map((o) => (
              <option key={o} value={o}>
                {o === "person" ? "People" : o === "agent" ? "Agents (API tokens)" : ORIGIN_LABELS[o]} ({origins[o]})
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline">
          <span>Sort</span>
          <select value={filters.sort} onChange={(e) => set("sort", e.target.value as QueueSort)} data-testid="sort">
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline queue-filters__search">
          <span>Names</span>
          <input type="search" value={filters.q} placeholder="Client, calls…" onChange={(e) => set("q", e.target.value)} data-testid="filter-text" />
        </label>
        {isDefault ? null : (
          <button type="button" className="link-button small" onClick={() => onChange(DEFAULT_FILTERS)}>
            Reset filters
          </button>
        )}
      </div>
    </div>
  );
}

export function questionOptions(rows: { question: string | null }[]): { value: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const r of rows) {
    const value = r.question ?? NO_QUESTION;
    if (!seen.has(value)) seen.set(value, r.question ?? "(no question: file or API import)");
  }
  return [...seen].map(([value, label]) => ({ value, label: label.length > 90 ? `${label.slice(0, 87)}…` : label }));
}
