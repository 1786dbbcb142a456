import { beforeAll, describe, expect, it } from "vitest";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { GRAPHIFY_GRAPHS, readData } from "../test/data";
import type { KnowledgeGraph } from "./model";
import { nodeFromRecord } from "./model";
import { fileMatches, identifierWords, qualifiedName, resolveName } from "./resolve-name";

const graphify = (name: string) => parseGraphifyJson(readData("graphify", name, "graph.json"));

describe("resolveName on httpx", () => {
  let httpx: KnowledgeGraph;
  beforeAll(() => {
    httpx = graphify("httpx");
  });

  it("resolves Client to the class, not to the file node whose id is `client`", () => {
    expect(httpx.getNode("client")?.label).toBe("client.py");
    const r = resolveName({ graph: httpx, name: "Client" });
    expect(r.status).toBe("exact");
    expect(r.best).toMatchObject({ id: "client_client", label: "Client", matchedBy: "label", qualified: "client.py::Client" });
    expect(r.candidates.map((c) => c.id)).not.toContain("client");
  });

  it("lets an exact id win when no node carries that exact label", () => {
    const r = resolveName({ graph: httpx, name: "client" });
    expect(r.status).toBe("exact");
    expect(r.best).toMatchObject({ id: "client", matchedBy: "id" });
    // The class is still offered, below, as a case-insensitive match.
    expect(r.candidates[1]).toMatchObject({ id: "client_client", matchedBy: "normalized" });
    expect(resolveName({ graph: httpx, name: "client_client_init" }).best).toMatchObject({
      id: "client_client_init",
      matchedBy: "id",
    });
  });

  it.each([
    "client.py::Client",
    "httpx/raw/client.py::Client",
    "worked/httpx/raw/client.py::Client",
    "client::Client",
    "raw/client::Client",
    " client.py :: Client ",
  ])("resolves the qualified name %j", (name) => {
    const r = resolveName({ graph: httpx, name });
    expect(r.status).toBe("exact");
    expect(r.best).toMatchObject({ id: "client_client", matchedBy: "qualified" });
  });

  it("narrows by file: only the named file's nodes compete", () => {
    const all = resolveName({ graph: httpx, name: "handle_request" });
    expect(all.status).toBe("ambiguous");
    const inTransport = resolveName({ graph: httpx, name: "transport.py::.handle_request()" });
    expect(inTransport.candidates.every((c) => httpx.getNode(c.id)?.sourceFile?.endsWith("transport.py"))).toBe(true);
    expect(resolveName({ graph: httpx, name: "models.py::Request" }).best?.id).toBe("models_request");
    // client.py has no class Request, only two `.request()` methods: a case-folded qualified match.
    const folded = resolveName({ graph: httpx, name: "client.py::Request" });
    expect(folded.status).toBe("ambiguous");
    expect(folded.candidates.map((c) => [c.label, c.matchedBy, c.score])).toEqual([
      [".request()", "qualified", 85],
      [".request()", "qualified", 85],
    ]);
    expect(resolveName({ graph: httpx, name: "utils.py::Request" }).status).toBe("not_found");
  });

  it("reports a method name defined in many classes as ambiguous, all candidates ranked", () => {
    const r = resolveName({ graph: httpx, name: "__init__()", limit: 3 });
    expect(r.status).toBe("ambiguous");
    expect(r.best).toBeUndefined();
    const inits = [...httpx.nodes.values()].filter((n) => n.label === ".__init__()");
    expect(inits.length).toBe(20);
    // Every tied candidate is shown even beyond the limit: they are the ambiguity itself.
    expect(r.candidates.length).toBe(20);
    expect(new Set(r.candidates.map((c) => c.score)).size).toBe(1);
    const degrees = r.candidates.map((c) => httpx.degree(c.id));
    expect(degrees).toEqual([...degrees].sort((a, b) => b - a));
    // Same-file duplicates cannot be told apart by `file::label`, so they qualify by id.
    expect(r.candidates.find((c) => c.id === "client_client_init")?.qualified).toBe("client_client_init");
  });

  it("prefers the exact label, then the label without `()`/`.`", () => {
    expect(resolveName({ graph: httpx, name: ".send()" }).candidates[0]?.matchedBy).toBe("label");
    const bare = resolveName({ graph: httpx, name: "send" });
    expect(bare.status).toBe("ambiguous");
    expect(bare.candidates.map((c) => c.id).sort()).toEqual(["client_asyncclient_send", "client_client_send"]);
    const fn = resolveName({ graph: httpx, name: "is_success" });
    expect(fn.best).toMatchObject({ label: "is_success()", matchedBy: "label" });
  });

  it("gives fuzzy suggestions for an unknown name but never calls them exact", () => {
    const r = resolveName({ graph: httpx, name: "Clie" });
    expect(r.status).toBe("not_found");
    expect(r.best).toBeUndefined();
    expect(r.candidates[0]).toMatchObject({ id: "client_client", matchedBy: "fuzzy" });
    expect(r.candidates.every((c) => c.score < 50)).toBe(true);
    const dotted = resolveName({ graph: httpx, name: "BaseClient.send" });
    expect(dotted.status).toBe("not_found");
    expect(dotted.candidates[0]?.id).toBe("client_baseclient");
    expect(resolveName({ graph: httpx, name: "zzzz_nothing_like_it" })).toEqual({
      name: "zzzz_nothing_like_it",
      status: "not_found",
      candidates: [],
    });
    expect(resolveName({ graph: httpx, name: "   " }).status).toBe("not_found");
  });

  it("matches aliases (kept by replace_node) below labels", () => {
    const graph = graphify("httpx");
    const record = { ...(graph.getNode("client_client")?.attrs ?? {}), id: "client_client_copy", aliases: ["HttpxClient"] };
    graph.addNode(nodeFromRecord(record));
    expect(resolveName({ graph, name: "HttpxClient" }).best).toMatchObject({ id: "client_client_copy", matchedBy: "alias" });
    expect(resolveName({ graph, name: "httpxclient" }).best).toMatchObject({ id: "client_client_copy", score: 55 });
  });

  it("qualifiedName round-trips through the resolver for every node", () => {
    for (const id of httpx.nodes.keys()) {
      const q = qualifiedName(httpx, id);
      const r = resolveName({ graph: httpx, name: q });
      expect(r.status, q).toBe("exact");
      expect(r.best?.id, q).toBe(id);
    }
    expect(qualifiedName(httpx, "client_client")).toBe("client.py::Client");
    expect(qualifiedName(httpx, "no such node")).toBe("no such node");
  });
});

describe("resolveName on the other graphify graphs", () => {
  it.each(GRAPHIFY_GRAPHS)("%s: every node resolves back from its qualified name", (name) => {
    const graph = graphify(name);
    for (const id of graph.nodes.keys()) {
      expect(resolveName({ graph, name: qualifiedName(graph, id) }).best?.id).toBe(id);
    }
  });

  it("karpathy-repos: a node without a label resolves by its id-as-label, and the file/class collision holds", () => {
    const graph = graphify("karpathy-repos");
    expect(graph.getNode("wandb")?.attrs.label).toBeUndefined();
    expect(resolveName({ graph, name: "wandb" }).best).toMatchObject({ id: "wandb", matchedBy: "label" });
    expect(resolveName({ graph, name: "Trainer" }).best?.id).toBe("trainer_trainer");
    // Absolute machine paths: a short suffix is enough.
    expect(resolveName({ graph, name: "nanoGPT/train.py::get_batch()" }).best?.id).toBe("train_get_batch");
    expect(resolveName({ graph, name: "bench::get_batch" }).best?.id).toBe("bench_get_batch");
    expect(resolveName({ graph, name: "get_batch" }).status).toBe("ambiguous");
  });
});

describe("resolveName on MetaQA", () => {
  let kb: KnowledgeGraph;
  beforeAll(() => {
    kb = parseTriples(readData("metaqa", "kb.txt"));
  });

  it("folds case and diacritics", () => {
    expect(resolveName({ graph: kb, name: "GREGOIRE COLIN" }).best).toMatchObject({
      id: "Grégoire Colin",
      matchedBy: "normalized",
    });
    expect(resolveName({ graph: kb, name: "THE GIRL IN THE CAFE" }).best?.id).toBe("The Girl in the Café");
    expect(resolveName({ graph: kb, name: "Kismet" }).best).toMatchObject({ id: "Kismet", matchedBy: "label" });
  });

  it("two entities differing only in case: exact case wins, folded case is ambiguous", () => {
    expect(kb.getNode("Tom Hanks") && kb.getNode("tom hanks")).toBeTruthy();
    expect(resolveName({ graph: kb, name: "Tom Hanks" }).best?.id).toBe("Tom Hanks");
    expect(resolveName({ graph: kb, name: "tom hanks" }).best?.id).toBe("tom hanks");
    const folded = resolveName({ graph: kb, name: "TOM HANKS" });
    expect(folded.status).toBe("ambiguous");
    expect(folded.candidates.map((c) => c.id)).toEqual(["Tom Hanks", "tom hanks"]);
  });
});

describe("helpers", () => {
  it("identifierWords splits camel, acronym and snake case", () => {
    expect(identifierWords("HTTPTransport")).toEqual(["http", "transport"]);
    expect(identifierWords("._build_request()")).toEqual(["build", "request"]);
    expect(identifierWords("AsyncHTTPTransport")).toEqual(["async", "http", "transport"]);
  });

  it("fileMatches accepts path suffixes with or without extension", () => {
    expect(fileMatches("worked/httpx/raw/client.py", "client.py")).toBe(true);
    expect(fileMatches("worked/httpx/raw/client.py", "raw/client")).toBe(true);
    expect(fileMatches("worked/httpx/raw/client.py", "lient.py")).toBe(false);
    expect(fileMatches("worked/httpx/raw/client.py", "models.py")).toBe(false);
  });
});
