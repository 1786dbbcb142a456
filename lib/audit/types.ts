/**
 * An audit event as the API, the JSONL export, the CLI and the page see it: the stored row with
 * an ISO timestamp and its details parsed. `ip` is present only for administrators.
 */
export type AuditActorKind = "user" | "token" | "cli" | "system";

export interface AuditEventView {
  id: number;
  /** ISO 8601, UTC. */
  at: string;
  actorKind: AuditActorKind;
  /** The account behind a user or token; null for the command line and the system. */
  actorId: string | null;
  actorName: string;
  /** e.g. `action.approve` (AUDIT_ACTIONS in lib/server/audit/audit.ts lists them). */
  action: string;
  graphName: string | null;
  targetType: string | null;
  targetId: string | null;
  /** One readable sentence: "approved insert_edge(…) (1 of 2)". */
  summary: string;
  details: Record<string, unknown> | null;
  ip?: string | null;
}

export interface AuditEventPage {
  events: AuditEventView[];
  /** Pass as `cursor` for the next (older) page; null when this was the last one. */
  nextCursor: number | null;
}

/** Someone the "who" filter can choose: `value` is what the `actor` filter takes. */
export interface AuditActorOption {
  value: string;
  label: string;
  kind: AuditActorKind;
}

export interface AuditFacets {
  actors: AuditActorOption[];
  graphs: string[];
}
