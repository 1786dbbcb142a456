/**
 * The history names nodes by label: for versions committed now (the sentence is stored with the
 * change as data) and for versions an older release committed (only a text of ids was stored).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { getSql } from "../db/sql";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { getGraphRecord, importGraphFromPath } from "../graphs";
import { findVersions } from "./changesets";
import { applyProposal, createProposal, reviewForGraph } from "./proposals";

let db: TestDatabase;

const ACTIONS: RefinementAction[] = [
  { type: "replace_node", old: "AsyncClient", new: "Client" },
  { type: "insert_edge", subject: "Client", relation: "supports", object: "HTTP/2" },
  { type: "delete_edge", subject: "Client", relation: "method", object: "client_client_get" },
];

beforeAll(async () => {
  db = await useTestDatabase("version-actions");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  const record = await getGraphRecord("httpx");
  const reviews = await reviewForGraph({ graph: "httpx", actions: ACTIONS });
  const id = await createProposal({ graph: "httpx", baseVersion: record.currentVersion, source: "api", runId: null, question: null, actions: ACTIONS, reviews });
  await applyProposal({ proposalId: id, allowLowConfidence: true, actor: "ann" });
});

afterAll(async () => {
  await db.cleanup();
});

describe("readable version actions", () => {
  it("a new version's actions read as sentences, with the ids kept as data", async () => {
    const [v2] = await findVersions("httpx");
    expect(v2?.actions.map((a) => a.summary)).toEqual([
      expect.stringMatching(/^Merges “AsyncClient” into “Client” \(\d+ edges rewired.*\); “AsyncClient” is kept as an alias\.$/),
      "Adds the edge “Client” —supports→ “HTTP/2” (“HTTP/2” is a new node).",
      "Removes the edge “Client” —method→ “.get()” (client.py, line 92).",
    ]);
    expect(v2?.actions[2]?.change).toMatchObject({ kind: "remove_edge", target: { id: "client_client_get" } });
  });

  it("an old row (a text of ids, no change) is read back with the labels of its ops and the graph's rows", async () => {
    const record = await getGraphRecord("httpx");
    const row = await getSql().get<{ summary: string }>(`SELECT "summary" FROM "Changeset" WHERE "graphId" = ? AND "version" = 2`, [record.id]);
    const stored = JSON.parse(row?.summary ?? "[]") as { change?: unknown }[];
    const rewired = /\((\d+) edges rewired/.exec(JSON.stringify(stored))?.[1];
    const legacy = [
      { index: 0, skipped: false, summary: `merges client_asyncclient into client_client (survivor: client_client; ${rewired} edges rewired; "AsyncClient" kept as an alias)` },
      { index: 1, skipped: false, summary: "adds client_client --supports--> refinery_http_2 (new node refinery_http_2)" },
      { index: 2, skipped: false, summary: "removes client_client --method--> client_client_get" },
      { index: 3, skipped: true, summary: "a text of a shape no release wrote" },
    ];
    await getSql().execute(`UPDATE "Changeset" SET "summary" = ? WHERE "graphId" = ? AND "version" = 2`, [JSON.stringify(legacy), record.id]);
    const [v2] = await findVersions("httpx");
    expect(v2?.actions.map((a) => a.summary)).toEqual([
      `Merges “AsyncClient” into “Client” (${rewired} edges rewired); “AsyncClient” is kept as an alias.`,
      "Adds the edge “Client” —supports→ “HTTP/2” (“HTTP/2” is a new node).",
      "Removes the edge “Client” —method→ “.get()”.",
      "a text of a shape no release wrote",
    ]);
    expect(v2?.actions[1]?.change).toMatchObject({ kind: "add_edge", created: [{ id: "refinery_http_2", label: "HTTP/2" }] });
    expect(v2?.actions[3]?.change).toBeNull();
  });
});
