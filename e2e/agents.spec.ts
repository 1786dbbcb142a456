/**
 * Agents in the team queue (issue #16) as a reviewer sees them: a coding agent connects the
 * MCP SDK's own client to /api/mcp with a `propose` token and submits a proposal (one entry of it
 * unparseable); a person submits one from the browser session. The queue shows each row's origin,
 * the "From" filter keeps only the agent's, the URL keeps the filter, and the proposal page says
 * which agent and model it came from and that the unparseable entry waits LOW with its parse error.
 * Both proposals are rejected at the end: other specs count the shared queue.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { httpxProject } from "./review-helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.join(here, "artifacts");
const GRAPH = "agents-httpx";

test.describe.serial("agents' proposals in the review queue", () => {
  let agentProposal = "";
  let personProposal = "";
  let agentActions = 0;

  test.beforeAll(async ({ request }) => {
    const imported = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
  });

  test.afterAll(async ({ request }) => {
    // Leave the shared review queue as it was for the specs that count it.
    for (const [id, count] of [
      [agentProposal, agentActions],
      [personProposal, 1],
    ] as const) {
      if (!id) continue;
      const rejected = await request.post(`/api/proposals/${id}/reject`, { data: { actions: [...Array(count).keys()], reason: "e2e clean-up" } });
      expect(rejected.status(), await rejected.text()).toBe(200);
    }
  });

  test("an agent submits through MCP; the queue shows and filters by origin; the proposal page names the agent", async ({ page, request, baseURL }) => {
    const made = await request.post("/api/tokens", { data: { name: "e2e agent", scope: "propose" } });
    expect(made.status(), await made.text()).toBe(201);
    const { secret } = (await made.json()) as { secret: string };

    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    try {
      const entries = [
        { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" },
        'insert_edge("AsyncClient", "uses", "Timeout")',
        "please make Client faster",
      ];
      agentActions = entries.length;
      const result = (await client.callTool({
        name: "submit_proposal",
        arguments: { graph: GRAPH, actions: entries, question: "How does Client build requests?", evidence: "httpx/_client.py", agent: "Claude Code", model: "e2e-model" },
      })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(result.isError, text).toBeFalsy();
      const submitted = JSON.parse(text) as { proposalId: string; labels: string[] };
      agentProposal = submitted.proposalId;
      expect(submitted.labels).toHaveLength(3);
      expect(submitted.labels[2]).toBe("LOW");
    } finally {
      await client.close();
    }

    const byPerson = await request.post("/api/proposals", { data: { graph: GRAPH, actions: [{ type: "delete_edge", subject: "Client", relation: "calls", object: "_build_request" }] } });
    expect(byPerson.status(), await byPerson.text()).toBe(201);
    personProposal = ((await byPerson.json()) as { id: string }).id;

    const agents = await request.get(`/api/proposals?graph=${GRAPH}&origin=agent`);
    expect(agents.ok(), await agents.text()).toBe(true);
    const page1 = (await agents.json()) as { proposals: { id: string; origin: string; agentName: string | null }[]; summary: { byOrigin: Record<string, number> } };
    expect(page1.proposals.map((p) => [p.id, p.origin, p.agentName])).toEqual([[agentProposal, "agent", "Claude Code"]]);
    expect(page1.summary.byOrigin).toMatchObject({ agent: 1, person: 1 });

    await page.goto(`/review?graph=${GRAPH}`);
    const rows = page.getByTestId("queue-row");
    await expect(rows).toHaveCount(4);
    await expect(page.getByTestId("origin-chip").filter({ hasText: "Agent · Claude Code · e2e-model" })).toHaveCount(3);
    await expect(page.locator('[data-testid="origin-chip"][data-origin="person"]')).toHaveCount(1);
    const unparsed = rows.filter({ hasText: "please make Client faster" });
    await expect(unparsed).toHaveAttribute("data-confidence", "LOW");

    await page.getByTestId("filter-origin").selectOption("agent");
    await expect(rows).toHaveCount(3);
    await expect(page.locator('[data-testid="origin-chip"][data-origin="person"]')).toHaveCount(0);
    await expect(page).toHaveURL(/origin=agent/);
    await expect(page.getByTestId("filter-origin").locator("option:checked")).toHaveText("Agents (API tokens) (3)");
    await page.screenshot({ path: path.join(artifacts, "agents-queue-origin-filter.png"), fullPage: false });

    await page.getByTestId("filter-origin").selectOption("person");
    await expect(rows).toHaveCount(1);
    await page.getByTestId("filter-origin").selectOption("agent");

    await unparsed.locator(".queue-row__link").click();
    await expect(page).toHaveURL(new RegExp(`/proposals/${agentProposal}`));
    const people = page.getByTestId("proposal-people");
    await expect(people.getByTestId("origin-chip")).toHaveText("Agent · Claude Code · e2e-model");
    await expect(people).toContainText("via token");
    await expect(page.getByTestId("proposal-page")).toContainText("please make Client faster");
    await expect(page.getByTestId("proposal-page")).toContainText(/does not parse/);
    await page.screenshot({ path: path.join(artifacts, "agents-proposal-origin.png"), fullPage: false });
  });
});
