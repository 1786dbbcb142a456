import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph, Triple } from "../graph/model";
import { nodeFromRecord } from "../graph/model";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { formatQueryText, getQueryIndex, queryGraph, questionTerms } from "./query-graph";
import type { QueryGraphResult } from "./query-graph";

const graphify = (name: string) => parseGraphifyJson(readData("graphify", name, "graph.json"));

/** Each triple is a real edge of the graph, in its stored direction, under its edge key. */
function expectStoredTriples(graph: KnowledgeGraph, result: QueryGraphResult): void {
  expect(result.edgeKeys.length).toBe(result.triples.length);
  expect(new Set(result.edgeKeys).size).toBe(result.edgeKeys.length);
  result.triples.forEach((t, i) => {
    const edge = graph.edges.get(result.edgeKeys[i] ?? "");
    expect(edge).toBeDefined();
    expect(graph.nodes.has(t.subject_id) && graph.nodes.has(t.object_id)).toBe(true);
    expect([t.subject_id, t.relation, t.object_id]).toEqual([edge?.source, edge?.relation, edge?.target]);
    expect(t.subject).toBe(graph.getNode(t.subject_id)?.label);
    expect(t.object).toBe(graph.getNode(t.object_id)?.label);
  });
}

const line = (t: Triple) => `${t.subject} ${t.relation} ${t.object}`;

describe("questionTerms", () => {
  it("drops short words, stopwords and question words, keeps order", () => {
    expect(questionTerms("How does the Client send a request?")).toEqual(["client", "send", "request"]);
    expect(questionTerms("Who directed Kismet, and who wrote it?")).toEqual(["directed", "kismet", "wrote"]);
    expect(questionTerms("Where is the CAFÉ? Is it a café?")).toEqual(["cafe"]);
  });
});

describe("queryGraph on httpx", () => {
  let httpx: KnowledgeGraph;
  beforeAll(() => {
    httpx = graphify("httpx");
  });

  it("seeds the Client class and its send/request methods, and returns stored-direction triples", () => {
    const r = queryGraph({ graph: httpx, question: "How does the Client send a request?", limit: 12 });
    expect(r.terms).toEqual(["client", "send", "request"]);
    // The class, not the file node `client` (label client.py), and the Client's own methods.
    expect(r.seeds.map((s) => s.id).sort()).toEqual(["client_client", "client_client_request", "client_client_send"]);
    expectStoredTriples(httpx, r);
    expect(r.triples.slice(0, 3).map(line)).toEqual([
      "Client method .send()",
      "Client method .request()",
      ".request() calls .send()",
    ]);
    expect(r.nodes.slice(0, 3).sort()).toEqual(r.seeds.map((s) => s.id).sort());
  });

  it("keeps the stored direction of edges whose _src/_tgt reverse source/target", () => {
    const r = queryGraph({ graph: httpx, question: "What does BaseClient inherit, and who inherits BaseClient?" });
    expectStoredTriples(httpx, r);
    const flipped = r.edgeKeys.filter((k) => {
      const attrs = httpx.edges.get(k)?.attrs;
      return attrs && attrs._src !== attrs.source;
    });
    expect(flipped.length).toBeGreaterThan(0);
    const inherits = r.triples.filter((t) => t.relation === "inherits").map(line);
    expect(inherits).toContain("Client inherits BaseClient");
    expect(inherits).toContain("AsyncClient inherits BaseClient");
  });

  it("is deterministic", () => {
    const q = { graph: httpx, question: "how are requests sent through the transport?" };
    expect(queryGraph(q)).toEqual(queryGraph(q));
  });

  it("still returns edges for a broad question, and text that keeps EDGE lines", () => {
    const r = queryGraph({ graph: httpx, question: "How does authentication work?" });
    expect(r.seeds.length).toBeGreaterThan(0);
    expect(r.triples.length).toBeGreaterThan(10);
    expectStoredTriples(httpx, r);
    // "authentication" is in no label; the label word "auth" it starts with is.
    expect(r.seeds.every((s) => /auth/i.test(s.label))).toBe(true);

    const text = formatQueryText(httpx, r, 200);
    const lines = text.split("\n");
    expect(text.length).toBeLessThanOrEqual(600);
    const edgeChars = lines.filter((l) => l.startsWith("EDGE ")).join("\n").length;
    expect(edgeChars).toBeGreaterThanOrEqual(600 / 2 - 120);
    expect(lines[0]).toMatch(/^NODE \S.* \[src=worked\/httpx\/raw\/\S+ loc=L\d+ community=\d+\]$/);
    // NODE lines first, then EDGE lines.
    const firstEdge = lines.findIndex((l) => l.startsWith("EDGE "));
    expect(lines.slice(firstEdge).every((l) => l.startsWith("EDGE "))).toBe(true);
  });

  it("formats EDGE lines with the stored confidence", () => {
    const r = queryGraph({ graph: httpx, question: "How does the Client send a request?", limit: 1 });
    expect(formatQueryText(httpx, r)).toContain("EDGE Client --method [EXTRACTED]--> .send()");
  });

  it("restricts traversal to the asked relation when such edges exist", () => {
    const r = queryGraph({ graph: httpx, question: "what calls send?" });
    expectStoredTriples(httpx, r);
    const firstOther = r.triples.findIndex((t) => t.relation !== "calls");
    const calls = r.triples.filter((t) => t.relation === "calls");
    expect(calls.length).toBeGreaterThan(0);
    // Call edges rank before every other kind.
    expect(firstOther === -1 || firstOther === calls.length).toBe(true);
    expect(calls.map(line)).toContain(".request() calls .send()");
  });

  it("honours limit and budgetChars", () => {
    const q = { graph: httpx, question: "How does the Client send a request?" };
    const all = queryGraph(q);
    expect(queryGraph({ ...q, limit: 5 }).triples).toEqual(all.triples.slice(0, 5));
    const budgeted = queryGraph({ ...q, budgetChars: 120 });
    const cost = budgeted.triples.reduce((n, t) => n + t.subject.length + t.relation.length + t.object.length + 3, 0);
    expect(cost).toBeLessThanOrEqual(120);
    expect(budgeted.triples).toEqual(all.triples.slice(0, budgeted.triples.length));
    expect(budgeted.triples.length).toBeGreaterThan(2);
  });

  it("returns nothing rather than guessing when no word matches", () => {
    const r = queryGraph({ graph: httpx, question: "What is the meaning of life?" });
    expect(r).toMatchObject({ seeds: [], triples: [], nodes: [] });
  });

  it("rebuilds its cached index when the graph grows", () => {
    const graph = graphify("httpx");
    const before = getQueryIndex(graph);
    expect(getQueryIndex(graph)).toBe(before);
    graph.addNode(nodeFromRecord({ id: "zebra_striped", label: "ZebraStriped" }));
    expect(getQueryIndex(graph)).not.toBe(before);
    expect(queryGraph({ graph, question: "zebra striped" }).seeds[0]?.id).toBe("zebra_striped");
  });
});

describe("queryGraph on other graphify graphs", () => {
  it("rsl-siege-manager: a relation word restricts traversal via the edge `context`, else falls back", () => {
    const rsl = graphify("rsl-siege-manager");
    const r = queryGraph({ graph: rsl, question: "What does rate_limit_key call?" });
    expectStoredTriples(rsl, r);
    expect(r.seeds[0]?.label).toBe("_rate_limit_key()");
    expect(r.triples[0]).toMatchObject({ subject: "_rate_limit_key()", relation: "calls" });
    // get_config has no call edges: a "calls" question about it still returns its neighbourhood.
    const none = queryGraph({ graph: rsl, question: "Which function calls get_config?" });
    expect(none.seeds[0]?.label).toBe("get_config()");
    expect(none.triples.map(line)).toContain("config.py contains get_config()");
  });

  it("generic words do not pick seeds", () => {
    const rsl = graphify("rsl-siege-manager");
    const r = queryGraph({ graph: rsl, question: "Which class and function handle the Classification data?" });
    expect(r.seeds[0]?.label).toBe("Classification");
    // "class" prefixes classify() and "data" is a word of DataRow(): neither may take a seed.
    expect(r.seeds.map((s) => s.label)).not.toContain("DataRow()");
    expect(r.seeds.map((s) => s.label)).not.toContain("classify()");
  });
});

describe("queryGraph on MetaQA", () => {
  let kb: KnowledgeGraph;
  beforeAll(() => {
    kb = parseTriples(readData("metaqa", "kb.txt"));
  });

  it("who directed Kismet: seeds Kismet and ranks its directed_by triple first", () => {
    const r = queryGraph({ graph: kb, question: "who directed Kismet", limit: 10 });
    expect(r.seeds.map((s) => s.id)).toEqual(["Kismet"]);
    expect(r.triples[0]).toEqual({
      subject: "Kismet",
      relation: "directed_by",
      object: "William Dieterle",
      subject_id: "Kismet",
      object_id: "William Dieterle",
    });
    expectStoredTriples(kb, r);
    // "directed" names a relation: it ranks edges but does not seed "Directed by John Ford".
    expect(r.seeds.map((s) => s.id)).not.toContain("Directed by John Ford");
  });

  it("a multi-word name outranks a shorter exact label inside it", () => {
    const r = queryGraph({ graph: kb, question: "what does [Grégoire Colin] appear in", limit: 5 });
    expect(r.seeds[0]?.id).toBe("Grégoire Colin");
    expect(r.triples.map(line)).toContain("Before the Rain starred_actors Grégoire Colin");
  });

  it("does not expand hubs reached by traversal", () => {
    const r = queryGraph({ graph: kb, question: "who directed Kismet" });
    const index = getQueryIndex(kb);
    expect(r.nodes).toContain("English");
    expect(kb.degree("English")).toBeGreaterThanOrEqual(index.hubDegree);
    const visited = new Set(r.nodes);
    const seeds = new Set(r.seeds.map((s) => s.id));
    // Every visited node hangs off a seed or off a visited non-hub node.
    for (const id of r.nodes) {
      if (seeds.has(id)) continue;
      const parents = [...kb.neighborIds(id)].filter((n) => visited.has(n));
      expect(parents.some((p) => seeds.has(p) || kb.degree(p) < index.hubDegree), id).toBe(true);
    }
  });

  it("finds the topic entity and an answer for MetaQA one-hop questions", () => {
    const questions = readData("metaqa", "questions-1hop.jsonl")
      .trim()
      .split("\n")
      .slice(0, 200)
      .map((l) => JSON.parse(l) as { question: string; answers: string[]; kb_status: string });
    queryGraph({ graph: kb, question: "warm up the index" });
    let seeded = 0;
    let answered = 0;
    let exact = 0;
    for (const q of questions) {
      const topic = /\[(.*?)\]/.exec(q.question)?.[1];
      const r = queryGraph({ graph: kb, question: q.question.replace(/[[\]]/g, ""), limit: 30 });
      if (r.seeds.some((s) => s.id === topic)) seeded++;
      if (q.kb_status !== "exact") continue;
      exact++;
      const answers = new Set(q.answers);
      if (r.triples.some((t) => answers.has(t.subject) || answers.has(t.object))) answered++;
    }
    expect(seeded / questions.length).toBeGreaterThan(0.9);
    expect(answered / exact).toBeGreaterThan(0.9);
  });
});
