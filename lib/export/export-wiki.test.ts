import { describe, expect, it } from "vitest";
import { KnowledgeGraph, nodeFromRecord } from "../graph/model";
import type { JsonObject } from "../json/lossless-json";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import type { Wiki, WikiFile } from "./export-wiki";
import { buildWiki, escapeMarkdown, wikiSlug } from "./export-wiki";

const graphify = (name: string) => parseGraphifyJson(readData("graphify", name, "graph.json"), { source: name });

function file(wiki: Wiki, path: string): string {
  const f = wiki.files.find((x) => x.path === path);
  if (!f) throw new Error(`no ${path} in ${wiki.files.map((x) => x.path).join(", ")}`);
  return f.content;
}

/** Link targets of `[text](target)`, skipping an escaped `\]`. */
function links(content: string): string[] {
  return [...content.matchAll(/(?<!\\)\]\(([^)\s]*)\)/g)].map((m) => m[1] as string);
}

function resolve(from: string, target: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

/** Every link in every page names a page of the wiki. */
function expectLinksResolve(wiki: Wiki): number {
  const paths = new Set(wiki.files.map((f) => f.path));
  let count = 0;
  for (const f of wiki.files) {
    for (const target of links(f.content)) {
      expect(target).toMatch(/^[a-z0-9./-]+\.md$/);
      expect(paths.has(resolve(f.path, target)), `${f.path} → ${target}`).toBe(true);
      count++;
    }
  }
  return count;
}

/** Unescaped `|` in a line (a `\` escapes the next character). */
function pipes(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === "|") n++;
  }
  return n;
}

/** Every table row has as many cells as its header. */
function expectTablesIntact(f: WikiFile): void {
  let width: number | null = null;
  for (const line of f.content.split("\n")) {
    if (!line.startsWith("|")) {
      width = null;
      continue;
    }
    width ??= pipes(line);
    expect(pipes(line), `${f.path}: ${line}`).toBe(width);
  }
}

function expectSafePaths(wiki: Wiki): void {
  const seen = new Set<string>();
  for (const f of wiki.files) {
    expect(f.path).toMatch(/^(index|(communities|nodes)\/[a-z0-9]+(-[a-z0-9]+)*)\.md$/);
    expect(seen.has(f.path)).toBe(false);
    seen.add(f.path);
  }
}

function row(content: string, first: string): string[] {
  const line = content.split("\n").find((l) => l.startsWith(`| ${first} |`));
  if (!line) throw new Error(`no row ${first}`);
  return line.split(" | ").map((c) => c.replace(/^\| |\|$/g, "").trim());
}

describe("buildWiki on httpx", () => {
  const graph = graphify("httpx");
  const wiki = buildWiki({ graph, title: "httpx", version: 7, documents: 6 });
  const index = file(wiki, "index.md");

  it("writes an index, one page per community and one per hub node", () => {
    expect(wiki.files[0]?.path).toBe("index.md");
    expect(wiki.files.filter((f) => f.path.startsWith("communities/"))).toHaveLength(6);
    expect(wiki.files.filter((f) => f.path.startsWith("nodes/"))).toHaveLength(20);
    expect(wiki.files).toHaveLength(27);
    expectSafePaths(wiki);
  });

  it("gives the right totals in the index", () => {
    expect(index.startsWith("# httpx\n\nVersion: 7\n")).toBe(true);
    expect(row(index, "Nodes")[1]).toBe("144");
    expect(row(index, "Edges")[1]).toBe("330");
    expect(row(index, "Communities")[1]).toBe("6");
    expect(row(index, "Documents")[1]).toBe("6");
    expect(row(index, "EXTRACTED").slice(1)).toEqual(["174", "52.7%"]);
    expect(row(index, "INFERRED").slice(1)).toEqual(["156", "47.3%"]);
    expect(row(index, "AMBIGUOUS").slice(1)).toEqual(["0", "0.0%"]);
    expect(row(index, "uses")[1]).toBe("110");
    expect(row(index, "imports_from")[1]).toBe("10");
  });

  it("lists communities by size with node and edge counts that add up", () => {
    const rows = index.split("\n").filter((l) => l.startsWith("| [Community "));
    expect(rows.map((l) => /\[Community (\d+)\]/.exec(l)?.[1])).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(row(index, "[Community 0](communities/community-0.md)").slice(1, 4)).toEqual(["30", "47", "48"]);
    const sizes = rows.map((l) => Number(l.split(" | ")[1]));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(144);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1] as number);
    const inside = rows.map((l) => Number(l.split(" | ")[2]));
    const out = rows.map((l) => Number(l.split(" | ")[3]));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    // Each crossing edge is counted by both of its communities.
    expect(sum(inside) + sum(out) / 2).toBe(330);
  });

  it("ranks hubs by degree like graphify's god nodes (file nodes left out)", () => {
    const hubRows = index.slice(index.indexOf("## Hub nodes"), index.indexOf("## Relations")).split("\n").filter((l) => l.startsWith("| ["));
    expect(hubRows).toHaveLength(20);
    const names = hubRows.map((l) => /^\| \[([^\]]+)\]/.exec(l)?.[1]);
    expect(names.slice(0, 9)).toEqual([
      "Client",
      "AsyncClient",
      "Response",
      "Request",
      "BaseClient",
      "HTTPTransport",
      "BaseTransport",
      "AsyncHTTPTransport",
      "Headers",
    ]);
    expect(names).not.toContain("exceptions.py");
    expect(hubRows[0]).toBe(
      "| [Client](nodes/client.md) | 26 | [Community 2](communities/community-2.md) | worked/httpx/raw/client.py:L70 |",
    );
    const withFiles = buildWiki({ graph, title: "httpx", hubsIncludeFiles: true });
    expect(file(withFiles, "index.md")).toContain("| [exceptions.py](nodes/exceptions-py.md) | 23 |");
  });

  it("writes community pages with key concepts, cross links, source files and an audit", () => {
    const c5 = file(wiki, "communities/community-5.md");
    expect(c5).toContain("- Nodes: 9\n- Edges inside: 10\n- Edges to other communities: 2\n");
    expect(c5).toContain("- Cohesion (edges inside / node pairs): 0.28"); // graphify's report says 0.28 too
    expect(c5).toContain("| utils.py | 10 | worked/httpx/raw/utils.py:L1 |");
    expect(c5).toContain("| [Community 1](community-1.md) | 1 | client.py —imports_from→ utils.py |");
    expect(c5).toContain("| worked/httpx/raw/utils.py | 9 |");
    expect(row(c5, "EXTRACTED").slice(1)).toEqual(["10", "83.3%"]);
    expect(row(c5, "INFERRED").slice(1)).toEqual(["2", "16.7%"]);
    const c0 = file(wiki, "communities/community-0.md");
    expect(c0).toContain("- Cohesion (edges inside / node pairs): 0.11");
    const c4 = file(wiki, "communities/community-4.md");
    // Examples are triples in stored direction, linking hub pages.
    expect(c4).toContain("[HTTPTransport](../nodes/httptransport.md) —uses→ [TransportError](../nodes/transporterror.md)");
  });

  it("writes hub pages with connections grouped by relation, in stored direction", () => {
    const page = file(wiki, "nodes/request.md");
    expect(page.startsWith("# Request\n\n[← Index](../index.md) · [Community 1](../communities/community-1.md)\n")).toBe(true);
    expect(page).toContain("| Qualified name | models.py::Request |");
    expect(page).toContain("| Source | worked/httpx/raw/models.py:L68 |");
    expect(page).toContain("| Degree | 21 (3 outgoing, 18 incoming) |");
    expect(page).toContain("### uses (18)");
    expect(page).toContain("- Request —uses→ HTTPStatusError · INFERRED · [Community 4](../communities/community-4.md)");
    expect(page).toContain("- [Client](client.md) —uses→ Request · INFERRED · [Community 2](../communities/community-2.md)");
    // Every edge of the node is listed once (no caps hit at this size).
    const client = file(wiki, "nodes/client.md");
    const total = [...client.matchAll(/^### .* \((\d+)\)$/gm)].reduce((s, m) => s + Number(m[1]), 0);
    expect(total).toBe(26);
    expect(client.split("\n").filter((l) => l.startsWith("- ") && l.includes("→"))).toHaveLength(26);
  });

  it("gives same-label hubs distinct slugs from their qualified names", () => {
    expect(index).toContain("[.request()](nodes/client-asyncclient-request.md)");
    expect(index).toContain("[Request](nodes/request.md)");
  });

  it("links only to pages that exist", () => {
    expect(expectLinksResolve(wiki)).toBeGreaterThan(500);
    for (const f of wiki.files) expectTablesIntact(f);
  });

  it("is deterministic", () => {
    const again = buildWiki({ graph: graphify("httpx"), title: "httpx", version: 7, documents: 6 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(wiki));
  });

  it("honours hubLimit", () => {
    expect(buildWiki({ graph, title: "x", hubLimit: 0 }).files.filter((f) => f.path.startsWith("nodes/"))).toHaveLength(0);
    const five = buildWiki({ graph, title: "x", hubLimit: 5 });
    expect(five.files.filter((f) => f.path.startsWith("nodes/"))).toHaveLength(5);
    expectLinksResolve(five);
  });
});

describe("buildWiki on other real graphs", () => {
  it("karpathy-repos: nodes without labels show their id", () => {
    const graph = graphify("karpathy-repos");
    const unlabeled = [...graph.nodes.values()].filter((n) => n.attrs.label === undefined);
    expect(unlabeled.length).toBeGreaterThan(0);
    const wiki = buildWiki({ graph, title: "karpathy" });
    expectSafePaths(wiki);
    expectLinksResolve(wiki);
    const all = wiki.files.map((f) => f.content).join("\n");
    for (const n of unlabeled.slice(0, 5)) expect(all).toContain(escapeMarkdown(n.id));
    expect(row(file(wiki, "index.md"), "Nodes")[1]).toBe(String(graph.nodes.size));
    expect(row(file(wiki, "index.md"), "Communities")[1]).toBe("17");
  });

  it("rsl-siege-manager: a large graph builds, with every community paged", () => {
    const graph = graphify("rsl-siege-manager");
    expect(graph.nodes.size).toBe(1886);
    const wiki = buildWiki({ graph, title: "rsl" });
    const communities = new Set([...graph.nodes.values()].map((n) => n.community));
    expect(wiki.files.filter((f) => f.path.startsWith("communities/"))).toHaveLength(communities.size);
    expect(wiki.files.filter((f) => f.path.startsWith("nodes/"))).toHaveLength(20);
    expectSafePaths(wiki);
    expectLinksResolve(wiki);
    for (const f of wiki.files) expectTablesIntact(f);
    const bytes = wiki.files.reduce((s, f) => s + f.content.length, 0);
    expect(bytes).toBeLessThan(2_000_000);
  });

  it("caps community pages and says so in the index", () => {
    const graph = graphify("rsl-siege-manager");
    const total = new Set([...graph.nodes.values()].map((n) => n.community)).size;
    const wiki = buildWiki({ graph, title: "rsl", communityLimit: 50 });
    expect(wiki.files.filter((f) => f.path.startsWith("communities/"))).toHaveLength(50);
    const index = file(wiki, "index.md");
    expect(index).toContain(`Only the 50 communities with the most nodes have a page; ${total - 50} more (`);
    expect(row(index, "Communities")[1]).toBe(String(total));
    expectLinksResolve(wiki);
  });

  it("countries triples (no communities): groups by connected component and says so", () => {
    const graph = parseTriples(readData("countries_S1", "graph.txt"));
    const wiki = buildWiki({ graph, title: "Countries" });
    const index = file(wiki, "index.md");
    expect(index).toContain("This graph has no community assignments, so nodes are grouped by connected component instead.");
    expect(row(index, "Communities")[1]).toBe("0");
    expect(row(index, "Connected components")[1]).toBe("2");
    expect(index).toContain("| [Component 1](communities/component-1.md) | 210 |");
    expect(index).toContain("| [Component 2](communities/component-2.md) | 61 |");
    expect(row(index, "(none)").slice(1)).toEqual([String(graph.edges.size), "100.0%"]);
    const c1 = file(wiki, "communities/component-1.md");
    expect(c1).toContain("No edges leave this component.");
    expect(c1).toContain("No node here names a source file.");
    expect(c1).toContain(" … and 10 more.");
    expectLinksResolve(wiki);
  });

  it("metaqa (43k nodes) stays bounded", () => {
    const graph = parseTriples(readData("metaqa", "kb.txt"), { source: "kb.txt" });
    expect(graph.nodes.size).toBeGreaterThan(40_000);
    const wiki = buildWiki({ graph, title: "MetaQA" });
    expect(wiki.files.length).toBeLessThanOrEqual(1 + 300 + 20);
    for (const f of wiki.files) expect(f.content.length).toBeLessThan(100_000);
    expectSafePaths(wiki);
    expectLinksResolve(wiki);
  });
});

function hostileGraph(): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  const labels = [
    "<script>alert(1)</script>",
    "a | b || c",
    "*bold* and **strong**",
    "[click](javascript:alert(1))",
    "```code``` and `tick`",
    "line one\nline two\r\n| fake | row |",
    "__init__",
    "# not a heading #",
    "- not a list",
    "1. not a list either",
    "back\\slash\\",
    "../../etc/passwd",
    "con",
    "Ünïcødé naïve café",
    "foo",
    "FOO",
    "&lt;b&gt; entity",
    "<img src=x onerror=alert(1)>",
  ];
  const record = (id: string, label: string, community: string): JsonObject => ({
    id,
    label,
    community,
    source_file: "src/<evil>|file.py",
    source_location: "L1",
    file_type: "code",
  });
  labels.forEach((label, i) => graph.addNode(nodeFromRecord(record(`n${i}`, label, i % 2 ? "evil|<b>comm</b>" : "../up"))));
  graph.addNode(nodeFromRecord({ id: "hub", label: "Hub `x` | <script>", community: "evil|<b>comm</b>" }));
  labels.forEach((_, i) => {
    graph.addEdge({ source: "hub", target: `n${i}`, relation: i % 3 ? "rel|<i>x</i>" : "calls", attrs: { confidence: i % 4 ? "AMBIGUOUS" : "<b>" } });
    graph.addEdge({ source: `n${i}`, target: `n${(i + 1) % labels.length}`, relation: "next", attrs: { confidence: "INFERRED" } });
  });
  return graph;
}

describe("buildWiki escapes hostile labels", () => {
  const wiki = buildWiki({ graph: hostileGraph(), title: "<script>x</script> | title", version: "v<1>", hubLimit: 30 });

  it("emits no raw HTML and keeps tables and links intact", () => {
    expect(wiki.files.filter((f) => f.path.startsWith("nodes/"))).toHaveLength(19);
    for (const f of wiki.files) {
      expect(f.content).not.toMatch(/<|>/);
      expectTablesIntact(f);
    }
    expectSafePaths(wiki);
    expectLinksResolve(wiki);
    const index = file(wiki, "index.md");
    expect(index.startsWith("# &lt;script&gt;x&lt;/script&gt; \\| title\n\nVersion: v&lt;1&gt;\n")).toBe(true);
  });

  it("escapes each kind of markup", () => {
    const all = wiki.files.map((f) => f.content).join("\n");
    expect(all).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(all).toContain("a \\| b \\|\\| c");
    expect(all).toContain("\\*bold\\* and \\*\\*strong\\*\\*");
    expect(all).toContain("\\[click\\](javascript:alert(1))");
    expect(all).toContain("\\`\\`\\`code\\`\\`\\` and \\`tick\\`");
    expect(all).toContain("line one line two \\| fake \\| row \\|");
    expect(all).toContain("\\_\\_init\\_\\_");
    expect(all).toContain("\\# not a heading \\#");
    expect(all).toContain("back\\\\slash\\\\");
    expect(all).toContain("&amp;lt;b&amp;gt; entity");
    expect(all).not.toMatch(/(?<!\\)\]\(javascript/);
    // Headings and list items that would change block structure are neutralised.
    expect(file(wiki, "nodes/not-a-list.md").startsWith("# \\- not a list\n")).toBe(true);
    expect(file(wiki, "nodes/1-not-a-list-either.md").startsWith("# 1\\. not a list either\n")).toBe(true);
  });

  it("makes safe, unique slugs", () => {
    const nodes = wiki.files.filter((f) => f.path.startsWith("nodes/")).map((f) => f.path);
    expect(nodes).toContain("nodes/etc-passwd.md");
    expect(nodes).toContain("nodes/unicode-naive-cafe.md");
    expect(nodes).toContain("nodes/foo.md");
    expect(nodes).not.toContain("nodes/con.md");
    const communities = wiki.files.filter((f) => f.path.startsWith("communities/")).map((f) => f.path);
    expect(communities.sort()).toEqual(["communities/evil-b-comm-b.md", "communities/up.md"]);
  });

  it("is deterministic", () => {
    const again = buildWiki({ graph: hostileGraph(), title: "<script>x</script> | title", version: "v<1>", hubLimit: 30 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(wiki));
  });

  it("lists ambiguous edges for review", () => {
    const page = wiki.files.find((f) => f.path === "communities/evil-b-comm-b.md")?.content ?? "";
    expect(page).toContain("Ambiguous edges to check:");
    expect(row(page, "AMBIGUOUS")[1]).not.toBe("0");
    expect(row(page, "&lt;b&gt;")[1]).not.toBe("0");
  });
});

describe("slugs and escaping", () => {
  it("wikiSlug is ASCII lower-case and never empty or a path", () => {
    expect(wikiSlug("HTTPTransport")).toBe("httptransport");
    expect(wikiSlug("../../x/y")).toBe("x-y");
    expect(wikiSlug("..")).toBe("page");
    expect(wikiSlug("", "node")).toBe("node");
    expect(wikiSlug("数据")).toBe("page");
    expect(wikiSlug("a".repeat(200))).toHaveLength(60);
    expect(wikiSlug(`${"a".repeat(59)} b`)).toBe("a".repeat(59));
  });

  it("escapeMarkdown leaves plain identifiers readable", () => {
    expect(escapeMarkdown("build_url_with_params()")).toBe("build_url_with_params()");
    expect(escapeMarkdown("_private")).toBe("\\_private");
    expect(escapeMarkdown("x".repeat(300))).toHaveLength(160);
  });
});

describe("buildWiki edge cases", () => {
  it("an empty graph gives an index only", () => {
    const wiki = buildWiki({ graph: new KnowledgeGraph(), title: "Empty" });
    expect(wiki.files.map((f) => f.path)).toEqual(["index.md"]);
    expect(file(wiki, "index.md")).toContain("The graph is empty.");
  });

  it("nodes without a community in a graph with communities form a 'No community' group", () => {
    const graph = parseGraphifyJson(
      JSON.stringify({
        nodes: [
          { id: "a", community: 1 },
          { id: "b", community: 1 },
          { id: "c" },
        ],
        links: [
          { source: "a", target: "b", relation: "r", confidence: "EXTRACTED" },
          { source: "b", target: "c", relation: "r", confidence: "INFERRED" },
        ],
      }),
    );
    const wiki = buildWiki({ graph, title: "t" });
    expect(wiki.files.map((f) => f.path)).toEqual([
      "index.md",
      "communities/community-1.md",
      "communities/no-community.md",
      "nodes/b.md",
      "nodes/a.md",
      "nodes/c.md",
    ]);
    expect(file(wiki, "communities/community-1.md")).toContain("| [No community](no-community.md) | 1 | [b](../nodes/b.md) —r→ [c](../nodes/c.md) |");
    expectLinksResolve(wiki);
  });
});
