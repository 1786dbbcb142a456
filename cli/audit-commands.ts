/**
 * `refinery audit`: the audit log in the terminal, newest first, as a table (default) or as
 * JSONL (`--jsonl`, streamed batch by batch, for jq or an archive). The command line holds the
 * database file, so it sees everything the file holds, IP addresses included.
 */
import type { Command } from "commander";
import { auditFilterQuery } from "../lib/audit/audit-query";
import type { AuditFilter } from "../lib/audit/audit-query";
import { formatAuditActor } from "../lib/audit/format-audit-event";
import type { AuditEventView } from "../lib/audit/types";
import { clockTimeIn, dayKeyIn } from "../lib/audit/zoned-time";
import { iterateAuditEvents } from "../lib/server/audit/export-audit-events";
import { AUDIT_PAGE_MAX, findAuditEvents } from "../lib/server/audit/find-audit-events";
import type { Io } from "./output";
import { UsageError, printJson } from "./output";

interface AuditOptions {
  graph?: string;
  actor?: string;
  action?: string;
  since?: string;
  until?: string;
  limit?: string;
  jsonl?: boolean;
  json?: boolean;
}

const DEFAULT_TABLE_ROWS = 50;
const SUMMARY_WIDTH = 100;

/** ISO date or date-time, with or without an offset (then the machine's zone). */
function parseInstant(value: string, flag: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00` : value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`${flag} must be an ISO date or date-time (e.g. 2026-11-30 or 2026-11-30T09:00Z), got ${JSON.stringify(value)}`);
  return date;
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

function filterOf(opts: AuditOptions): AuditFilter {
  const parsed = auditFilterQuery.safeParse({ graph: opts.graph, actor: opts.actor, action: opts.action });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--${String(issue?.path[0] ?? "filter")}: ${issue?.message ?? "invalid"} (an action such as action.approve, or a prefix such as action.)`);
  }
  return {
    ...parsed.data,
    from: opts.since === undefined ? undefined : parseInstant(opts.since, "--since"),
    to: opts.until === undefined ? undefined : parseInstant(opts.until, "--until"),
  };
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function tableRows(events: AuditEventView[], timeZone: string): string[][] {
  return events.map((e) => {
    const at = new Date(e.at);
    return [`${dayKeyIn(at, timeZone)} ${clockTimeIn(at, timeZone)}`, formatAuditActor(e), e.action, e.graphName ?? "", clip(e.summary, SUMMARY_WIDTH)];
  });
}

function printTable(io: Io, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  io.out([line(header), ...rows.map(line)].join("\n"));
}

export function registerAuditCommands(program: Command, io: Io): void {
  program
    .command("audit")
    .description("the audit log, newest first: who ran, approved, rejected, applied, reverted, changed policies or signed in, and when")
    .option("--graph <name>", "only events about this graph")
    .option("--actor <name>", "only this person (username: their sessions and tokens), or `cli` / `system`")
    .option("--action <action>", "an action (action.approve) or a prefix ending in a dot (action.)")
    .option("--since <iso>", "events at or after this date or date-time (no offset: this machine's zone)")
    .option("--until <iso>", "events before this date or date-time")
    .option("--limit <n>", `at most n events (default: ${DEFAULT_TABLE_ROWS} in the table, all with --jsonl)`)
    .option("--jsonl", "one JSON object per line (ISO timestamps, details parsed), streamed")
    .option("--json", "machine-readable page: {events, nextCursor}")
    .action(async (opts: AuditOptions) => {
      const filter = filterOf(opts);
      const limit = parseLimit(opts.limit);
      if (opts.jsonl) {
        for await (const batch of iterateAuditEvents({ filter, limit, includeIp: true })) io.out(batch.map((e) => JSON.stringify(e)).join("\n"));
        return;
      }
      const page = await findAuditEvents({ ...filter, limit: Math.min(limit ?? DEFAULT_TABLE_ROWS, AUDIT_PAGE_MAX), includeIp: true });
      if (opts.json) return printJson(io, page);
      if (page.events.length === 0) {
        io.out("no audit events match");
        return;
      }
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      printTable(io, ["WHEN", "WHO", "ACTION", "GRAPH", "WHAT"], tableRows(page.events, timeZone));
      if (page.nextCursor !== null) io.err(`(older events not shown: use --limit, --since or --jsonl; times in ${timeZone})`);
    });
}
