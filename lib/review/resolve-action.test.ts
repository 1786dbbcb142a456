import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { resolveName } from "../graph/resolve-name";
import { httpx } from "../loop/test-support";
import { createNameResolver, resolveActionNames, toResolvedName } from "./resolve-action";

describe("resolveActionNames (httpx)", () => {
  let graph: KnowledgeGraph;
  beforeAll(() => {
    ({ graph } = httpx());
  });

  it("maps exact names to the node apply will touch", () => {
    const r = resolveActionNames({ graph, action: { type: "insert_edge", subject: "Client", relation: "calls", object: "client" } });
    expect(r.subject).toMatchObject({ name: "Client", status: "exact", nodeId: "client_client" });
    // The file node whose id is `client` is a different node from the class: no collision.
    expect(r.object).toMatchObject({ name: "client", status: "exact", nodeId: "client" });
    expect(r.old).toBeUndefined();
  });

  it("leaves ambiguous names without a node, with the ranked candidates", () => {
    const r = resolveActionNames({ graph, action: { type: "delete_edge", subject: "__init__()", relation: "calls", object: "Headers" } });
    expect(r.subject?.status).toBe("ambiguous");
    expect(r.subject?.nodeId).toBeNull();
    expect(r.subject?.candidates.length).toBeGreaterThan(1);
    expect(r.subject?.candidates.map((c) => c.qualified)).toContain("client_client_init");
  });

  it("leaves unknown names without a node, with fuzzy suggestions (insert creates them)", () => {
    const r = resolveActionNames({ graph, action: { type: "insert_edge", subject: "BaseClien", relation: "calls", object: "Headers" } });
    expect(r.subject).toMatchObject({ status: "not_found", nodeId: null });
    expect(r.subject?.candidates[0]).toMatchObject({ id: "client_baseclient", matchedBy: "fuzzy" });
  });

  it("resolves a file::label qualified name exactly", () => {
    const r = resolveActionNames({ graph, action: { type: "replace_node", old: "client.py::._build_request()", new: "transport.py::HTTPTransport" } });
    expect(r.old).toMatchObject({ status: "exact", nodeId: "client_baseclient_build_request" });
    expect(r.new).toMatchObject({ status: "exact", nodeId: "transport_httptransport" });
    expect(r.subject).toBeUndefined();
  });

  it("is exactly the shared resolver's answer, memoised per name", () => {
    const resolve = createNameResolver({ graph });
    expect(resolve("Client")).toBe(resolve("Client"));
    expect(resolve("Auth")).toEqual(toResolvedName(resolveName({ graph, name: "Auth" })));
    const r = resolveActionNames({ graph, action: { type: "insert_edge", subject: "Auth", relation: "x", object: "Auth" }, resolve });
    expect(r.subject).toBe(r.object);
  });
});
