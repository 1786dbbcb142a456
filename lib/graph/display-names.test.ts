import { describe, expect, it } from "vitest";
import { parseGraphifyJson } from "../import/parse-graphify";
import { readData } from "../test/data";
import { findDisplayName } from "./display-names";

// Real graphify outputs: httpx has 15 labels shared by several nodes (`.get()` of Client,
// AsyncClient, Headers and Cookies), mixed-corpus has none.
const httpx = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
const mixed = parseGraphifyJson(readData("graphify", "mixed-corpus", "graph.json"));

describe("findDisplayName", () => {
  it("is the bare label when no other node shares it", () => {
    expect(findDisplayName({ graph: httpx, id: "transport_httptransport" })).toEqual({ id: "transport_httptransport", label: "HTTPTransport", secondary: null });
    for (const id of ["analyze_god_nodes", "build_build", "cluster"]) expect(findDisplayName({ graph: mixed, id })?.secondary).toBeNull();
  });

  it("adds the file that tells a shared label apart, and the line when the file does not", () => {
    const headers = findDisplayName({ graph: httpx, id: "models_headers_get" });
    expect(headers?.label).toBe(".get()");
    expect(headers?.secondary).toMatch(/^models\.py, line \d+$/);
    const client = findDisplayName({ graph: httpx, id: "client_client_get" });
    const asyncClient = findDisplayName({ graph: httpx, id: "client_asyncclient_get" });
    expect(client?.secondary).toMatch(/^client\.py, line \d+$/);
    expect(client?.secondary).not.toBe(asyncClient?.secondary);
  });

  it("is null for a node the graph does not have", () => {
    expect(findDisplayName({ graph: httpx, id: "no such node" })).toBeNull();
  });
});
