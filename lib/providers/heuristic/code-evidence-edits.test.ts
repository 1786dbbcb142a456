/**
 * Proposals from source code, on two graphify graphs with their sources: the httpx graph as
 * graphify built it (a class that instantiates another, unlinked) and mixed-corpus with edges
 * its code states taken out (functions calling functions), plus an extracted edge that its
 * source contradicts. MuSiQue (passages, no code) gets none of these.
 */
import { describe, expect, it } from "vitest";
import type { CorpusDocument } from "../../import/corpus";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { formatAction } from "../../loop/parse-output";
import { readData } from "../../test/data";
import { httpx, musique } from "../../loop/test-support";
import { planRefinements } from "./refine";

function graphifyProject(name: string, files: string[], edit: (json: { links: Record<string, unknown>[] }) => void) {
  const json = JSON.parse(readData("graphify", name, "graph.json")) as { links: Record<string, unknown>[] };
  edit(json);
  const graph = parseGraphifyJson(JSON.stringify(json));
  const documents: CorpusDocument[] = files.map((f) => ({
    docId: `worked/${name}/raw/${f}`,
    kind: "file",
    title: f,
    path: `raw/${f}`,
    text: readData("graphify", name, "raw", f),
  }));
  return { graph, documents };
}

const plan = (o: Omit<Parameters<typeof planRefinements>[0], "maxActions" | "triples"> & { triples?: Parameters<typeof planRefinements>[0]["triples"] }) =>
  planRefinements({ triples: [], maxActions: 5, ...o });

describe("code evidence edits", () => {
  it("proposes the link httpx's source states and graphify left out, quoting the line", () => {
    const { graph, documents } = httpx();
    const { actions, notes } = plan({ graph, documents, question: "How is HTTPTransport related to ConnectionPool?" });
    const insert = actions.find((a) => formatAction(a) === 'insert_edge("HTTPTransport", "uses", "ConnectionPool")');
    expect(insert).toBeDefined();
    expect(notes.get(insert as (typeof actions)[number])).toContain("self._pool = ConnectionPool()");
  });

  it("proposes back the calls taken out of mixed-corpus, in the graph's own relation", () => {
    const { graph, documents } = graphifyProject("mixed-corpus", ["analyze.py", "build.py", "cluster.py"], (json) => {
      json.links = json.links.filter((l) => !(l.relation === "calls" && l._src === "analyze_god_nodes"));
    });
    const { actions } = plan({ graph, documents, question: "What does god_nodes() call?" });
    const texts = actions.map(formatAction);
    expect(texts).toContain('insert_edge("god_nodes()", "calls", "_is_file_node()")');
    expect(texts).toContain('insert_edge("god_nodes()", "calls", "_is_concept_node()")');
  });

  it("proposes deleting an extracted edge its source contradicts, and never an INFERRED guess", () => {
    const { graph, documents } = graphifyProject("mixed-corpus", ["analyze.py", "build.py", "cluster.py"], (json) => {
      const real = json.links.find((l) => l.relation === "calls" && l._src === "cluster_cluster");
      if (!real) throw new Error("fixture: cluster() calls nothing");
      // The extractor's claim, pointed at the wrong callee: cluster() does not call score_all().
      json.links.push({ ...real, confidence: "EXTRACTED", _tgt: "cluster_score_all", target: "cluster_score_all", source: "cluster_cluster" });
    });
    const triples = graph.outEdges("cluster_cluster").map((e) => graph.toTriple(e));
    const { actions, notes } = plan({ graph, documents, triples, question: "What does cluster() call?" });
    const del = actions.find((a) => a.type === "delete_edge");
    expect(del && formatAction(del)).toBe('delete_edge("cluster()", "calls", "score_all()")');
    expect(notes.get(del as (typeof actions)[number])).toMatch(/does not state it/);
    // The INFERRED calls of the same subject are left alone.
    expect(actions.filter((a) => a.type === "delete_edge")).toHaveLength(1);
  });

  it("adds nothing on a passage corpus", () => {
    const bundle = musique();
    const q = bundle.questions[0];
    if (!q) throw new Error("no question");
    const before = plan({ graph: bundle.graph, documents: bundle.documents.slice(0, 50), question: q.question });
    expect(before.actions.every((a) => !(before.notes.get(a) ?? "").includes("the code"))).toBe(true);
  });
});
