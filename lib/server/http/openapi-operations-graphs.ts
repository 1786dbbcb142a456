/** The graph administration operations of the OpenAPI document: rename and delete (issue #13). */
import { z } from "zod";
import type { OperationSpec } from "./openapi-spec";
import { params } from "./openapi-requests";

const int = z.number().int();

/** Response schemas, registered as components in openapi.ts. */
export const graphAdminSchemas = {
  RenamedGraph: z.object({ name: z.string().describe("the graph's name now"), previousName: z.string() }),
  DeletedGraph: z.object({ name: z.string(), versions: int, nodes: int.describe("nodes at the last version"), edges: int.describe("edges at the last version") }),
};

export const graphAdminOperations: OperationSpec[] = [
  {
    path: "/api/graphs/{name}",
    method: "patch",
    operationId: "renameGraph",
    tag: "graphs",
    summary: "Rename a graph (admins only, audited); its versions, runs and proposals follow it",
    description: "409 if another graph has the name or a run of this graph is in progress.",
    params: params.graph,
    body: { schema: z.object({ name: z.string().min(1).max(200).describe("the new name") }).strict() },
    response: { schema: "RenamedGraph" },
    errors: [400, 404, 409, 500],
  },
  {
    path: "/api/graphs/{name}",
    method: "delete",
    operationId: "deleteGraph",
    tag: "graphs",
    summary: "Delete a graph with all its versions, corpus, questions, runs and proposals (admins only, audited; cannot be undone)",
    description: "`confirm` must repeat the graph's name (400 otherwise). 409 while a run of the graph is in progress. The audit log keeps its events.",
    params: params.graph,
    body: { schema: z.object({ confirm: z.string().max(200).describe("the graph's name, typed again") }).strict() },
    response: { schema: "DeletedGraph" },
    errors: [400, 404, 409, 500],
  },
];
