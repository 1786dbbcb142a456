/**
 * `refinery mcp`: the MCP server over stdio on the local database (issue #16), for a coding
 * agent on the same machine. The same tools as `/api/mcp` (lib/server/http/mcp/refinery-mcp.ts),
 * as the command line's actor; nothing else is written to stdout (it carries the protocol).
 */
import type { Command } from "commander";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CLI_ACTOR } from "../lib/auth/permissions";
import { createRefineryMcpServer } from "../lib/server/http/mcp/refinery-mcp";
import type { Io } from "./output";

export function registerMcpCommand(program: Command, io: Io): void {
  program
    .command("mcp")
    .description("serve the MCP tools over stdio (for a coding agent on this machine; see docs/agents.md)")
    .action(async () => {
      const server = createRefineryMcpServer(CLI_ACTOR);
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        process.stdin.once("end", () => resolve());
      });
      await server.connect(transport);
      io.err("refinery MCP server on stdio: waiting for a client (Ctrl-D to stop)");
      await closed;
      await server.close();
    });
}
