/** Import progress in the OpenAPI document: big imports run in a worker thread (import-graph.ts). */
import { z } from "zod";
import type { OperationSpec } from "./openapi-spec";

export const importSchemas = {
  ImportProgress: z.object({
    id: z.number().int().describe("this server's number for the import"),
    name: z.string().nullable().describe("the graph name asked for (null: taken from the file name)"),
    startedAt: z.string().describe("ISO 8601 date-time"),
    message: z.string().describe("latest progress line, e.g. `wrote 600,000 of 1,146,480 rows`"),
  }),
};

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
