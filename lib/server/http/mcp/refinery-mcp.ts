/**
 * Refinery as an MCP server (issue #16): coding agents read the graph, run the loop, review
 * actions and submit proposals to the team's review queue — and nothing else. No tool approves,
 * rejects, applies or reverts: people decide in the browser (`mcp.test.ts` lists the tools).
 *
 * One server per connection, built for the actor the transport authenticated:
 * - Streamable HTTP at `/api/mcp` (app/api/mcp/route.ts): an `rfy_…` API token; `read` scope for
 *   the reading tools, `propose` for run_loop and submit_proposal;
 * - stdio (`refinery mcp`): the command line's actor on the local database.
 * Every tool checks the permission it needs and answers a tool error (isError) naming what is
 * missing, so a model reads why; inputs are validated by their zod schemas (the SDK answers
 * an error naming the field).
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Actor, Permission } from "../../../auth/permissions";
import { accountIdOf, can } from "../../../auth/permissions";
import { AppError } from "../../../errors";
import { askGraph } from "../../asks";
import { getNeighbourhood, searchNodes } from "../../graphs";
import { findGraphs, findRelationCounts, getGraphRecord, getGraphSummary, queryStoredGraph } from "../../graphs";
import { getProposal, reviewForGraph, submitProposal } from "../../proposals";
import { actionEntry, toReviewInputs } from "./action-inputs";
import { followRun } from "./follow-run";
import { launchRuns } from "../../runs";
import { getRun } from "../../runs";

export const MCP_SERVER_NAME = "refinery";

/** Runs an agent token may start per hour (REFINERY_MCP_RUNS_PER_HOUR, default 30). */
function runsPerHour(): number {
  const n = Number(process.env.REFINERY_MCP_RUNS_PER_HOUR ?? 30);
  return Number.isFinite(n) && n >= 0 ? n : 30;
}

/** Start times of runs per account (in-process; one app instance's view). */
const runStarts = new Map<string, number[]>();

function takeRunSlot(actor: Actor, now = Date.now()): void {
  const key = accountIdOf(actor) ?? actor.username;
  const hour = 60 * 60 * 1000;
  const recent = (runStarts.get(key) ?? []).filter((t) => now - t < hour);
  const limit = runsPerHour();
  if (recent.length >= limit) {
    const wait = Math.ceil((hour - (now - (recent[0] as number))) / 60_000);
    throw new AppError("RATE_LIMITED", `this token has started ${recent.length} runs in the last hour (the limit is ${limit}, REFINERY_MCP_RUNS_PER_HOUR); try again in about ${wait} minute${wait === 1 ? "" : "s"}`);
  }
  recent.push(now);
  runStarts.set(key, recent);
}

/** Forget the run counts (tests). */
export function resetMcpRateLimits(): void {
  runStarts.clear();
}

const graphName = z.string().min(1).max(200).describe("the graph's name, as list_graphs gives it");

function json(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 1) }] };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

const NEEDS: Partial<Record<Permission, string>> = { read: "read the graphs", propose: "start runs and submit proposals (a token with the propose scope)" };

/** Runs a tool body for an actor that must hold `permission`; errors become tool errors a model can read. */
async function guarded(actor: Actor, permission: Permission, body: () => Promise<unknown>): Promise<CallToolResult> {
  if (!can(actor, permission)) {
    const who = actor.kind === "token" ? `a ${actor.scope} token` : actor.kind === "user" ? `the ${actor.role} role` : actor.kind;
    return failure(`FORBIDDEN: ${who} does not have the "${permission}" permission (needed to ${NEEDS[permission] ?? permission})`);
  }
  try {
    return json(await body());
  } catch (error) {
    if (error instanceof AppError) return failure(`${error.code}: ${error.message}`);
    if (error instanceof z.ZodError) return failure(`INVALID_INPUT: ${error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`);
    return failure(`INTERNAL: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function createRefineryMcpServer(actor: Actor): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: "1.0.0" },
    {
      instructions:
        "Refinery holds knowledge graphs that people refine with approval. Read with list_graphs, graph_stats, search_nodes, neighbourhood, query and ask; " +
        "find gaps with run_loop and get_run; check candidate edits with review_actions (no side effects); submit them with submit_proposal. " +
        "Nothing you submit changes a graph: people approve in the review queue. proposal_status shows their decisions.",
    },
  );

  server.registerTool(
    "list_graphs",
    { description: "List the graphs: name, format, current version, node/edge/document counts.", annotations: { readOnlyHint: true } },
    () => guarded(actor, "read", () => findGraphs()),
  );

  server.registerTool(
    "graph_stats",
    { description: "One graph's counts and its most used relations (name and count).", inputSchema: { graph: graphName }, annotations: { readOnlyHint: true } },
    ({ graph }) =>
      guarded(actor, "read", async () => {
        const summary = await getGraphSummary(graph);
        const record = await getGraphRecord(graph);
        const relations = await findRelationCounts(record.id, record.currentVersion);
        return { ...summary, relations: relations.slice(0, 30), distinctRelations: relations.length };
      }),
  );

  server.registerTool(
    "search_nodes",
    {
      description: "Find nodes by name or words (ids, labels, degree). Use the ids in neighbourhood and in actions.",
      inputSchema: { graph: graphName, q: z.string().min(1).max(500).describe("words of a node's name"), limit: z.number().int().min(1).max(100).default(20) },
      annotations: { readOnlyHint: true },
    },
    ({ graph, q, limit }) => guarded(actor, "read", () => searchNodes({ name: graph, q, limit })),
  );

  server.registerTool(
    "neighbourhood",
    {
      description: "The nodes and edges around one node, up to `depth` hops (capped at `limit` nodes).",
      inputSchema: { graph: graphName, node: z.string().min(1).max(1000).describe("a node id from search_nodes"), depth: z.number().int().min(1).max(3).default(1), limit: z.number().int().min(2).max(500).default(60) },
      annotations: { readOnlyHint: true },
    },
    ({ graph, node, depth, limit }) => guarded(actor, "read", () => getNeighbourhood({ name: graph, nodeId: node, depth, limit })),
  );

  server.registerTool(
    "query",
    {
      description: "Retrieve the triples a question's words reach (seed nodes and triples with node ids), as the hop loop's first step does.",
      inputSchema: { graph: graphName, question: z.string().min(1).max(4000), limit: z.number().int().min(1).max(200).default(30) },
      annotations: { readOnlyHint: true },
    },
    ({ graph, question, limit }) =>
      guarded(actor, "read", async () => {
        // Through SQL for graphs too big to hold (PostgreSQL, REFINERY_SQL_RETRIEVAL_EDGES): the same result.
        const { result } = await queryStoredGraph({ name: graph, question, limit });
        return { seeds: result.seeds, triples: result.triples, terms: result.terms };
      }),
  );

  server.registerTool(
    "ask",
    {
      description: "Answer a question by planned multi-step reasoning over the graph (Ask): the answer, the steps and the triples it rests on. Waits until done.",
      inputSchema: { graph: graphName, question: z.string().min(1).max(4000) },
      annotations: { readOnlyHint: true },
    },
    ({ graph, question }) =>
      guarded(actor, "read", async () => {
        const ask = await askGraph({ graph, question, actor });
        return ask;
      }),
  );

  server.registerTool(
    "run_loop",
    {
      description:
        "Start the hop loop on a question: it retrieves, judges whether the graph answers it, and proposes edits when it needs more than one hop. Returns the run id at once (poll get_run), or with wait: true the finished run, each step sent as a progress notification. Rate-limited per token.",
      inputSchema: {
        graph: graphName,
        question: z.string().min(1).max(4000),
        wait: z.boolean().default(false).describe("wait for the run to end (at most 10 minutes), reporting each step as a progress notification"),
      },
    },
    ({ graph, question, wait }, extra) =>
      guarded(actor, "propose", async () => {
        takeRunSlot(actor);
        const started = await launchRuns({ graph, question, actor });
        if (!wait || started.runId === null) return { runId: started.runId, next: "call get_run with this id until its status is no longer running" };
        await followRun(started.runId, extra);
        return getRun(started.runId);
      }),
  );

  server.registerTool(
    "get_run",
    { description: "A run's status, its steps (answerable or not), and the proposal it made, if any.", inputSchema: { id: z.string().min(1).max(100) }, annotations: { readOnlyHint: true } },
    ({ id }) => guarded(actor, "read", () => getRun(id)),
  );

  const actionsInput = z
    .array(actionEntry)
    .min(1)
    .max(100)
    .describe(
      'edits: {"type":"insert_edge","subject","relation","object"} | {"type":"delete_edge","subject","relation","object"} | {"type":"replace_node","old","new"}, or one call as text: insert_edge("A", "calls", "B"); node names or ids. An entry that does not parse is kept and labelled LOW with the parse error.',
    );

  server.registerTool(
    "review_actions",
    {
      description: "Review candidate edits against the current graph: HIGH/MEDIUM/LOW with a score, reasons, evidence and warnings. No side effects.",
      inputSchema: { graph: graphName, actions: actionsInput },
      annotations: { readOnlyHint: true },
    },
    ({ graph, actions }) =>
      guarded(actor, "read", async () => {
        const record = await getGraphRecord(graph);
        const inputs = toReviewInputs(actions);
        const reviews = await reviewForGraph({ graph, version: record.currentVersion, actions: inputs });
        return reviews.map((r, i) => ({ index: i, action: r.text, confidence: r.confidence, score: r.score, reasons: r.reasons, warnings: r.warnings }));
      }),
  );

  server.registerTool(
    "submit_proposal",
    {
      description:
        "Submit edits to the team's review queue as one proposal (reviewed now, decided by people). You cannot approve it. Say which agent and model you are, and give your evidence.",
      inputSchema: {
        graph: graphName,
        actions: actionsInput,
        question: z.string().trim().max(2000).optional().describe("the question that showed the gap"),
        evidence: z.string().trim().max(20_000).optional().describe("why: what you read (files, passages, paths)"),
        agent: z.string().trim().max(100).optional().describe("which agent you are, e.g. Claude Code"),
        model: z.string().trim().max(100).optional().describe("which model, if you know it"),
      },
    },
    ({ graph, actions, question, evidence, agent, model }) =>
      guarded(actor, "propose", async () => {
        // Who sent it is the proposal's origin (its chip in the queue); the text keeps the question and the evidence.
        const text = [question, evidence ? `Agent's evidence: ${evidence}` : null].filter(Boolean).join("\n\n") || null;
        const id = await submitProposal({ graph, source: "agent", inputs: toReviewInputs(actions), question: text, submittedBy: actor, agent: { name: agent, model } });
        const proposal = await getProposal(id);
        return { proposalId: id, status: proposal.status, counts: proposal.counts, url: `/proposals/${id}`, labels: proposal.actions.map((a) => a.confidence), rulesMining: proposal.rulesMining };
      }),
  );

  server.registerTool(
    "proposal_status",
    { description: "A proposal's decisions so far: per action its label, status (pending, approved, applied, rejected), approvals and vetoes.", inputSchema: { id: z.string().min(1).max(100) }, annotations: { readOnlyHint: true } },
    ({ id }) =>
      guarded(actor, "read", async () => {
        const p = await getProposal(id);
        return {
          id: p.id,
          graph: p.graph,
          status: p.status,
          counts: p.counts,
          actions: p.actions.map((a) => ({ index: a.index, action: a.action, confidence: a.confidence, status: a.status })),
          // Non-null while actions reviewed before the graph rules were mined wait to be reviewed again.
          rulesMining: p.rulesMining,
        };
      }),
  );

  server.registerResource(
    "graph-report",
    new ResourceTemplate("refinery://graphs/{name}/report", {
      list: async () => ({
        resources: can(actor, "read") ? (await findGraphs()).map((g) => ({ uri: `refinery://graphs/${encodeURIComponent(g.name)}/report`, name: `${g.name} report`, mimeType: "text/markdown" })) : [],
      }),
    }),
    { description: "A graph's summary: counts, version and most used relations (a GRAPH_REPORT-style overview).", mimeType: "text/markdown" },
    async (uri, { name }) => {
      if (!can(actor, "read")) throw new AppError("FORBIDDEN", "this token cannot read the graphs");
      const graph = decodeURIComponent(String(name));
      const summary = await getGraphSummary(graph);
      const record = await getGraphRecord(graph);
      const relations = await findRelationCounts(record.id, record.currentVersion);
      const lines = [
        `# ${summary.name}`,
        "",
        `Version ${summary.version} · ${summary.nodes} nodes · ${summary.edges} edges · ${summary.documents} documents · ${summary.questions} questions`,
        "",
        "## Most used relations",
        ...relations.slice(0, 20).map((r) => `- ${r.relation}: ${r.count}`),
      ];
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: lines.join("\n") + "\n" }] };
    },
  );

  return server;
}

/** The tool names, for docs and the test that no tool decides. */
export const MCP_TOOLS = ["list_graphs", "graph_stats", "search_nodes", "neighbourhood", "query", "ask", "run_loop", "get_run", "review_actions", "submit_proposal", "proposal_status"] as const;
