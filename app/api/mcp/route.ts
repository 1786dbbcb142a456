/**
 * The MCP server over Streamable HTTP (issue #16): `Authorization: Bearer rfy_…` (an API token —
 * a browser session is refused; the read scope reads, the propose scope also starts runs and
 * submits proposals). Stateless:
 * each request gets its own server for the authenticated actor, answered as JSON — except a
 * run_loop call with `wait` and a progressToken, answered as an event stream so its progress
 * notifications reach the client before the result. The tools are in
 * lib/server/http/mcp/refinery-mcp.ts; none of them decides.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError } from "@/lib/errors";
import { createRefineryMcpServer } from "@/lib/server/http/mcp/refinery-mcp";
import { requireActor } from "../_lib/auth";
import { errorResponse } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** An MCP request body is a JSON-RPC message or a batch: 1 MB is plenty. */
const MAX_BODY_BYTES = 1_000_000;

/** A run_loop call that waits and asked for progress (a progressToken): it needs an event stream. */
async function wantsProgress(request: Request): Promise<boolean> {
  if (request.method !== "POST") return false;
  try {
    const text = await request.clone().text();
    if (text.length > MAX_BODY_BYTES) return false;
    const messages = [JSON.parse(text) as unknown].flat() as { method?: unknown; params?: { name?: unknown; arguments?: { wait?: unknown }; _meta?: { progressToken?: unknown } } }[];
    return messages.some((m) => m?.method === "tools/call" && m.params?.name === "run_loop" && m.params.arguments?.wait === true && m.params._meta?.progressToken !== undefined);
  } catch {
    return false;
  }
}

async function handle(request: Request): Promise<Response> {
  try {
    const actor = await requireActor(request, "read");
    // Agents connect with tokens; a browser session has no business here (and no CSRF surface is opened).
    if (actor.kind !== "token") throw new AppError("FORBIDDEN", "the MCP endpoint takes an API token (Authorization: Bearer rfy_…, made on the Account page), not a browser session");
    const server = createRefineryMcpServer(actor);
    const streams = await wantsProgress(request);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streams, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // The JSON answer is complete once handleRequest returns: the per-request server can go.
    // An event stream ends when the call's result is sent; the transport closes it then.
    if (!streams) void transport.close().then(() => server.close());
    return response;
  } catch (error) {
    return errorResponse(error);
  }
}

export async function POST(request: Request) {
  return handle(request);
}

export async function GET(request: Request) {
  return handle(request);
}

export async function DELETE(request: Request) {
  return handle(request);
}
