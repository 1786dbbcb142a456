/**
 * What the audit page's filters can choose from: everyone who appears in the log (people by
 * username, so "alice" also covers alice's tokens) and every graph named in it.
 */
import type { AuditActorKind, AuditActorOption, AuditFacets } from "../../audit/types";
import { getDb } from "../db/db";

export async function findAuditFacets(): Promise<AuditFacets> {
  const db = getDb();
  const [actorRows, graphRows] = await Promise.all([
    db.auditEvent.groupBy({ by: ["actorKind", "actorId", "actorName"], orderBy: { actorName: "asc" } }),
    db.auditEvent.groupBy({ by: ["graphName"], where: { graphName: { not: null } }, orderBy: { graphName: "asc" } }),
  ]);
  const accountIds = [...new Set(actorRows.map((r) => r.actorId).filter((id): id is string => id !== null))];
  const users = accountIds.length === 0 ? [] : await db.user.findMany({ where: { id: { in: accountIds } }, select: { id: true, username: true, displayName: true } });
  const byId = new Map(users.map((u) => [u.id, u]));
  const actors = new Map<string, AuditActorOption>();
  for (const row of actorRows) {
    const user = row.actorId ? byId.get(row.actorId) : undefined;
    if (user) {
      const label = user.displayName === user.username ? user.username : `${user.displayName} (${user.username})`;
      actors.set(user.username, { value: user.username, label, kind: "user" });
    } else if (!actors.has(row.actorName)) {
      actors.set(row.actorName, { value: row.actorName, label: row.actorName, kind: row.actorKind as AuditActorKind });
    }
  }
  return {
    actors: [...actors.values()].sort((a, b) => a.label.localeCompare(b.label)),
    graphs: graphRows.map((r) => r.graphName).filter((g): g is string => g !== null),
  };
}
