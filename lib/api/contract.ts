/**
 * The request side of one HTTP API operation: the zod schemas of its path parameters, query
 * string and body. Each domain declares its operations' contracts once (lib/server/<domain>/
 * contract.ts); the route handler parses with exactly these objects (app/api/_lib/parse-request.ts)
 * and the OpenAPI document is generated from them (lib/server/http/openapi.ts), so what a route
 * accepts and what the document says it accepts cannot drift apart. The path parameters several
 * domains share live here, below every domain.
 */
import { z } from "zod";
import type { ZodObject, ZodType } from "zod";
import { decodeNodeSegment } from "./node-segment";

export interface RequestContract {
  params?: ZodObject;
  query?: ZodObject;
  body?: ZodType;
  /** Default application/json. A multipart body is read by its route; the schema documents the form fields. */
  bodyType?: "application/json" | "multipart/form-data";
}

export const graphNameParam = z.string().min(1).max(200).describe("graph name");

/** Next has already percent-decoded the segment; the route undoes the dot-segment escape on top of it. */
export const nodeIdParam = z
  .string()
  .min(1)
  .max(20_000)
  .transform(decodeNodeSegment)
  .describe("node id, percent-encoded; an id of only dots, or starting with ~, gets one extra leading ~");

export const graphParams = z.object({ name: graphNameParam });
export const nodeParams = z.object({ name: graphNameParam, nodeId: nodeIdParam });
export const versionParams = z.object({ name: graphNameParam, version: z.coerce.number().int().min(1).describe("version number") });

function idParams(what: string) {
  return z.object({ id: z.string().min(1).max(100).describe(`${what} id`) });
}

export const runParams = idParams("run");
export const proposalParams = idParams("proposal");
export const askParams = idParams("ask");
export const campaignParams = idParams("campaign");
export const userParams = idParams("account");
export const tokenParams = idParams("token");

/** Providers a run, an ask or a campaign may name. */
export const providerName = z.enum(["heuristic", "openai", "replay"]);

/** What a client sends as the body of an operation (the browser's request types: components/api). */
export type BodyOf<C extends RequestContract> = C["body"] extends ZodType ? z.input<C["body"]> : never;
/** What a client may put in the query string of an operation, before coercion. */
export type QueryOf<C extends RequestContract> = C["query"] extends ZodType ? z.input<C["query"]> : never;
