/**
 * What the OpenAPI document says a route accepts is what the route accepts. For every documented
 * operation with a JSON body, bodies are derived from the document itself — its example, the
 * example without each field, the example with each field of a type the schema does not allow —
 * judged by a JSON Schema validator against the documented schema, and sent to the real route
 * handler as a signed-in admin. The route must answer 400 INVALID_INPUT exactly when the document
 * rejects the body: a route that parses with something other than its contract, or a contract
 * whose JSON Schema says less than its zod schema checks (a refine), fails here.
 *
 * Query strings likewise: each documented query parameter given a value of its type and one its
 * schema refuses (not a number, out of range, not in the enum, too long, off the pattern), judged
 * with the validator coercing strings as the routes do.
 *
 * Path parameters name things that do not exist, so a body that passes validation ends in 404
 * (or 409, 201…) without changing anything that matters.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/server/http/openapi";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { useTestDatabase } from "@/lib/server/db/test-database";
import type { TestDatabase } from "@/lib/server/db/test-database";

type JsonSchema = Record<string, unknown>;
type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const apiRoot = path.dirname(fileURLToPath(import.meta.url));
/** Nothing by these names exists in the test database. */
const PARAMS: Record<string, string> = { name: "httpx", nodeId: "n1", id: "nosuchid", version: "2", index: "0" };
/** The MCP endpoint's body is a JSON-RPC message the MCP transport reads; it answers JSON-RPC errors, not INVALID_INPUT. */
const NOT_PARSED_BY_CONTRACT = new Set(["mcpRequest"]);

const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
// Formats are left to the patterns zod writes beside them.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
/** Query values are strings; the routes coerce numbers (z.coerce), and so does this validator. */
const queryAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, coerceTypes: true });

interface JsonBodyOperation {
  route: string;
  method: string;
  operationId: string;
  schema: JsonSchema;
}

const jsonBodyOperations: JsonBodyOperation[] = Object.entries(doc.paths).flatMap(([route, item]) =>
  Object.entries(item).flatMap(([method, op]) => {
    const schema = op.requestBody?.content["application/json"]?.schema;
    return schema && !NOT_PARSED_BY_CONTRACT.has(op.operationId) ? [{ route, method, operationId: op.operationId, schema }] : [];
  }),
);

/** The JSON types a property's schema lets through (null: it says nothing, anything goes). */
function allowedTypes(schema: JsonSchema): Set<string> | null {
  const types = new Set<string>();
  const add = (s: JsonSchema): boolean => {
    if (typeof s.type === "string") types.add(s.type);
    else if (Array.isArray(s.type)) for (const t of s.type) types.add(String(t));
    else if ("const" in s) types.add(s.const === null ? "null" : typeof s.const);
    else if (Array.isArray(s.enum)) for (const v of s.enum) types.add(v === null ? "null" : typeof v);
    else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      for (const member of [...((s.anyOf as JsonSchema[] | undefined) ?? []), ...((s.oneOf as JsonSchema[] | undefined) ?? [])]) if (!add(member)) return false;
    } else return false;
    return true;
  };
  if (!add(schema)) return null;
  if (types.has("integer")) types.add("number");
  return types;
}

const WRONG_VALUES: [string, unknown][] = [
  ["number", 12345],
  ["string", "not-a-value"],
  ["boolean", true],
  ["array", ["x"]],
  ["object", { x: 1 }],
  ["null", null],
];

interface Variant {
  label: string;
  body: unknown;
}

/** The example, the example without each field, and the example with each field of a wrong type. */
function variantsOf(schema: JsonSchema, example: Record<string, unknown>): Variant[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const variants: Variant[] = [{ label: "the example", body: example }];
  for (const key of Object.keys(example)) {
    const { [key]: _removed, ...rest } = example;
    variants.push({ label: `without ${key}`, body: rest });
    const allowed = properties[key] ? allowedTypes(properties[key]) : null;
    const wrong = allowed ? WRONG_VALUES.find(([type]) => !allowed.has(type)) : undefined;
    if (wrong) variants.push({ label: `${key} as ${wrong[0]}`, body: { ...example, [key]: wrong[1] } });
  }
  return variants;
}

async function loadHandler(route: string, method: string): Promise<Handler> {
  const file = path.join(apiRoot, ...route.replace(/^\/api\//, "").split("/").map((s) => s.replace(/^\{(.+)\}$/, "[$1]")), "route.ts");
  if (!fs.existsSync(file)) throw new Error(`${route}: no ${file}`);
  const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
  const handler = mod[method.toUpperCase()];
  if (typeof handler !== "function") throw new Error(`${method.toUpperCase()} ${route}: no handler`);
  return handler as Handler;
}

interface QueryOperation {
  route: string;
  method: string;
  parameters: Parameter[];
}

const queryOperations: QueryOperation[] = Object.entries(doc.paths).flatMap(([route, item]) =>
  Object.entries(item).flatMap(([method, op]) => {
    const parameters = op.parameters.filter((p) => p.in === "query");
    return parameters.length > 0 ? [{ route, method, parameters }] : [];
  }),
);

function isNumeric(schema: JsonSchema): boolean {
  return schema.type === "integer" || schema.type === "number";
}

/** A value the parameter's schema takes, if one can be read off it (an opaque token is only valid as the server gave it out). */
function validValue(schema: JsonSchema): string | undefined {
  if (schema["x-opaque"] === true) return undefined;
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (isNumeric(schema)) return String(typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 1);
  if (schema.type === "string" && schema.pattern === undefined) return "x";
  return undefined;
}

/** Values the parameter's schema refuses, each with what is wrong with it. */
function wrongValues(schema: JsonSchema): [string, string][] {
  const wrong: [string, string][] = [];
  if (isNumeric(schema)) {
    wrong.push(["not a number", "not-a-number"]);
    if (typeof schema.minimum === "number") wrong.push(["below the minimum", String(schema.minimum - 1)]);
    if (typeof schema.exclusiveMinimum === "number") wrong.push(["at the exclusive minimum", String(schema.exclusiveMinimum)]);
    if (typeof schema.maximum === "number" && schema.maximum < 1e9) wrong.push(["above the maximum", String(schema.maximum + 1)]);
  }
  if (Array.isArray(schema.enum)) wrong.push(["not in the enum", "not-a-value"]);
  if (typeof schema.pattern === "string" || Array.isArray(schema.anyOf)) wrong.push(["off the pattern", "!"]);
  if (typeof schema.maxLength === "number") wrong.push(["too long", "x".repeat(schema.maxLength + 1)]);
  return wrong;
}

function queryVariantsOf(op: QueryOperation): { label: string; query: Record<string, string> }[] {
  const base: Record<string, string> = {};
  for (const p of op.parameters) {
    const value = validValue(p.schema);
    if (p.required && value !== undefined) base[p.name] = value;
  }
  const variants = [{ label: "the required parameters", query: base }];
  for (const p of op.parameters) {
    const value = validValue(p.schema);
    if (value !== undefined) variants.push({ label: `${p.name}=${value}`, query: { ...base, [p.name]: value } });
    for (const [what, wrong] of wrongValues(p.schema)) variants.push({ label: `${p.name} ${what}`, query: { ...base, [p.name]: wrong } });
  }
  return variants;
}

async function send(
  op: { route: string; method: string },
  headers: Record<string, string>,
  body: unknown,
  query: Record<string, string> = {},
): Promise<{ status: number; code: string | undefined }> {
  const handler = await loadHandler(op.route, op.method);
  const search = new URLSearchParams(query).toString();
  const url = `http://localhost${op.route.replace(/\{([^}]+)\}/g, (_m, p: string) => encodeURIComponent(PARAMS[p] ?? "x"))}${search ? `?${search}` : ""}`;
  const hasBody = body !== undefined;
  const request = new Request(url, { method: op.method.toUpperCase(), headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...headers }, body: hasBody ? JSON.stringify(body) : undefined });
  const response = await handler(request, { params: Promise.resolve(PARAMS) });
  const json = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
  return { status: response.status, code: json?.error?.code };
}

let db: TestDatabase;
let admin: Record<string, string>;

beforeAll(async () => {
  db = await useTestDatabase("request-contracts");
  // The password the change-password example gives as the current one, so that example is accepted as a whole.
  const changePassword = jsonBodyOperations.find((op) => op.operationId === "changePassword");
  const current = (changePassword?.schema.examples as { currentPassword?: string }[] | undefined)?.[0]?.currentPassword;
  await createTestUser({ username: "ada", role: "admin", ...(current ? { password: current } : {}) });
  admin = await signInHeaders("ada");
});
afterAll(async () => {
  await db.cleanup();
});

describe("the documented request bodies", () => {
  it("cover the JSON-body operations, each with an example the document accepts", () => {
    expect(jsonBodyOperations.length).toBeGreaterThan(25);
    for (const op of jsonBodyOperations) {
      const examples = op.schema.examples;
      expect(Array.isArray(examples) && examples.length > 0, `${op.operationId} has no example`).toBe(true);
      for (const example of examples as unknown[]) expect(ajv.validate(op.schema, example), `${op.operationId}: ${ajv.errorsText()}`).toBe(true);
    }
  });

  it("are what the routes accept: 400 INVALID_INPUT exactly when the document rejects the body", { timeout: 120_000 }, async () => {
    const wrong: string[] = [];
    let sent = 0;
    for (const op of jsonBodyOperations) {
      const validate = ajv.compile(op.schema);
      for (const example of (op.schema.examples ?? []) as Record<string, unknown>[]) {
        for (const variant of variantsOf(op.schema, example)) {
          const isDocumentedValid = validate(variant.body);
          const answer = await send(op, admin, variant.body);
          sent += 1;
          const isRejected = answer.status === 400 && answer.code === "INVALID_INPUT";
          if (isRejected === isDocumentedValid) {
            wrong.push(`${op.method.toUpperCase()} ${op.route} ${variant.label}: the document ${isDocumentedValid ? "accepts" : "rejects"} it, the route answered ${answer.status} ${answer.code ?? ""}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it("are what the routes accept in the query string too", { timeout: 120_000 }, async () => {
    expect(queryOperations.length).toBeGreaterThan(8);
    const wrong: string[] = [];
    let sent = 0;
    for (const op of queryOperations) {
      const validate = queryAjv.compile({
        type: "object",
        properties: Object.fromEntries(op.parameters.map((p) => [p.name, p.schema])),
        required: op.parameters.filter((p) => p.required).map((p) => p.name),
      });
      for (const variant of queryVariantsOf(op)) {
        // The validator coerces in place: give it a copy.
        const isDocumentedValid = validate({ ...variant.query });
        const answer = await send(op, admin, undefined, variant.query);
        sent += 1;
        const isRejected = answer.status === 400 && answer.code === "INVALID_INPUT";
        if (isRejected === isDocumentedValid) {
          wrong.push(`${op.method.toUpperCase()} ${op.route} ${variant.label}: the document ${isDocumentedValid ? "accepts" : "rejects"} it, the route answered ${answer.status} ${answer.code ?? ""}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});
