/**
 * Parse a request with its operation's contract (lib/server/<domain>/contract.ts): the path
 * parameters, the query string and the JSON body, each with exactly the zod object the OpenAPI
 * document is generated from. A zod failure becomes 400 INVALID_INPUT in `respond`.
 */
import type { z } from "zod";
import type { RequestContract } from "@/lib/api/contract";
import { readJson } from "./read-json";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ParsedRequest<C extends RequestContract> {
  params: Parsed<C["params"]>;
  query: Parsed<C["query"]>;
  body: Parsed<C["body"]>;
}

/** In the route's order: path parameters, then the query, then the body (a multipart body is left to the route). */
export async function parseRequest<C extends RequestContract>(request: Request, contract: C, ctx?: { params: Promise<unknown> }): Promise<ParsedRequest<C>> {
  const params: unknown = contract.params ? contract.params.parse(ctx ? await ctx.params : {}) : undefined;
  const query: unknown = contract.query ? contract.query.parse(Object.fromEntries(new URL(request.url).searchParams)) : undefined;
  const isJsonBody = contract.body !== undefined && contract.bodyType !== "multipart/form-data";
  const body: unknown = isJsonBody ? contract.body?.parse(await readJson(request)) : undefined;
  return { params, query, body } as ParsedRequest<C>;
}
