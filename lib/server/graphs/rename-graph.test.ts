/**
 * Renaming and deleting a graph: the graph's rows follow the rename and go with the delete
 * (nothing of it is left behind), both are audited, and the refusals change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import { dataPath } from "../../test/data";
import { getDb } from "../db/db";
import { findGraphs, getGraphRecord } from "./graph-store";
import { importGraphFromPath } from "./import-graph";
import { addQuestions } from "../runs";
import { deleteGraph, renameGraph } from "./rename-graph";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const admin: Actor = { kind: "user", userId: "u-admin", username: "ada", displayName: "Ada", role: "admin", sessionId: "s-test" };

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "none";
  } catch (error) {
    return isAppError(error) ? error.code : "not an AppError";
  }
}

beforeAll(async () => {
  db = await useTestDatabase("rename-graph");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await importGraphFromPath({ path: dataPath("graphify", "mixed-corpus"), name: "mixed" });
  await addQuestions({ graph: "httpx", texts: ["What does Client inherit from?"] });
});

afterAll(async () => {
  await db.cleanup();
});

describe("renameGraph", () => {
  it("moves the graph and its rows to the new name, audited", async () => {
    const before = await getGraphRecord("httpx");
    expect(await renameGraph({ name: "httpx", newName: " httpx client ", actor: admin })).toEqual({ name: "httpx client", previousName: "httpx" });
    const after = await getGraphRecord("httpx client");
    expect(after.id).toBe(before.id);
    expect(await codeOf(getGraphRecord("httpx"))).toBe("NOT_FOUND");
    expect(await getDb().question.count({ where: { graphId: after.id } })).toBe(1);
    const event = await getDb().auditEvent.findFirstOrThrow({ where: { action: "graph.rename" } });
    expect(event.summary).toBe('renamed graph "httpx" to "httpx client"');
  });

  it("refuses a taken or invalid name and changes nothing", async () => {
    expect(await codeOf(renameGraph({ name: "httpx client", newName: "mixed", actor: admin }))).toBe("CONFLICT");
    expect(await codeOf(renameGraph({ name: "httpx client", newName: "upload", actor: admin }))).toBe("INVALID_INPUT");
    expect(await codeOf(renameGraph({ name: "httpx client", newName: "../x", actor: admin }))).toBe("INVALID_INPUT");
    expect((await findGraphs()).map((g) => g.name).sort()).toEqual(["httpx client", "mixed"]);
    expect(await getDb().auditEvent.count({ where: { action: "graph.rename" } })).toBe(1);
  });
});

describe("deleteGraph", () => {
  it("needs the name typed again", async () => {
    expect(await codeOf(deleteGraph({ name: "mixed", confirm: "mixe", actor: admin }))).toBe("INVALID_INPUT");
    expect((await findGraphs()).map((g) => g.name)).toContain("mixed");
  });

  it("removes the graph with every row of it and leaves the other graph alone", async () => {
    const id = (await getGraphRecord("httpx client")).id;
    const other = (await getGraphRecord("mixed")).id;
    const otherNodes = await getDb().node.count({ where: { graphId: other } });
    expect(await getDb().node.count({ where: { graphId: id } })).toBeGreaterThan(100);
    const result = await deleteGraph({ name: "httpx client", confirm: "httpx client", actor: admin });
    expect(result).toMatchObject({ name: "httpx client", versions: 1 });
    expect(result.nodes).toBeGreaterThan(100);
    for (const count of [
      getDb().node.count({ where: { graphId: id } }),
      getDb().edge.count({ where: { graphId: id } }),
      getDb().document.count({ where: { graphId: id } }),
      getDb().question.count({ where: { graphId: id } }),
      getDb().graphVersion.count({ where: { graphId: id } }),
    ]) {
      expect(await count).toBe(0);
    }
    expect(await getDb().node.count({ where: { graphId: other } })).toBe(otherNodes);
    expect((await getDb().auditEvent.findFirstOrThrow({ where: { action: "graph.delete" } })).graphName).toBe("httpx client");
  });
});
