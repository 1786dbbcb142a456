/**
 * Path parameters, query strings and request bodies of the HTTP API, for the OpenAPI document.
 * Same shapes as the zod schemas the route handlers parse with (app/api/.../route.ts); those are
 * module-private to the routes (a route file may only export handlers), so they are restated
 * here. Moving them to one shared module would let both import the same object.
 */
import { z } from "zod";

const optionalText = z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().optional());

export const params = {
  graph: z.object({ name: z.string().min(1).max(200).describe("graph name") }),
  node: z.object({
    name: z.string().min(1).max(200).describe("graph name"),
    nodeId: z.string().min(1).max(20_000).describe("node id, percent-encoded; a segment of only dots gets one extra leading dot"),
  }),
  version: z.object({ name: z.string().min(1).max(200).describe("graph name"), version: z.coerce.number().int().min(1) }),
  run: z.object({ id: z.string().min(1).max(100).describe("run id") }),
  proposal: z.object({ id: z.string().min(1).max(100).describe("proposal id") }),
  action: z.object({ id: z.string().min(1).max(100).describe("proposal id"), index: z.coerce.number().int().min(0).describe("0-based action index") }),
};

export const queries = {
  hubs: z.object({ limit: z.coerce.number().int().min(1).max(100).default(12) }),
  search: z.object({ q: z.string().max(500).default(""), limit: z.coerce.number().int().min(1).max(100).default(20) }),
  neighbourhood: z.object({ depth: z.coerce.number().int().min(1).max(3).default(1), limit: z.coerce.number().int().min(2).max(500).default(150) }),
  questions: z.object({ status: z.enum(["pending", "refined", "all"]).default("all") }),
  diff: z.object({ from: z.coerce.number().int().min(1), to: z.coerce.number().int().min(1) }),
  deeprefine: z.object({ file: z.enum(["trace", "refinement"]).default("trace") }),
  proposals: z.object({
    graph: z.string().min(1).max(200).optional(),
    status: z.enum(["pending", "applied", "partially_applied", "rejected"]).optional(),
    run: z.string().min(1).max(100).optional(),
    cursor: z.string().min(1).max(500).optional().describe("the nextCursor of the previous page"),
    limit: z.coerce.number().int().min(1).max(200).default(50).describe("proposals per page (at most 200)"),
  }),
  preview: z.object({
    actions: z
      .string()
      .regex(/^\d+(,\d+)*$/)
      .optional()
      .describe("comma-separated 0-based action indexes, e.g. 0,2; default: every pending action"),
  }),
};

const settingValue = z.union([z.string().max(2000), z.number(), z.null()]);

export const bodies = {
  importPath: z.object({
    path: z.string().trim().min(1).describe("a graph file or folder on the server"),
    name: optionalText,
    format: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["graphify", "triples", "bundle"]).optional()),
    root: optionalText.describe("project root for source files (default: beside graphify-out)"),
  }),
  upload: z.object({
    file: z.string().optional().describe("graph.json, a triple file, or a graphify project as a .zip (graph.json and its source files) (binary)"),
    files: z.array(z.string()).optional().describe("a folder upload: every file of a graphify project folder (binary), with `paths`"),
    paths: z.array(z.string()).optional().describe("the relative path of each `files` entry, in order (e.g. httpx/raw/client.py)"),
    name: z.string().optional(),
    format: z.enum(["graphify", "triples"]).optional(),
  }),
  addQuestions: z.object({ questions: z.array(z.string().trim().min(1).max(4000)).min(1).max(1000) }),
  syncMemory: z.object({ dir: z.string().trim().min(1).optional().describe("folder holding graphify-out/memory; default: the graph's source folder") }),
  startRun: z.object({
    question: z.string().trim().max(4000).optional(),
    queryId: z.string().regex(/^[0-9a-f]{16}$/).optional(),
    pending: z.boolean().optional().describe("run every pending question of the queue"),
    provider: z.enum(["heuristic", "openai", "replay"]).optional(),
    refineAfterFinalYes: z.boolean().optional(),
  }),
  revert: z.object({}).describe("empty: the signed-in person reverts (recorded as the changeset's actor)"),
  llmSettings: z
    .object({
      provider: settingValue,
      baseUrl: settingValue,
      model: settingValue,
      temperature: settingValue,
      timeoutMs: settingValue,
      maxRetries: settingValue,
      concurrency: settingValue,
      maxTokens: settingValue,
    })
    .partial()
    .strict()
    .describe("overrides; null or \"\" returns a field to the environment's value; the API key cannot be set here"),
};
