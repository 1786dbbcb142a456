/** The agents' endpoints in the OpenAPI document (issue #16): MCP (one JSON-RPC endpoint, described, not modelled) and the graph export `deeprefine pull` reads. */
import { z } from "zod";
import type { OperationSpec } from "./openapi-spec";
import { graphsContract } from "../graphs";

const jsonRpc = z
  .object({ jsonrpc: z.literal("2.0"), id: z.union([z.string(), z.number()]).optional(), method: z.string(), params: z.record(z.string(), z.unknown()).optional() })
  .describe("an MCP JSON-RPC message (initialize, tools/list, tools/call, resources/list, resources/read, …)");

const description =
  "Model Context Protocol over Streamable HTTP (stateless; JSON answers). Authenticate with an API token (`Authorization: Bearer rfy_…`); a browser session is refused (403). " +
  "Tools: list_graphs, graph_stats, search_nodes, neighbourhood, query, ask, review_actions and get_run, proposal_status (read scope); run_loop and submit_proposal (propose scope). " +
  "No tool approves, rejects, applies or reverts. Send `Accept: application/json, text/event-stream`. See docs/agents.md.";

const answer = { contentType: "application/json", description: "the JSON-RPC answer", schema: { type: "object" } };

export const mcpOperations: OperationSpec[] = [
  {
    path: "/api/graphs/{name}/export",
    method: "get",
    operationId: "exportGraph",
    request: graphsContract.exportGraph,
    tag: "graphs",
    summary: "A version of the graph as graphify graph.json (`deeprefine pull`); X-Refinery-Version names the version",
    response: { contentType: "application/json", description: "graphify graph.json", schema: { type: "object" } },
    errors: [400, 404, 500],
  },
  { path: "/api/mcp", method: "post", operationId: "mcpRequest", tag: "agents", summary: "Send an MCP JSON-RPC request (tools for coding agents)", description, request: { body: jsonRpc }, response: answer, errors: [400, 413, 500] },
  { path: "/api/mcp", method: "get", operationId: "mcpStream", tag: "agents", summary: "MCP server-to-client stream (not offered: the endpoint is stateless, 405)", description, response: answer, errors: [500] },
  { path: "/api/mcp", method: "delete", operationId: "mcpEndSession", tag: "agents", summary: "End an MCP session (stateless endpoint: nothing to end)", description, response: answer, errors: [500] },
];
