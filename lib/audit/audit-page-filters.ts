/**
 * The /audit page's filters as a person sets them (whole days in the team's zone, "to"
 * inclusive) and as the API takes them (instants, "to" exclusive). The page's URL holds the
 * first form, so a filtered view can be bookmarked and shared.
 */
import { AUDIT_ACTION_PATTERN } from "./audit-query";
import { addDays, startOfDayIn } from "./zoned-time";

export interface AuditPageFilters {
  actor: string;
  action: string;
  graph: string;
  /** Text in the sentence. */
  q: string;
  /** `YYYY-MM-DD`, first day shown. */
  from: string;
  /** `YYYY-MM-DD`, last day shown (inclusive). */
  to: string;
}

export const EMPTY_AUDIT_FILTERS: AuditPageFilters = { actor: "", action: "", graph: "", q: "", from: "", to: "" };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** From the page URL; anything malformed is dropped rather than failing the page. */
export function parseAuditPageFilters(params: URLSearchParams): AuditPageFilters {
  const get = (key: string, max = 200) => (params.get(key) ?? "").trim().slice(0, max);
  const action = get("action", 100);
  const from = get("from");
  const to = get("to");
  return {
    actor: get("actor"),
    action: AUDIT_ACTION_PATTERN.test(action) ? action : "",
    graph: get("graph"),
    q: get("q"),
    from: isDay(from) ? from : "",
    to: isDay(to) ? to : "",
  };
}

/** For the page URL: only the filters that are set. */
export function auditPageSearch(filters: AuditPageFilters): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(EMPTY_AUDIT_FILTERS) as (keyof AuditPageFilters)[]) if (filters[key] !== "") params.set(key, filters[key]);
  return params.toString();
}

/** For GET /api/audit and /api/audit/export: days become instants in the zone, `to` the start of the next day. */
export function auditApiSearch(filters: AuditPageFilters, timeZone: string): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.actor) params.set("actor", filters.actor);
  if (filters.action) params.set("action", filters.action);
  if (filters.graph) params.set("graph", filters.graph);
  if (filters.q.trim()) params.set("q", filters.q.trim());
  if (filters.from) params.set("from", startOfDayIn(filters.from, timeZone).toISOString());
  if (filters.to) params.set("to", startOfDayIn(addDays(filters.to, 1), timeZone).toISOString());
  return params;
}
