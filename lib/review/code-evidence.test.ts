import { beforeAll, describe, expect, it } from "vitest";
import type { GraphEdge, GraphNode, KnowledgeGraph } from "../graph/model";
import { nodeFromRecord } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { httpx } from "../loop/test-support";
import type { CodeCheck } from "./code-evidence";
import { checkCodeRelation, codeLanguage, codeRelationKind, codeView, definitionRange, findCodeDefinition, isFileNode, stripComments } from "./code-evidence";

function confirmed(check: CodeCheck): { line: number; text: string; where: string } | null {
  return check.status === "confirmed" ? { line: check.hit.line, text: check.hit.text, where: check.where } : null;
}

describe("relations and languages", () => {
  it("maps graphify's relations and common synonyms onto checks", () => {
    expect(["calls", "imports", "imports_from", "inherits", "contains", "method", "uses", "references"].map(codeRelationKind)).toEqual([
      "calls",
      "imports",
      "imports",
      "inherits",
      "contains",
      "contains",
      "uses",
      "uses",
    ]);
    expect(codeRelationKind("Extends")).toBe("inherits");
    expect(codeRelationKind("imports from")).toBe("imports");
    expect(codeRelationKind("rationale_for")).toBeNull();
    expect([codeLanguage("a/b.py"), codeLanguage("x.tsx"), codeLanguage("y.mjs"), codeLanguage("z.md")]).toEqual(["python", "script", "script", null]);
  });

  it("blanks comments and docstrings but keeps strings", () => {
    expect(stripComments(['"""Doc', "calls foo()", '"""', "x = 1  # foo()", 's = "#not a comment"'], "python")).toEqual(["", "", "", "x = 1  ", 's = "#not a comment"']);
    expect(stripComments(["/* foo()", " */ bar(); // baz()", 'const u = "http://x";'], "script")).toEqual(["", " bar(); ", 'const u = "http://x";']);
  });
});

describe("Python checks on httpx's real sources", () => {
  let graph: KnowledgeGraph;
  let documents: Map<string, CorpusDocument>;
  const node = (id: string): GraphNode => {
    const n = graph.getNode(id);
    if (!n) throw new Error(id);
    return n;
  };
  const check = (subject: string, relation: string, object: string, pairEdges: GraphEdge[] = []) =>
    checkCodeRelation({ documents, relation, subject: node(subject), object: node(object), objectName: object, pairEdges });

  beforeAll(() => {
    ({ graph } = httpx());
    documents = new Map(httpx().documents.map((d) => [d.docId, d]));
  });

  it("finds the line that defines a node: two classes have two definitions; a file node has none", () => {
    expect(findCodeDefinition({ documents, node: node("client_client") })).toMatchObject({ line: 70, text: "class Client(BaseClient):" });
    const asyncClient = findCodeDefinition({ documents, node: node("client_asyncclient") });
    expect(asyncClient?.text).toMatch(/^class AsyncClient\(BaseClient\):/);
    expect(asyncClient?.line).not.toBe(70);
    expect(findCodeDefinition({ documents, node: node("client") })).toBeNull();
  });

  it("finds def/class bodies: multi-line signatures, class ends, file nodes", () => {
    const view = codeView(documents.get("worked/httpx/raw/client.py") as CorpusDocument, "python");
    // BaseClient.__init__ has its `):` at the def's own indent (L44); the body runs to L52.
    expect(definitionRange({ view, line: 37, language: "python" })).toEqual({ start: 37, end: 52 });
    expect(definitionRange({ view, line: 70, language: "python" })).toEqual({ start: 70, end: 120 });
    expect(definitionRange({ view, line: 16, language: "python" })).toEqual({ start: 16, end: 21 });
    expect(isFileNode(node("client"))).toBe(true);
    expect(isFileNode(node("client_client"))).toBe(false);
  });

  it("confirms each relation kind where the code states it", () => {
    expect(confirmed(check("client_client_request", "calls", "client_baseclient_merge_cookies"))).toEqual({ line: 84, text: "self._merge_cookies(response)", where: "body" });
    expect(confirmed(check("client", "imports_from", "models"))).toEqual({ line: 6, text: "from models import Request, Response, URL, Headers, Cookies", where: "body" });
    expect(confirmed(check("client", "imports", "auth_basicauth"))?.line).toBe(7);
    expect(confirmed(check("client_asyncclient", "inherits", "client_baseclient"))?.text).toBe("class AsyncClient(BaseClient):");
    expect(confirmed(check("client_baseclient", "method", "client_baseclient_merge_cookies"))?.line).toBe(65);
    expect(confirmed(check("client", "contains", "client_limits"))?.text).toBe("class Limits:");
    expect(confirmed(check("client_client", "uses", "models_response"))?.line).toBe(77);
  });

  it("reports absent when the body was read and does not show it", () => {
    const c = check("client_timeout", "uses", "models_request");
    expect(c).toMatchObject({ status: "absent", kind: "uses", range: { start: 16, end: 21 } });
    // A method defined in a class is not a call from it.
    expect(check("client_baseclient", "calls", "client_baseclient_build_request").status).toBe("absent");
    expect(check("client_client", "inherits", "auth_auth").status).toBe("absent");
  });

  it("starts from the source_location of an existing edge between the pair", () => {
    const edge = graph.outEdges("client_client").find((e) => e.target === "client_baseclient");
    expect(edge).toBeDefined();
    expect(confirmed(check("client_client", "inherits", "client_baseclient", edge ? [edge] : []))).toEqual({
      line: 70,
      text: "class Client(BaseClient):",
      where: "edge",
    });
  });

  it("says why it could not check", () => {
    expect(check("client_client", "rationale_for", "client_baseclient")).toMatchObject({ status: "unchecked" });
    const r = checkCodeRelation({ documents: new Map(), relation: "calls", subject: node("client_client"), object: null, objectName: "x", pairEdges: [] });
    expect(r).toEqual({ status: "unchecked", why: "the source worked/httpx/raw/client.py was not provided" });
  });
});

describe("TypeScript / JavaScript checks", () => {
  const source = `import { readFile } from "node:fs";
import type { Graph } from "../graph/model";
import {
  parseOne,
  parseTwo as second,
} from "./parse";
const legacy = require("./legacy.js");

// helper() is mentioned in a comment only
export class Store extends BaseStore implements Saver, Loader<Item> {
  private items: Item[] = [];

  save(item: Item): void {
    this.items.push(normalize(item));
  }

  async load(path: string): Promise<Graph> {
    const text = await readFile(path, "utf8");
    return parseOne(text);
  }
}

export function helper(x: number) {
  return { value: x };
}

const arrow = (s: string) => s.trim();
interface Named extends Base, Other {}
`;
  const doc: CorpusDocument = { docId: "src/store.ts", kind: "file", title: null, path: "src/store.ts", text: source };
  const documents = new Map([[doc.docId, doc]]);
  const mk = (id: string, label: string, line: number): GraphNode =>
    nodeFromRecord({ id, label, file_type: "code", source_file: "src/store.ts", source_location: `L${line}` });
  const file = mk("store", "store.ts", 1);
  const store = mk("store_store", "Store", 10);
  const save = mk("store_save", ".save()", 13);
  const load = mk("store_load", ".load()", 17);
  const helper = mk("store_helper", "helper()", 23);
  const named = mk("store_named", "Named", 28);
  const run = (subject: GraphNode, relation: string, objectName: string, object: GraphNode | null = null) =>
    checkCodeRelation({ documents, relation, subject, object, objectName });

  it("finds bodies by brace matching", () => {
    const view = codeView(doc, "script");
    expect(definitionRange({ view, line: 10, language: "script" })).toEqual({ start: 10, end: 21 });
    expect(definitionRange({ view, line: 13, language: "script" })).toEqual({ start: 13, end: 15 });
    expect(definitionRange({ view, line: 23, language: "script" })).toEqual({ start: 23, end: 25 });
    expect(definitionRange({ view, line: 27, language: "script" })).toEqual({ start: 27, end: 27 });
  });

  it("calls: `name(` inside the body only, not in comments or other functions", () => {
    expect(confirmed(run(save, "calls", "normalize"))?.line).toBe(14);
    expect(confirmed(run(load, "calls", "parseOne()"))?.line).toBe(19);
    expect(run(save, "calls", "parseOne").status).toBe("absent");
    expect(run(file, "calls", "helper").status).toBe("absent");
  });

  it("imports: named, renamed, multi-line, require()", () => {
    expect(confirmed(run(file, "imports_from", "parse"))?.line).toBe(3);
    expect(confirmed(run(file, "imports", "parseTwo"))?.line).toBe(3);
    expect(confirmed(run(file, "imports", "readFile"))?.line).toBe(1);
    expect(confirmed(run(file, "imports", "model"))?.line).toBe(2);
    expect(confirmed(run(file, "imports", "legacy"))?.line).toBe(7);
    expect(run(file, "imports", "lodash").status).toBe("absent");
  });

  it("inherits: extends, implements (generic), interface extends", () => {
    expect(confirmed(run(store, "inherits", "BaseStore"))?.text).toBe("export class Store extends BaseStore implements Saver, Loader<Item> {");
    expect(confirmed(run(store, "implements", "Loader"))?.line).toBe(10);
    expect(confirmed(run(named, "extends", "Other"))?.line).toBe(28);
    expect(run(store, "inherits", "Item").status).toBe("absent");
  });

  it("contains: methods, functions and consts defined in the body", () => {
    expect(confirmed(run(store, "method", ".load()", load))?.line).toBe(17);
    expect(confirmed(run(file, "contains", "helper()", helper))?.line).toBe(23);
    expect(confirmed(run(file, "contains", "arrow"))?.line).toBe(27);
    // A call is not a definition.
    expect(run(load, "contains", "parseOne").status).toBe("absent");
  });

  it("uses: the identifier anywhere in the body", () => {
    expect(confirmed(run(load, "uses", "Graph"))?.line).toBe(17);
    expect(run(helper, "uses", "Graph").status).toBe("absent");
  });
});
