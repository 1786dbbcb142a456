import type { Metadata } from "next";
import { requirePageActor } from "@/app/_lib/page-actor";
import { AuditLog } from "@/components/audit/audit-log";
import { parseAuditPageFilters, auditApiSearch } from "@/lib/audit/audit-page-filters";
import { AUDIT_PAGE_SIZE, auditFilterQuery } from "@/lib/audit/audit-query";
import { groupAuditActions } from "@/lib/audit/format-audit-event";
import { can } from "@/lib/auth/permissions";
import { AUDIT_ACTIONS } from "@/lib/server/audit/audit";
import { findAuditEvents } from "@/lib/server/audit/find-audit-events";
import { findAuditFacets } from "@/lib/server/audit/find-audit-facets";
import "../styles/audit.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const metadata: Metadata = { title: "Audit log" };

interface AuditPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The audit log, grouped by day in the server's zone; the first page is read here, the rest by the browser. */
export default async function AuditPage({ searchParams }: AuditPageProps) {
  const actor = await requirePageActor();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) if (typeof value === "string") params.set(key, value);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const filters = parseAuditPageFilters(params);
  const filter = auditFilterQuery.parse(Object.fromEntries(auditApiSearch(filters, timeZone)));
  const [page, facets] = await Promise.all([findAuditEvents({ ...filter, limit: AUDIT_PAGE_SIZE, includeIp: can(actor, "admin") }), findAuditFacets()]);
  return <AuditLog initialFilters={filters} initialPage={page} facets={facets} actionGroups={groupAuditActions(AUDIT_ACTIONS)} timeZone={timeZone} />;
}
