/**
 * The audit log as JSONL (one JSON object per line, ISO timestamps, details parsed), streamed:
 * the next batch is read only when the client has taken the previous one, so exporting a year
 * of events holds one batch in memory, not the year.
 */
import type { AuditFilter } from "../../audit/audit-query";
import type { AuditEventView } from "../../audit/types";
import { auditWhere, findAuditRows, toAuditEventView } from "./find-audit-events";
import type { Prisma } from "../db/generated/prisma/client";

export interface ExportAuditEventsOptions {
  filter?: AuditFilter;
  includeIp?: boolean;
  /** Rows per database read (default 500). */
  batchSize?: number;
  /** At most this many events (default: all that match). */
  limit?: number;
}

/** Every matching event, newest first, one batch at a time. */
export async function* iterateAuditEvents(options: ExportAuditEventsOptions = {}): AsyncGenerator<AuditEventView[]> {
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const base = await auditWhere(options.filter ?? {});
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  let after: { at: Date; id: number } | null = null;
  while (remaining > 0) {
    const keyset: Prisma.AuditEventWhereInput[] = after ? [{ OR: [{ at: { lt: after.at } }, { at: after.at, id: { lt: after.id } }] }] : [];
    const rows = await findAuditRows({ AND: [base, ...keyset] }, Math.min(batchSize, remaining));
    const last = rows.at(-1);
    if (!last) return;
    remaining -= rows.length;
    after = { at: last.at, id: last.id };
    yield rows.map((row) => toAuditEventView(row, options.includeIp === true));
    if (rows.length < batchSize) return;
  }
}

/** The events as a byte stream of JSONL, pulled batch by batch. */
export function exportAuditEventsJsonl(options: ExportAuditEventsOptions = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = iterateAuditEvents(options);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map((event) => JSON.stringify(event) + "\n").join("")));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

/** `refinery-audit-YYYY-MM-DD.jsonl` for the day of the export (UTC). */
export function auditExportFileName(now = new Date()): string {
  return `refinery-audit-${now.toISOString().slice(0, 10)}.jsonl`;
}
