import { describe, expect, it } from "vitest";
import { exportGraphifyJson } from "../export/export-graphify";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { AppError } from "../errors";
import { applyChangeset, findConflicts, invertChangeset, parseChangeset, serializeChangeset } from "./changeset";
import { diffChangesets } from "./diff";
import { planActions } from "./plan-actions";

const httpxText = readData("graphify", "httpx", "graph.json");
const httpx = () => parseGraphifyJson(httpxText);

function refused(fn: () => unknown, message: string): void {
  try {
    fn();
    expect.unreachable();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).message).toContain(message);
  }
}

describe("planning and applying actions", () => {
  it("insert with a new endpoint, then the inverse gives back a byte-identical export", () => {
    const graph = httpx();
    const plan = planActions({
      graph,
      edgeKeyPrefix: "v2.",
      actions: [{ type: "insert_edge", subject: "Client", relation: "documented_in", object: "HTTPX user guide" }],
    });
    expect(plan.actions[0]?.summary).toBe("Adds the edge “Client” —documented_in→ “HTTPX user guide” (“HTTPX user guide” is a new node).");
    expect(plan.actions[0]?.change).toMatchObject({ kind: "add_edge", source: { id: "client_client" }, created: [{ id: "refinery_httpx_user_guide", label: "HTTPX user guide" }] });
    const after = applyChangeset(graph, plan.changeset);
    const created = after.getNode("refinery_httpx_user_guide");
    expect(created?.attrs).toMatchObject({ label: "HTTPX user guide", norm_label: "httpx user guide", community: graph.getNode("client_client")?.community });
    const edge = after.edges.get("v2.0");
    expect(edge).toMatchObject({ source: "client_client", target: "refinery_httpx_user_guide", relation: "documented_in" });
    expect(edge?.attrs).toMatchObject({ confidence: "INFERRED", _src: "client_client", _tgt: "refinery_httpx_user_guide" });
    expect(exportGraphifyJson(after)).toContain('"weight": 1.0');
    const restored = applyChangeset(after, parseChangeset(serializeChangeset(invertChangeset(plan.changeset))));
    expect(exportGraphifyJson(restored)).toBe(httpxText);
  });

  it("an edge that already exists is a no-op, reported", () => {
    const plan = planActions({ graph: httpx(), edgeKeyPrefix: "v2.", actions: [{ type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" }] });
    expect(plan.changeset.ops).toEqual([]);
    expect(plan.actions[0]).toMatchObject({ skipped: true });
    expect(plan.actions[0]?.summary).toBe("No change: the edge “Client” —inherits→ “BaseClient” already exists.");
  });

  it("replace_node onto an existing node is a real merge with an explicit survivor", () => {
    const graph = httpx();
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "replace_node", old: "AsyncClient", new: "Client" }] });
    expect(plan.merges).toEqual([{ from: "client_asyncclient", into: "client_client" }]);
    expect(plan.actions[0]?.summary).toMatch(/^Merges “AsyncClient” into “Client” \(\d+ edges rewired(, \d+ edges? dropped as duplicates or self-loops)?\); “AsyncClient” is kept as an alias\.$/);
    expect(plan.actions[0]?.change).toMatchObject({ kind: "merge", from: { id: "client_asyncclient", label: "AsyncClient" }, into: { id: "client_client", label: "Client" } });
    const after = applyChangeset(graph, plan.changeset);
    expect(after.getNode("client_asyncclient")).toBeUndefined();
    expect(after.getNode("client_client")?.aliases).toContain("AsyncClient");
    const before = graph.degree("client_client") + graph.degree("client_asyncclient");
    expect(after.degree("client_client")).toBeLessThanOrEqual(before);
    expect(after.incidentEdges("client_client").every((e) => e.source !== "client_asyncclient" && e.target !== "client_asyncclient")).toBe(true);
    for (const e of after.incidentEdges("client_client")) if ("_src" in e.attrs) expect([e.attrs._src, e.attrs._tgt]).toEqual([e.source, e.target]);
    const diff = diffChangesets({ changesets: [plan.changeset], merges: plan.merges, labelOf: (id) => graph.getNode(id)?.label ?? id });
    expect(diff.mergedNodes.map((m) => [m.from.id, m.into.id])).toEqual([["client_asyncclient", "client_client"]]);
    expect(diff.changedEdges.length).toBeGreaterThan(0);
    expect(exportGraphifyJson(applyChangeset(after, invertChangeset(plan.changeset)))).toBe(httpxText);
  });

  it("replace_node onto a new name renames, keeping the id and the old name as an alias", () => {
    const graph = parseTriples("Kismet|directed_by|Wiliam Dieterle\n");
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "replace_node", old: "Wiliam Dieterle", new: "William Dieterle" }] });
    const after = applyChangeset(graph, plan.changeset);
    expect(after.getNode("Wiliam Dieterle")).toMatchObject({ label: "William Dieterle", aliases: ["Wiliam Dieterle"] });
    expect(after.toTriple([...after.edges.values()][0]!).object).toBe("William Dieterle");
  });

  it("delete of an edge stored several times removes the extra copies and keeps one; a missing edge is refused", () => {
    const graph = parseTriples("a|r|b\na|r|b\na|s|b\n");
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "delete_edge", subject: "a", relation: "r", object: "b" }] });
    expect(plan.actions[0]?.summary).toBe("Removes 1 of 2 identical copies of the edge “a” —r→ “b” and keeps one.");
    const after = applyChangeset(graph, plan.changeset);
    expect([...after.edges.values()].map((e) => `${e.source} ${e.relation} ${e.target}`)).toEqual(["a r b", "a s b"]);
    // Four copies: three go, one stays; a second delete then removes the fact itself.
    const four = parseTriples("a|r|b\n".repeat(4));
    const once = applyChangeset(four, planActions({ graph: four, edgeKeyPrefix: "v2.", actions: [{ type: "delete_edge", subject: "a", relation: "r", object: "b" }] }).changeset);
    expect(once.edges.size).toBe(1);
    const twice = planActions({ graph: four, edgeKeyPrefix: "v2.", actions: [{ type: "delete_edge", subject: "a", relation: "r", object: "b" }, { type: "delete_edge", subject: "a", relation: "r", object: "b" }] });
    expect(twice.actions.map((a) => a.summary)).toEqual(["Removes 3 of 4 identical copies of the edge “a” —r→ “b” and keeps one.", "Removes the edge “a” —r→ “b”."]);
    expect(applyChangeset(four, twice.changeset).edges.size).toBe(0);
    refused(() => planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "delete_edge", subject: "a", relation: "zzz", object: "b" }] }), "there is no edge a --zzz--> b");
    refused(() => planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "delete_edge", subject: "nobody", relation: "r", object: "b" }] }), 'no node named "nobody"');
  });

  it("ambiguous names are refused with qualified candidates", () => {
    refused(() => planActions({ graph: httpx(), edgeKeyPrefix: "v2.", actions: [{ type: "insert_edge", subject: "__init__()", relation: "calls", object: "Client" }] }), "names several nodes");
  });

  it("names with quotes, ) and | are just names", () => {
    const graph = parseTriples('say "hi" (x)|r|b|c\n'.replace("|b|c", "|b"));
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "insert_edge", subject: 'say "hi" (x)', relation: "r|s)", object: "b" }] });
    expect(applyChangeset(graph, plan.changeset).edges.get("v2.0")).toMatchObject({ source: 'say "hi" (x)', relation: "r|s)" });
  });

  it("optimistic concurrency: a changeset conflicts when what it touches changed", () => {
    const graph = httpx();
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "replace_node", old: "AsyncClient", new: "Client" }] });
    // Someone else deleted one of AsyncClient's edges meanwhile.
    const victim = graph.incidentEdges("client_asyncclient")[0]!;
    const other = planActions({ graph, edgeKeyPrefix: "v3.", actions: [{ type: "delete_edge", subject: victim.source, relation: victim.relation, object: victim.target }] });
    const newer = applyChangeset(graph, other.changeset);
    expect(findConflicts(newer, plan.changeset).length).toBeGreaterThan(0);
    // An unrelated change does not conflict.
    const unrelated = planActions({ graph, edgeKeyPrefix: "v3.", actions: [{ type: "insert_edge", subject: "URL", relation: "related_to", object: "Headers" }] });
    expect(findConflicts(applyChangeset(graph, unrelated.changeset), plan.changeset)).toEqual([]);
  });
});

describe("file order", () => {
  it("a merge keeps every surviving node and edge where it was", () => {
    const graph = httpx();
    const plan = planActions({ graph, edgeKeyPrefix: "v2.", actions: [{ type: "replace_node", old: "AsyncClient", new: "Client" }] });
    const after = applyChangeset(graph, plan.changeset);
    const before = [...graph.nodes.keys()].filter((id) => id !== "client_asyncclient");
    expect([...after.nodes.keys()]).toEqual(before);
    const keptEdges = [...graph.edges.keys()].filter((k) => after.edges.has(k));
    expect([...after.edges.keys()]).toEqual(keptEdges);
  });
});
