/**
 * `deeprefine review|apply --server` (issue #16) against the real route handlers behind a real
 * HTTP server: the refinement file becomes a proposal in the team's queue, graph.json stays as
 * it is, `status` shows the decisions, `pull` refuses until a change is applied and then writes
 * the approved version.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../../lib/test/data";
import { importGraphFromPath } from "../../lib/server/graphs/import-graph";
import { findProposals } from "../../lib/server/proposals/proposals";
import type { TestDatabase } from "../../lib/server/db/test-database";
import { useTestDatabase } from "../../lib/server/db/test-database";
import { createTestToken, createTestUser, signInHeaders } from "../../lib/server/auth/test-support";
import { POST as submit } from "../../app/api/proposals/route";
import { GET as proposal } from "../../app/api/proposals/[id]/route";
import { POST as approve } from "../../app/api/proposals/[id]/approve/route";
import { GET as exportGraph } from "../../app/api/graphs/[name]/export/route";
import type { Project } from "./test-project";
import { ORIGINAL_GRAPH, createProject, readGraph, run, writeRefinement } from "./test-project";

let db: TestDatabase;
let server: http.Server;
let url: string;
let token: string;
let project: Project;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route handlers differ only in their params
type Handler = (request: Request, ctx: { params: Promise<any> }) => Promise<Response>;
const routes: [RegExp, string, Handler, string[]][] = [
  [/^\/api\/proposals$/, "POST", submit, []],
  [/^\/api\/proposals\/([^/]+)$/, "GET", proposal, ["id"]],
  [/^\/api\/graphs\/([^/]+)\/export$/, "GET", exportGraph, ["name"]],
];

function startServer(): Promise<http.Server> {
  const s = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const { port } = s.address() as AddressInfo;
      const at = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
      const route = routes.find(([re, method]) => method === req.method && re.test(at.pathname));
      if (!route) {
        res.writeHead(404);
        res.end();
        return;
      }
      const match = route[0].exec(at.pathname) as RegExpExecArray;
      const params = Object.fromEntries(route[3].map((k, i) => [k, decodeURIComponent(match[i + 1] as string)]));
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const request = new Request(at, { method: req.method, headers, body: req.method === "GET" ? undefined : Buffer.concat(chunks) });
      const response = await route[2](request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

beforeAll(async () => {
  db = await useTestDatabase("deeprefine-server");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await createTestUser({ username: "ada", role: "admin" });
  await createTestUser({ username: "agnes", role: "reviewer" });
  token = (await createTestToken("agnes", "propose")).authorization.replace(/^Bearer /, "");
  server = await startServer();
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project = createProject();
}, 60_000);

afterAll(async () => {
  project.cleanup();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.cleanup();
});

describe("deeprefine with a Refinery server", () => {
  let proposalId = "";

  it("apply --server submits the file as one proposal and leaves graph.json alone", async () => {
    const file = writeRefinement(project, 'insert_edge("Client", "calls", "_build_request")');
    const r = await run(project, "apply", "--refinement-file", file, "--skip-trace-check", "--server", url, "--token", token, "--graph", "httpx", "--json");
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { proposal_id: string; url: string; labels: string[] };
    proposalId = out.proposal_id;
    expect(out.url).toBe(`${url}/proposals/${proposalId}`);
    expect(out.labels).toEqual(["HIGH"]);
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
    const queued = (await findProposals({ graph: "httpx" })).find((p) => p.id === proposalId);
    expect(queued?.submittedByName).toMatch(/agnes/);
    // Remembered without the token.
    const state = fs.readFileSync(`${project.state}/server.json`, "utf8");
    expect(state).toContain(proposalId);
    expect(state).not.toContain(token);
  });

  it("status shows the decisions; pull refuses while nothing is applied", async () => {
    const s = await run(project, "status", "--token", token);
    expect(s.code, s.err).toBe(0);
    expect(s.out).toMatch(/pending\s+HIGH\s+insert_edge\("Client", "calls", "_build_request"\)/);
    const p = await run(project, "pull", "--token", token);
    expect(p.code).toBe(1);
    expect(p.err).toMatch(/no applied change yet .* graph.json is unchanged/);
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
  });

  it("after a person approves on the server, pull writes the approved version", async () => {
    const res = await approve(
      new Request(`${url}/api/proposals/${proposalId}/approve`, { method: "POST", headers: { "content-type": "application/json", ...(await signInHeaders("ada")) }, body: JSON.stringify({ actions: [0] }) }),
      { params: Promise.resolve({ id: proposalId }) },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const p = await run(project, "pull", "--token", token);
    expect(p.code, p.err).toBe(0);
    expect(p.out).toMatch(/version 2 of httpx/);
    const pulled = JSON.parse(readGraph(project).toString("utf8")) as { links: { source: string; target: string; relation: string }[] };
    expect(pulled.links.some((l) => l.relation === "calls" && /_build_request/.test(l.target) && /client/i.test(l.source))).toBe(true);
  });

  it("bad set-ups say what to do: no token, a wrong token, a graph the server lacks", async () => {
    const file = writeRefinement(project, 'insert_edge("Client", "calls", "_build_request")', "refinement_actions_other.txt");
    const noToken = await run(project, "review", "--refinement-file", file, "--server", url);
    expect(noToken.code).toBe(2);
    expect(noToken.err).toMatch(/--server needs --token or REFINERY_TOKEN/);
    const wrong = await run(project, "review", "--refinement-file", file, "--server", url, "--token", "rfy_wrong");
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/the server says/);
    const missing = await run(project, "review", "--refinement-file", file, "--server", url, "--token", token, "--graph", "nope");
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope/);
  });

  it("more than 10 entries, some unparseable: all reach the queue, the unparseable LOW with the parse error; the agent and model are recorded", async () => {
    const names = ["Client", "AsyncClient", "Request", "Response", "Timeout", "Limits", "URL", "Headers", "Cookies", "Auth"];
    const lines = [...names.map((n) => `insert_edge("${n}", "uses", "Proxy")`), 'insert_edge("Client", "calls")', 'frobnicate("Client", "calls", "send")'];
    const file = writeRefinement(project, lines.join("\n"), "refinement_actions_many.txt");
    const r = await run(project, "review", "--refinement-file", file, "--server", url, "--token", token, "--graph", "httpx", "--model", "qwen3-8b", "--json");
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { proposal_id: string; labels: string[] };
    expect(out.labels).toHaveLength(12);
    expect(out.labels.slice(10)).toEqual(["LOW", "LOW"]);
    const queued = (await findProposals({ graph: "httpx", origin: "agent" })).find((p) => p.id === out.proposal_id);
    expect({ origin: queued?.origin, agentName: queued?.agentName, agentModel: queued?.agentModel }).toEqual({ origin: "agent", agentName: "DeepRefine", agentModel: "qwen3-8b" });
    const warnings = queued?.actions.slice(10).map((a) => a.review.warnings.find((w) => w.code === "UNPARSEABLE")?.message);
    expect(warnings?.every((w) => typeof w === "string" && w.length > 0)).toBe(true);
    const s = await run(project, "status", "--token", token, "--proposal", out.proposal_id);
    expect(s.out).toMatch(/pending\s+LOW\s+.*frobnicate/);
  });
});
