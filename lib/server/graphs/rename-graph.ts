/**
 * Rename or delete a graph (admins; the routes check the permission). Both are audited in the
 * change's own transaction. A graph with a run in progress is neither: the run would write to a
 * name that moved, or to rows that are gone.
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getGraphRecord } from "./graph-store";
import { validateGraphName } from "./write-graph";

async function refuseWhileRunning(graphId: string, name: string, what: string): Promise<void> {
  const running = await getDb().run.count({ where: { graphId, status: "running" } });
  if (running > 0) throw new AppError("CONFLICT", `${JSON.stringify(name)} has ${running === 1 ? "a run" : `${running} runs`} in progress; ${what} it when ${running === 1 ? "it ends" : "they end"}`);
}

export interface RenameGraphOptions {
  name: string;
  newName: string;
  actor: Actor;
  ip?: string | null;
}

export async function renameGraph(options: RenameGraphOptions): Promise<{ name: string; previousName: string }> {
  const record = await getGraphRecord(options.name);
  const newName = validateGraphName(options.newName);
  if (newName === record.name) return { name: newName, previousName: record.name };
  await refuseWhileRunning(record.id, record.name, "rename");
  const db = getDb();
  try {
    await db.$transaction(async (tx) => {
      const taken = await tx.graph.findUnique({ where: { name: newName }, select: { id: true } });
      if (taken) throw new AppError("CONFLICT", `a graph named ${JSON.stringify(newName)} exists already`);
      await tx.graph.update({ where: { id: record.id }, data: { name: newName } });
      await recordAudit(
        options.actor,
        { action: "graph.rename", summary: `renamed graph ${JSON.stringify(record.name)} to ${JSON.stringify(newName)}`, graphName: newName, targetType: "graph", targetId: newName, details: { from: record.name, to: newName }, ip: options.ip },
        tx,
      );
    });
  } catch (error) {
    // Two renames to one name at once: the unique index refuses the second.
    if ((error as { code?: string }).code === "P2002") throw new AppError("CONFLICT", `a graph named ${JSON.stringify(newName)} exists already`);
    throw error;
  }
  return { name: newName, previousName: record.name };
}

export interface DeleteGraphOptions {
  name: string;
  /** The name typed again to confirm: a delete cannot be undone. */
  confirm: string;
  actor: Actor;
  ip?: string | null;
}

export async function deleteGraph(options: DeleteGraphOptions): Promise<{ name: string; versions: number; nodes: number; edges: number }> {
  const record = await getGraphRecord(options.name);
  if (options.confirm.trim() !== record.name) throw new AppError("INVALID_INPUT", `type the graph's name, ${JSON.stringify(record.name)}, to confirm the delete`);
  await refuseWhileRunning(record.id, record.name, "delete");
  const db = getDb();
  const latest = await db.graphVersion.findFirst({ where: { graphId: record.id }, orderBy: { version: "desc" }, select: { nodeCount: true, edgeCount: true } });
  const result = { name: record.name, versions: record.currentVersion, nodes: latest?.nodeCount ?? 0, edges: latest?.edgeCount ?? 0 };
  await db.$transaction(async (tx) => {
    // Every row of the graph hangs off it with ON DELETE CASCADE (versions, nodes, edges, corpus,
    // questions, runs, proposals, approvals, comments, changesets); the audit log keeps its name.
    await tx.graph.delete({ where: { id: record.id } });
    await recordAudit(
      options.actor,
      {
        action: "graph.delete",
        summary: `deleted graph ${JSON.stringify(record.name)} (${result.versions} version${result.versions === 1 ? "" : "s"}, ${result.nodes} nodes, ${result.edges} edges at the last one)`,
        graphName: record.name,
        targetType: "graph",
        targetId: record.name,
        details: result,
        ip: options.ip,
      },
      tx,
    );
  });
  return result;
}
