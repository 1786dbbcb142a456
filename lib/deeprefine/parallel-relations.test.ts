import { describe, expect, it } from "vitest";
import { applyChangeset } from "../changes/changeset";
import { planActions } from "../changes/plan-actions";
import { parseGraphifyJson } from "../import/parse-graphify";
import type { RefinementAction } from "../loop/types";
import { readData } from "../test/data";
import { findParallelRelations } from "./parallel-relations";

const graph = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));

function check(actions: RefinementAction[]) {
  const plan = planActions({ graph, actions, edgeKeyPrefix: "t." });
  return findParallelRelations({ before: graph, after: applyChangeset(graph, plan.changeset), changeset: plan.changeset });
}

describe("findParallelRelations (the --refresh-wiki rule)", () => {
  it("flags a new relation on a pair that is already linked", () => {
    expect(check([{ type: "insert_edge", subject: "Client", relation: "calls", object: "HTTPTransport" }])).toEqual([
      { subject: "Client", relation: "calls", object: "HTTPTransport", subject_id: "client_client", object_id: "transport_httptransport", existing: ["uses"] },
    ]);
  });

  it("also when the existing link runs the other way", () => {
    expect(check([{ type: "insert_edge", subject: "BaseClient", relation: "extended_by", object: "Client" }])[0]?.existing).toEqual(["inherits"]);
  });

  it("accepts an edge on an unlinked pair, and a replacement that deletes the old link first", () => {
    expect(check([{ type: "insert_edge", subject: "HTTPTransport", relation: "calls", object: "ConnectionPool" }])).toEqual([]);
    expect(
      check([
        { type: "delete_edge", subject: "Client", relation: "uses", object: "HTTPTransport" },
        { type: "insert_edge", subject: "Client", relation: "calls", object: "HTTPTransport" },
      ]),
    ).toEqual([]);
  });

  it("flags a merge that rewires an edge onto an already-linked pair", () => {
    // BaseClient --uses--> Request becomes BaseClient --uses--> Client, and Client inherits BaseClient.
    const found = check([{ type: "replace_node", old: "Request", new: "Client" }]);
    expect(found).toContainEqual({ subject: "BaseClient", relation: "uses", object: "Client", subject_id: "client_baseclient", object_id: "client_client", existing: ["inherits"] });
  });
});
