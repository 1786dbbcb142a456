import { describe, expect, it } from "vitest";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { describeChange, nameFromDisplayNames } from "./describe-change";
import { parseLegacySummary } from "./parse-legacy-summary";
import { planActions } from "./plan-actions";

const httpx = () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"));

describe("summaries name nodes by label", () => {
  it("adds where a node comes from only when another node shares its label (httpx has four `.get()`)", () => {
    const graph = httpx();
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "delete_edge", subject: "Client", relation: "method", object: "client_client_get" }] });
    expect(plan.actions[0]?.summary).toBe("Removes the edge “Client” —method→ “.get()” (client.py, line 92).");
    expect(plan.actions[0]?.change).toMatchObject({ kind: "remove_edge", source: { id: "client_client" }, target: { id: "client_client_get", label: ".get()" } });
  });

  it("a rename names the node by its old label and quotes the new one", () => {
    const graph = parseTriples("Kismet|directed_by|Wiliam Dieterle\n");
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "replace_node", old: "Wiliam Dieterle", new: "William Dieterle" }] });
    expect(plan.actions[0]?.summary).toBe("Renames “Wiliam Dieterle” to “William Dieterle”; the old name is kept as an alias.");
  });

  it("display names from the server (passage titles) replace the plan's own, but not for a node renamed since", () => {
    const change = { kind: "merge" as const, from: { id: "p1", label: "Ohio" }, into: { id: "p2", label: "Ohio River" }, rewired: 3, dropped: 1 };
    const nameOf = nameFromDisplayNames([
      { id: "p1", label: "Ohio", secondary: "Ohio (state)" },
      { id: "p2", label: "Ohio River (renamed)", secondary: null },
    ]);
    expect(describeChange(change, nameOf)).toBe("Merges “Ohio” (Ohio (state)) into “Ohio River” (3 edges rewired, 1 edge dropped as duplicates or self-loops); “Ohio” is kept as an alias.");
  });
});

describe("old summaries (ids in text) read back", () => {
  const labels = new Map([
    ["client_asyncclient", "AsyncClient"],
    ["client_client", "Client"],
    ["refinery_http_2", "HTTP/2"],
    ["Ohio River", "Ohio River"],
  ]);
  const labelOf = (id: string) => labels.get(id);
  const read = (text: string) => {
    const change = parseLegacySummary(text, labelOf);
    return change ? describeChange(change) : null;
  };

  it("each shape the old planner wrote", () => {
    expect(read("merges client_asyncclient into client_client (survivor: client_client; 11 edges rewired, 1 dropped as duplicates or self-loops; \"AsyncClient\" kept as an alias)")).toBe(
      "Merges “AsyncClient” into “Client” (11 edges rewired, 1 edge dropped as duplicates or self-loops); “AsyncClient” is kept as an alias.",
    );
    expect(read("adds client_client --supports--> refinery_http_2 (new node refinery_http_2)")).toBe("Adds the edge “Client” —supports→ “HTTP/2” (“HTTP/2” is a new node).");
    expect(read("removes client_client --inherits--> client_baseclient")).toBe("Removes the edge “Client” —inherits→ “client_baseclient”.");
    expect(read("no change: the edge client_client --inherits--> client_baseclient already exists")).toBe("No change: the edge “Client” —inherits→ “client_baseclient” already exists.");
    expect(read("removes 1 of 2 identical copies; 1 kept: Ohio River --follows course to--> Cincinnati (the kept copy cites musique-p0091; removed copies cited musique-p0094)")).toBe(
      "Removes 1 of 2 identical copies of the edge “Ohio River” —follows course to→ “Cincinnati” and keeps one. The kept copy cites musique-p0091; the removed ones cited musique-p0094.",
    );
    expect(read('renames Wiliam Dieterle from "Wiliam Dieterle" to "William Dieterle" (old name kept as an alias)')).toBe(
      "Renames “Wiliam Dieterle” to “William Dieterle”; the old name is kept as an alias.",
    );
    expect(read('no change: "Client" and "client_client" are the same node')).toBe("No change: “Client” and “client_client” are the same node.");
  });

  it("a text in no known shape is left alone (null)", () => {
    expect(parseLegacySummary("something else entirely", labelOf)).toBeNull();
    expect(parseLegacySummary("merges a into b (survivor: c; 1 edge rewired; \"a\" kept as an alias)", labelOf)).toBeNull();
  });
});
