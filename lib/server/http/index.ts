/**
 * http/ — the HTTP API described and served to agents: the OpenAPI 3.1 document generated from
 * zod schemas (openapi.ts, the operation lists openapi-operations*.ts; requests come from the
 * domains' contract.ts, which the routes parse with; response components from openapi-schemas*.ts
 * and, for accounts, audit, campaigns, graphs and calibration, from their contract.ts) and the MCP server for
 * coding agents (mcp/refinery-mcp.ts). It sits on top of every other domain; nothing in
 * lib/server imports it.
 */
export * from "./openapi";
export * from "./openapi-operations-calibration";
export * from "./mcp/refinery-mcp";
