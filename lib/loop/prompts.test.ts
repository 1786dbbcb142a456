import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Triple } from "../graph/model";
import { SHARED_DATA } from "../test/data";
import {
  buildAbductionPrompt,
  buildJudgePrompt,
  buildOriginalText,
  buildRefinementPrompt,
  documentIdsForTriples,
  formatHistory,
  formatTriples,
} from "./prompts";
import { httpx, musique } from "./test-support";

const SEEDS = path.resolve(SHARED_DATA, "..", "seeds");
const seedFile = fs.existsSync(SEEDS) ? fs.readdirSync(SEEDS).find((f) => f.startsWith("000_")) : undefined;
/** The seed with its whitespace-only lines emptied (the copy there has stray spaces on blank lines). */
const seed = seedFile ? fs.readFileSync(path.join(SEEDS, seedFile), "utf8").replace(/^[ \t]+$/gm, "") : "";

const t = (subject: string, relation: string, object: string): Triple => ({ subject, relation, object, subject_id: subject, object_id: object });

describe("prompts", () => {
  it.runIf(seed !== "")("use the seed's wording verbatim", () => {
    const judge = buildJudgePrompt({ question: "Q?", triples: [] });
    const abduction = buildAbductionPrompt({ history: [] });
    const refinement = buildRefinementPrompt({ question: "Q?", triples: [], abduction: "E", originalText: "T", maxActions: 10 });
    for (const m of [...judge, ...abduction, ...refinement]) {
      if (m.role === "system") expect(seed).toContain(m.content);
    }
    expect(seed).toContain("Question: {question}\nKnowledge Graph (KG) context: {triples_string}");
    expect(seed).toContain("Interaction history: {interaction_history}");
    expect(seed).toContain("Original Text: {original_text}\nKG: {triples_string}\nQuestion: {question}\nError reasons: {error_reasons}");
  });

  it("fill in the fields", () => {
    const judge = buildJudgePrompt({ question: "Who directed Kismet?", triples: [t("Kismet", "directed_by", "William Dieterle")] });
    expect(judge.map((m) => m.role)).toEqual(["system", "user"]);
    expect(judge[0]?.content).toContain("<judge>Yes</judge> or <judge>No</judge>");
    expect(judge[1]?.content).toBe("Question: Who directed Kismet?\nKnowledge Graph (KG) context: (Kismet, directed_by, William Dieterle)");

    const refinement = buildRefinementPrompt({ question: "Q?", triples: [t("a", "r", "b")], abduction: "missing edge", originalText: "", maxActions: 3 });
    expect(refinement[0]?.content).toContain("(**within 3 actions**)");
    expect(refinement[1]?.content).toBe("Original Text: (no source text available)\nKG: (a, r, b)\nQuestion: Q?\nError reasons: missing edge");
  });

  it("format triples one per line, and say when there are none", () => {
    expect(formatTriples([t("a", "r", "b"), t("Paris, France", "capital of", "France")])).toBe("(a, r, b)\n(Paris, France, capital of, France)");
    expect(formatTriples([])).toBe("(no triples)");
  });

  it("format the interaction history exactly like DeepRefine", () => {
    const history = formatHistory([
      { query: "Who?", numHops: 0, triples: [t("Hank Snow", "performer of", "Hello Love")], answerable: false },
      { query: "Who?", numHops: 1, triples: [t("O'Brien", "said", 'a "b" \\ c'), t("x", "y\nz", "w")], answerable: true },
    ]);
    expect(history).toBe(
      "Step1:\n['Query': Who?, 'Subgraph_hop': 0, 'Subgraph_content': [{'subject': 'Hank Snow', 'relation': 'performer of', 'object': 'Hello Love'}], 'Answerable': False]\n\n" +
        `Step2:\n['Query': Who?, 'Subgraph_hop': 1, 'Subgraph_content': [{'subject': "O'Brien", 'relation': 'said', 'object': 'a "b" \\\\ c'}, {'subject': 'x', 'relation': 'y\\nz', 'object': 'w'}], 'Answerable': True]`,
    );
    expect(buildAbductionPrompt({ history: [] })[1]?.content).toBe("Interaction history: ");
  });
});

describe("buildOriginalText", () => {
  it("gives the MuSiQue passages behind a subgraph, each once, title first", () => {
    const { graph, documents } = musique();
    const edges = graph.outEdges("Journal of Psychotherapy Integration");
    const triples = [...edges.map((e) => graph.toTriple(e)), ...edges.map((e) => graph.toTriple(e))];
    expect(documentIdsForTriples({ graph, triples })).toEqual(["musique-p0006"]);
    const text = buildOriginalText({ triples, graph, documents });
    expect(text.startsWith("Journal of Psychotherapy Integration\nThe Journal of Psychotherapy Integration is a peer-reviewed")).toBe(true);
    expect(text.split("Journal of Psychotherapy Integration\n").length).toBe(2);
  });

  it("stays within maxChars, cutting the last passage that does not fit", () => {
    const { graph, documents } = musique();
    const hall = graph.outEdges("G. Stanley Hall").concat(graph.inEdges("American Psychological Association"));
    const triples = hall.map((e) => graph.toTriple(e));
    const ids = documentIdsForTriples({ graph, triples });
    expect(ids).toEqual(["musique-p0010", "musique-p0006", "musique-p0018"]);
    const full = buildOriginalText({ triples, graph, documents, maxChars: 1_000_000 });
    const cut = buildOriginalText({ triples, graph, documents, maxChars: 1500 });
    expect(full.length).toBeGreaterThan(1500);
    expect(cut.length).toBeLessThanOrEqual(1500);
    expect(full.startsWith(cut.slice(0, -1))).toBe(true);
    expect(buildOriginalText({ triples, graph, documents: [] })).toBe("");
  });

  it("gives numbered source lines around graphify source locations, merged per file", () => {
    const { graph, documents } = httpx();
    const send = [...graph.nodes.values()].find((n) => n.label === ".send()" && n.sourceFile?.endsWith("client.py"));
    expect(send?.sourceLocation).toBeTruthy();
    const triples = graph.incidentEdges(send?.id ?? "").map((e) => graph.toTriple(e));
    expect(triples.length).toBeGreaterThan(0);
    const text = buildOriginalText({ triples, graph, documents });
    const line = Number(send?.sourceLocation?.slice(1));
    const clientLines = fs.readFileSync(path.join(SHARED_DATA, "graphify", "httpx", "raw", "client.py"), "utf8").split("\n");
    expect(text).toContain(`httpx/raw/client.py:${line}: ${clientLines[line - 1]}`);
    // Windows merge: no line is printed twice.
    const printed = text.split("\n").filter((l) => /^httpx\/raw\/\w+\.py:\d+: /.test(l)).map((l) => l.replace(/: .*/, ""));
    expect(new Set(printed).size).toBe(printed.length);
  });
});
