/** Import progress in the OpenAPI document: big imports run in a worker thread (import-graph.ts). */
import type { OperationSpec } from "./openapi-spec";

export const importOperations: OperationSpec[] = [
  {
    path: "/api/graphs/imports",
    method: "get",
    operationId: "listImportsInProgress",
    tag: "graphs",
    summary: "Imports running now in this server's worker threads, with their latest progress line",
    description:
      "Inputs of 1 MiB or more are parsed and written off the request thread; poll this while POST /api/graphs or /api/graphs/upload is pending. An import leaves the list when it finishes or fails (its own request answers with the result).",
    response: { schema: "ImportProgress", list: true },
    errors: [500],
  },
];
