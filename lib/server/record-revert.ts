import type { Actor } from "../auth/permissions";
import { recordAudit } from "./audit";

/** The audit line of a finished revert (the revert commits in its own transaction). */
export async function recordRevert(actor: Actor, options: { graph: string; reverted: number; version: number }): Promise<void> {
  await recordAudit(actor, {
    action: "changeset.revert",
    summary: `reverted version ${options.reverted} of ${options.graph} as version ${options.version}`,
    graphName: options.graph,
    targetType: "version",
    targetId: options.version,
    details: { reverted: options.reverted },
  });
}
