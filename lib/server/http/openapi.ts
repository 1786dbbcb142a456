/**
 * The OpenAPI 3.1 description of every route under app/api, generated from zod schemas
 * (z.toJSONSchema emits JSON Schema 2020-12, the dialect OpenAPI 3.1 uses): the requests from the
 * domains' contracts (lib/server/<domain>/contract.ts), which the route handlers parse with. Served at
 * GET /api/openapi.json; openapi.test.ts walks app/api so a new route without an entry here
 * fails the tests.
 */
import { z } from "zod";
import type { ZodObject, ZodType } from "zod";
import type { JsonSchema, OperationSpec, SuccessBody } from "./openapi-spec";
import * as base from "./openapi-schemas";
import * as review from "./openapi-schemas-review";
import * as approvals from "./openapi-schemas-approvals";
import { operations } from "./openapi-operations";
import { authOperations } from "./openapi-operations-auth";
import { calibrationOperations } from "./openapi-operations-calibration";
import { askOperations, askSchemas } from "./openapi-operations-ask";
import { graphAdminOperations } from "./openapi-operations-graphs";
import { campaignOperations } from "./openapi-operations-campaigns";
import { importOperations } from "./openapi-operations-imports";
import { auditResponses } from "../audit";
import { authResponses } from "../auth";
import { campaignsResponses } from "../campaigns";
import { graphsResponses } from "../graphs";
import { calibrationResponses } from "../proposals";
import { mcpOperations } from "./openapi-operations-mcp";

// Response schemas: the domains' contracts hold those moved there (accounts, audit, campaigns, graph admin, calibration); the rest are still in openapi-schemas*.ts.
const components = { ...base, ...review, ...approvals, ...auditResponses, ...authResponses, ...calibrationResponses, ...askSchemas, ...graphsResponses, ...campaignsResponses };
export type ComponentName = keyof typeof components;

export type { JsonSchema, OperationSpec, SuccessBody } from "./openapi-spec";

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input: a path parameter, query or body failed validation (code INVALID_INPUT or PARSE_ERROR)",
  401: "Not signed in: no valid session cookie or bearer token (code UNAUTHENTICATED), or no account exists yet (code SETUP_REQUIRED: create the admin at /setup)",
  403: "Forbidden: the role or token scope lacks the permission, or a cookie-authenticated change lacks a valid X-CSRF-Token / same-site Origin (code FORBIDDEN)",
  404: "Not found: no such graph, node, version, run or proposal (code NOT_FOUND)",
  409: "Conflict: the graph or proposal changed in a way that prevents this; nothing was changed (code CONFLICT)",
  413: "The input is larger than the server accepts (code TOO_LARGE)",
  428: "Confirmation required: a chosen action is LOW confidence and the request lacks lowConfidence: true, or the written reason the graph's policy asks for (code CONFIRMATION_REQUIRED); nothing was recorded",
  429: "Too many attempts or open streams (code RATE_LIMITED); the Retry-After header says how many seconds to wait",
  500: "Internal error; details are in the server log only (code INTERNAL)",
};

const ref = (name: string): JsonSchema => {
  if (!Object.hasOwn(components, name)) throw new Error(`the OpenAPI document has no component schema ${name}`);
  return { $ref: `#/components/schemas/${name}` };
};

function stripMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** Request side: what a client may send (defaults optional, coerced strings as their target type). */
function inputSchema(schema: ZodType): JsonSchema {
  return stripMeta(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
}

/**
 * A body with its contract's examples. zod drops `examples` from the input side of a schema that
 * transforms (they could be outputs); a contract's examples are what a client sends, so they stay.
 */
function bodySchemaOf(schema: ZodType): JsonSchema {
  const json = inputSchema(schema);
  const examples = z.globalRegistry.get(schema)?.examples;
  return Array.isArray(examples) ? { ...json, examples } : json;
}

/** Response objects are open: a client must ignore fields it does not know (they are added over time). */
function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: "any",
    override: ({ jsonSchema }) => {
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, stripMeta(s as JsonSchema)]));
}

function parameters(where: "path" | "query", schema: ZodObject | undefined): JsonSchema[] {
  if (!schema) return [];
  const json = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function successContent(response: SuccessBody): JsonSchema {
  if ("contentType" in response) return { description: response.description, content: { [response.contentType]: { schema: response.schema } } };
  const schema = response.list ? { type: "array", items: ref(response.schema) } : ref(response.schema);
  return { description: "OK", content: { "application/json": { schema } } };
}

function operationObject(op: OperationSpec): JsonSchema {
  const responses: Record<string, JsonSchema> = { [String(op.status ?? 200)]: successContent(op.response) };
  const errors = op.isPublic ? op.errors : [...new Set([...op.errors, 401, 403] as const)].sort((a, b) => a - b);
  for (const status of errors) {
    responses[String(status)] = { description: ERROR_TEXT[status], content: { "application/json": { schema: ref("ErrorBody") } } };
  }
  const { params, query, body: bodyContract, bodyType } = op.request ?? {};
  const bodySchema = bodyContract ? bodySchemaOf(bodyContract) : null;
  // An empty body reads as {} (app/api/_lib/read-json.ts): it is optional when no field is required.
  const isBodyRequired = Array.isArray(bodySchema?.required) && bodySchema.required.length > 0;
  const body = bodySchema ? { requestBody: { required: isBodyRequired, content: { [bodyType ?? "application/json"]: { schema: bodySchema } } } } : {};
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    parameters: [...parameters("path", params), ...parameters("query", query)],
    ...body,
    ...(op.isPublic ? { security: [] } : {}),
    responses,
  };
}

export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of [...operations, ...authOperations, ...calibrationOperations, ...askOperations, ...graphAdminOperations, ...campaignOperations, ...importOperations, ...mcpOperations]) {
    const item = (paths[op.path] ??= {});
    item[op.method] = operationObject(op);
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Refinery API",
      version: "0.1.0",
      description:
        "Question-driven refinement of knowledge graphs with human approval. Errors are always {error: {code, message}}; a 500 never carries internals.",
    },
    tags: [
      { name: "graphs", description: "Import, explore and version graphs" },
      { name: "questions", description: "The question queue" },
      { name: "runs", description: "Refinement runs and their live progress" },
      { name: "ask", description: "Ask a graph: planned reasoning with relation, neighbour and corpus search" },
      { name: "proposals", description: "Review, apply and reject proposed actions" },
      { name: "campaigns", description: "Refinement campaigns: iterate over a question set in a sandbox, submit the best as one proposal" },
      { name: "agents", description: "The MCP server for coding agents (API tokens; no tool decides)" },
      { name: "settings", description: "LLM provider and settings" },
      { name: "audit", description: "The audit log: who did what, when" },
      { name: "accounts", description: "Set-up, sign-in, accounts and API tokens" },
      { name: "meta", description: "This document" },
    ],
    paths,
    // Either credential works on every operation that is not marked `security: []`.
    security: [{ sessionCookie: [] }, { bearerToken: [] }],
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "refinery_session",
          description: "Browser session from POST /api/auth/login. POST/PUT/PATCH/DELETE must also send X-CSRF-Token (the session's token, from the refinery_csrf cookie or GET /api/auth/session).",
        },
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description: "API token (rfy_…) from POST /api/tokens; scope read or propose; never approves, rejects, applies, reverts or administers.",
        },
      },
    },
  };
}
