/** The graph administration operations of the OpenAPI document: rename and delete (issue #13). */
import type { OperationSpec } from "./openapi-spec";
import { graphsContract } from "../graphs";

export const graphAdminOperations: OperationSpec[] = [
  {
    path: "/api/graphs/{name}",
    method: "patch",
    operationId: "renameGraph",
    request: graphsContract.renameGraph,
    tag: "graphs",
    summary: "Rename a graph (admins only, audited); its versions, runs and proposals follow it",
    description: "409 if another graph has the name or a run of this graph is in progress.",
    response: { schema: "RenamedGraph" },
    errors: [400, 404, 409, 500],
  },
  {
    path: "/api/graphs/{name}",
    method: "delete",
    operationId: "deleteGraph",
    request: graphsContract.deleteGraph,
    tag: "graphs",
    summary: "Delete a graph with all its versions, corpus, questions, runs and proposals (admins only, audited; cannot be undone)",
    description: "`confirm` must repeat the graph's name (400 otherwise). 409 while a run of the graph is in progress. The audit log keeps its events.",
    response: { schema: "DeletedGraph" },
    errors: [400, 404, 409, 500],
  },
];
