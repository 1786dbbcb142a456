/** The audit log's vocabulary: every action name, with what it means, and the shape of one event. */
/** Every action name written to the log, with what it means (also the filter list of /audit). */
export const AUDIT_ACTIONS = {
  "auth.setup": "created the first admin account",
  "auth.login": "signed in",
  "auth.login_failed": "failed to sign in",
  "auth.logout": "signed out",
  "user.create": "created an account",
  "user.update": "changed an account",
  "token.create": "created an API token",
  "token.revoke": "revoked an API token",
  "graph.import": "imported a graph",
  "graph.rename": "renamed a graph",
  "graph.delete": "deleted a graph",
  "question.add": "queued questions",
  "run.start": "started a run",
  "run.finish": "a run finished (or failed)",
  "ask.start": "asked a graph a question",
  "ask.finish": "an ask finished (or failed)",
  "proposal.create": "submitted a proposal",
  "action.approve": "approved an action",
  "action.reject": "rejected (vetoed) an action",
  "action.withdraw": "withdrew a decision",
  "action.edit": "edited an action",
  "action.rereview": "reviewed an action again once its version's graph rules were mined",
  "approval.dismiss": "dismissed a stale approval",
  "action.obsolete": "marked an action obsolete (a version made it moot)",
  "action.restore": "put an obsolete action back in the queue (a version undid what made it moot)",
  "comment.add": "commented",
  "changeset.apply": "applied a changeset",
  "changeset.revert": "reverted a version",
  "policy.update": "changed an approval policy",
  "policy.thresholds": "re-fitted or reset a graph's review thresholds",
  "settings.update": "changed settings",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export interface AuditInput {
  action: AuditAction;
  /** One readable sentence, e.g. `approved insert_edge("Client", "inherits", "BaseClient") (1 of 2)`. */
  summary: string;
  graphName?: string | null;
  targetType?: "proposal" | "action" | "run" | "version" | "user" | "token" | "policy" | "settings" | "graph" | "session" | "question" | "ask";
  targetId?: string | number | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}
