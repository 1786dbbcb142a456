import type { AuditInput } from "../audit";

/** The audit event of a revert, written in the revert's own transaction (revertVersion's `auditAs`). */
export function revertAuditInput(options: { graph: string; reverted: number; version: number }): AuditInput {
  return {
    action: "changeset.revert",
    summary: `reverted version ${options.reverted} of ${options.graph} as version ${options.version}`,
    graphName: options.graph,
    targetType: "version",
    targetId: options.version,
    details: { reverted: options.reverted },
  };
}
