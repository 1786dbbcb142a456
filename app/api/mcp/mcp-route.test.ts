/**
 * The MCP server (issue #16) through the SDK's own client: over Streamable HTTP against the real
 * route handler behind a real HTTP server (API tokens), and over stdio against `refinery mcp`.
 * Every tool is called; a propose token's proposal lands in the review queue; a read token may
 * not propose; no tool decides.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { dataPath } from "@/lib/test/data";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { findProposals, getProposal } from "@/lib/server/proposals/proposals";
import { findProposalPage } from "@/lib/server/proposals/find-proposal-page";
import { approveActions } from "@/lib/server/approvals/approvals";
import { isAppError } from "@/lib/errors";
import { getDb } from "@/lib/server/db/db";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { createTestToken, createTestUser } from "@/lib/server/auth/test-support";
import { MCP_TOOLS, resetMcpRateLimits } from "@/lib/server/http/mcp/refinery-mcp";
import { DELETE, GET, POST } from "./route";

let db: TestDatabase;
let server: http.Server;
let url: string;
let readToken: string;
let proposeToken: string;
const clients: Client[] = [];

/** A real HTTP server in front of the route handlers, as `next start` puts it. */
function startServer(): Promise<http.Server> {
  const handlers: Record<string, (r: Request) => Promise<Response>> = { POST, GET, DELETE };
  const s = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const { port } = s.address() as AddressInfo;
      const method = req.method ?? "GET";
      const request = new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, { method, headers, body: method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks) });
      const handler = handlers[method];
      const response = handler ? await handler(request) : new Response(null, { status: 405 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        const reader = response.body.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
      }
      res.end();
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

async function connect(authorization: string): Promise<Client> {
  const client = new Client({ name: "refinery-test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization } } }));
  clients.push(client);
  return client;
}

function textOf(result: unknown): string {
  const r = result as CallToolResult;
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

function jsonOf<T = unknown>(result: unknown): T {
  const r = result as CallToolResult;
  expect(r.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result)) as T;
}

beforeAll(async () => {
  db = await useTestDatabase("mcp");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await createTestUser({ username: "ada", role: "admin" });
  await createTestUser({ username: "agnes", role: "reviewer" });
  readToken = (await createTestToken("agnes", "read")).authorization;
  proposeToken = (await createTestToken("agnes", "propose")).authorization;
  server = await startServer();
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.cleanup();
});

describe("MCP over Streamable HTTP", () => {
  it("lists exactly the reading and proposing tools: none approves, rejects, applies or reverts", async () => {
    const client = await connect(readToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    for (const t of tools) {
      expect(t.name).not.toMatch(/approve|reject|apply|revert|decide|withdraw|delete_graph/);
      expect(t.description?.length ?? 0).toBeGreaterThan(20);
    }
  });

  it("answers 401 without a token and 401 with a wrong one", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    expect((await fetch(url, { method: "POST", headers, body })).status).toBe(401);
    expect((await fetch(url, { method: "POST", headers: { ...headers, authorization: "Bearer rfy_not_a_token" }, body })).status).toBe(401);
  });

  it("reads: graphs, stats, nodes, a neighbourhood, query triples, an ask, a review without side effects", async () => {
    const client = await connect(readToken);
    const graphs = jsonOf<{ name: string }[]>(await client.callTool({ name: "list_graphs", arguments: {} }));
    expect(graphs.map((g) => g.name)).toContain("httpx");
    const stats = jsonOf<{ nodes: number; relations: { relation: string }[] }>(await client.callTool({ name: "graph_stats", arguments: { graph: "httpx" } }));
    expect(stats.nodes).toBeGreaterThan(50);
    expect(stats.relations.length).toBeGreaterThan(0);
    const found = jsonOf<{ hits: { id: string; label: string }[] }>(await client.callTool({ name: "search_nodes", arguments: { graph: "httpx", q: "Client", limit: 5 } }));
    const client0 = found.hits[0];
    expect(client0?.label).toMatch(/Client/);
    const hood = jsonOf<{ nodes: unknown[]; edges: unknown[] }>(await client.callTool({ name: "neighbourhood", arguments: { graph: "httpx", node: client0?.id ?? "", depth: 1 } }));
    expect(hood.nodes.length).toBeGreaterThan(1);
    const q = jsonOf<{ triples: { subject_id: string }[] }>(await client.callTool({ name: "query", arguments: { graph: "httpx", question: "How does Client send a Request?" } }));
    expect(q.triples.length).toBeGreaterThan(0);
    expect(q.triples[0]?.subject_id).toBeTruthy();
    const ask = jsonOf<{ status: string }>(await client.callTool({ name: "ask", arguments: { graph: "httpx", question: "What does Client inherit from?" } }));
    expect(ask.status).toBeTruthy();
    const before = (await findProposals({ graph: "httpx" })).length;
    const reviews = jsonOf<{ confidence: string; reasons: string[] }[]>(
      await client.callTool({ name: "review_actions", arguments: { graph: "httpx", actions: [{ type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" }] } }),
    );
    expect(["HIGH", "MEDIUM", "LOW"]).toContain(reviews[0]?.confidence);
    expect(reviews[0]?.reasons.length).toBeGreaterThan(0);
    expect((await findProposals({ graph: "httpx" })).length).toBe(before);
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain("refinery://graphs/httpx/report");
    const report = await client.readResource({ uri: "refinery://graphs/httpx/report" });
    expect(JSON.stringify(report.contents)).toMatch(/# httpx/);
  }, 60_000);

  it("a read token may not propose or start runs: a tool error names the missing permission", async () => {
    const client = await connect(readToken);
    const result = await client.callTool({ name: "submit_proposal", arguments: { graph: "httpx", actions: [{ type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" }] } });
    expect((result as CallToolResult).isError).toBe(true);
    expect(textOf(result)).toMatch(/FORBIDDEN: a read token does not have the "propose" permission/);
    const run = await client.callTool({ name: "run_loop", arguments: { graph: "httpx", question: "How does Client send requests?" } });
    expect(textOf(run)).toMatch(/FORBIDDEN/);
  });

  it("bad input names the field; an unknown graph says so", async () => {
    const client = await connect(readToken);
    const bad = await client.callTool({ name: "search_nodes", arguments: { graph: "httpx", q: "Client", limit: 0 } });
    expect((bad as CallToolResult).isError).toBe(true);
    expect(textOf(bad)).toMatch(/limit/);
    const unknown = await client.callTool({ name: "graph_stats", arguments: { graph: "no-such-graph" } });
    expect((unknown as CallToolResult).isError).toBe(true);
    expect(textOf(unknown)).toMatch(/NOT_FOUND|no graph/i);
  });

  it("a propose token submits a proposal into the review queue as the token's owner, marked as an agent's; proposal_status reads it", async () => {
    const client = await connect(proposeToken);
    const submitted = jsonOf<{ proposalId: string; labels: string[] }>(
      await client.callTool({
        name: "submit_proposal",
        arguments: {
          graph: "httpx",
          actions: [{ type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" }],
          question: "How does Client build requests?",
          evidence: "httpx/_client.py: Client.send calls self._build_request",
          agent: "Claude Code",
          model: "test-model",
        },
      }),
    );
    const queued = (await findProposals({ graph: "httpx" })).find((p) => p.id === submitted.proposalId);
    expect(queued?.source).toBe("agent");
    expect(queued?.submittedByName).toMatch(/agnes/);
    expect(queued?.question).toBe("How does Client build requests?\n\nAgent's evidence: httpx/_client.py: Client.send calls self._build_request");
    expect(queued?.actions).toHaveLength(1);
    expect({ origin: queued?.origin, agentName: queued?.agentName, agentModel: queued?.agentModel }).toEqual({ origin: "agent", agentName: "Claude Code", agentModel: "test-model" });
    const agents = await findProposalPage({ graph: "httpx", origin: "agent" });
    expect(agents.proposals.map((p) => p.id)).toContain(submitted.proposalId);
    expect(agents.summary.byOrigin.agent).toBeGreaterThanOrEqual(1);
    expect((await findProposalPage({ graph: "httpx", origin: "person" })).proposals.map((p) => p.id)).not.toContain(submitted.proposalId);
    const status = jsonOf<{ status: string; actions: { status: string }[]; rulesMining: unknown }>(await client.callTool({ name: "proposal_status", arguments: { id: submitted.proposalId } }));
    expect(status.status).toBe("pending");
    expect(status.actions[0]?.status).toBe("pending");
    // Null unless the review went ahead before httpx's rules were mined (they take well under the 2 s wait).
    expect(status).toHaveProperty("rulesMining");
  }, 60_000);

  it("more than 10 entries, some unparseable: every one is queued, the unparseable LOW with the parse error; nobody approves those, and the token's owner approves none", async () => {
    const client = await connect(proposeToken);
    const parsed = ["Client", "AsyncClient", "Request", "Response", "Timeout", "Limits", "URL", "Headers", "Cookies", "Auth"].map((n) => ({ type: "insert_edge", subject: n, relation: "uses", object: "Proxy" }));
    const entries = [...parsed, 'insert_edge("Client", "calls", "send")', "make Client faster please", { type: "insert_edge", subject: "Client", relation: "calls" }];
    const submitted = jsonOf<{ proposalId: string; labels: string[] }>(await client.callTool({ name: "submit_proposal", arguments: { graph: "httpx", actions: entries, agent: "Codex" } }));
    expect(submitted.labels).toHaveLength(13);
    const p = await getProposal(submitted.proposalId);
    expect(p.actions).toHaveLength(13);
    expect(p.actions[10]?.action).toEqual({ type: "insert_edge", subject: "Client", relation: "calls", object: "send" });
    for (const [index, error] of [[11, /insert_edge\/delete_edge\/replace_node/], [12, /object/]] as const) {
      const a = p.actions[index];
      expect(a?.confidence).toBe("LOW");
      expect(a?.review.warnings.find((w) => w.code === "UNPARSEABLE")?.message).toMatch(error);
    }
    expect(p.actions[11]?.review.text).toBe("make Client faster please");
    const ada = await getDb().user.findUniqueOrThrow({ where: { username: "ada" } });
    const person = { kind: "user", userId: ada.id, username: "ada", displayName: "ada", role: "admin", sessionId: "test" } as const;
    const refused = await approveActions({ proposalId: p.id, actionIndexes: [11], actor: person, lowConfidenceConfirmed: true, reason: "testing" }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.details).toMatchObject({ refusal: "CANNOT_APPLY" });
    const agnes = await getDb().user.findUniqueOrThrow({ where: { username: "agnes" } });
    const owner = { kind: "user", userId: agnes.id, username: "agnes", displayName: "agnes", role: "reviewer", sessionId: "test" } as const;
    const own = await approveActions({ proposalId: p.id, actionIndexes: [0], actor: owner, lowConfidenceConfirmed: true, reason: "testing" }).catch((e: unknown) => e);
    expect(isAppError(own) && own.message).toMatch(/submitted|own|separation/i);
  }, 60_000);

  it("run_loop starts a run (rate-limited per token); get_run follows it", async () => {
    resetMcpRateLimits();
    process.env.REFINERY_MCP_RUNS_PER_HOUR = "1";
    try {
      const client = await connect(proposeToken);
      const started = jsonOf<{ runId: string }>(await client.callTool({ name: "run_loop", arguments: { graph: "httpx", question: "How does Client send a Request?" } }));
      const again = await client.callTool({ name: "run_loop", arguments: { graph: "httpx", question: "What does Timeout use?" } });
      expect(textOf(again)).toMatch(/RATE_LIMITED: this token has started 1 runs in the last hour \(the limit is 1/);
      let run = jsonOf<{ status: string }>(await client.callTool({ name: "get_run", arguments: { id: started.runId } }));
      for (let i = 0; i < 100 && run.status === "running"; i++) {
        await new Promise((r) => setTimeout(r, 200));
        run = jsonOf<{ status: string }>(await client.callTool({ name: "get_run", arguments: { id: started.runId } }));
      }
      expect(run.status).not.toBe("running");
      const row = await getDb().run.findUniqueOrThrow({ where: { id: started.runId } });
      expect(row.startedByName).toMatch(/agnes/);
    } finally {
      delete process.env.REFINERY_MCP_RUNS_PER_HOUR;
    }
  }, 60_000);

  it("run_loop with wait reports each step as a progress notification and returns the finished run", async () => {
    resetMcpRateLimits();
    const client = await connect(proposeToken);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "run_loop", arguments: { graph: "httpx", question: "What does AsyncClient send?", wait: true } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 60_000,
    });
    const run = jsonOf<{ status: string; steps: number; startedByName: string | null }>(result);
    expect(run.status).not.toBe("running");
    expect(run.steps).toBeGreaterThan(0);
    expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: run.steps }, (_, i) => i + 1));
    expect(progress[0]?.message).toMatch(/^step 1 of at most \d+: \d+ triples, (answerable|not answerable yet)$/);
  }, 60_000);
});

describe("MCP over stdio (`refinery mcp`)", () => {
  it("serves the same tools on the local database", async () => {
    const client = new Client({ name: "refinery-test-agent", version: "1.0.0" });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env.DATABASE_URL = db.url;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.resolve(__dirname, "../../../bin/refinery.mjs"), "mcp"], env, stderr: "pipe" }));
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    const graphs = jsonOf<{ name: string }[]>(await client.callTool({ name: "list_graphs", arguments: {} }));
    expect(graphs.map((g) => g.name)).toContain("httpx");
  }, 60_000);
});
