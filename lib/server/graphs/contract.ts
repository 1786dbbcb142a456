/** The request contracts of the graph routes (app/api/graphs/**): import, explore, rename, delete, export; and some of their response schemas. */
import { z } from "zod";
import { graphParams, nodeParams } from "../../api/contract";
import type { RequestContract } from "../../api/contract";

const isBlank = (v: unknown) => typeof v === "string" && v.trim() === "";
const optionalText = z.preprocess((v) => (isBlank(v) ? undefined : v), z.string().trim().optional());

const importPathBody = z
  .object({
    path: z.string().trim().min(1, "give the path of a graph file or folder on the server").describe("a graph file or folder on the server"),
    name: optionalText.describe("default: taken from the file or folder name"),
    format: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["graphify", "triples", "bundle"]).optional()),
    root: optionalText.describe("project root for source files (default: beside graphify-out)"),
  })
  .meta({ examples: [{ path: "/data/httpx/graphify-out/graph.json", name: "httpx" }] });

/** The text fields of the multipart upload, as the route parses them (a missing field reads as null). */
export const uploadFields = z.object({
  name: z.preprocess((v) => (v === null || isBlank(v) ? undefined : v), z.string().trim().optional()),
  format: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(["graphify", "triples"]).optional()),
});

const uploadForm = uploadFields.extend({
  file: z.string().optional().describe("graph.json, a triple file, or a graphify project as a .zip (graph.json and its source files) (binary)"),
  files: z.array(z.string()).optional().describe("a folder upload: every file of a graphify project folder (binary), with `paths`"),
  paths: z.array(z.string()).optional().describe("the relative path of each `files` entry, in order (e.g. httpx/raw/client.py)"),
});

export const graphsContract = {
  importGraphFromPath: { body: importPathBody },
  uploadGraph: { body: uploadForm, bodyType: "multipart/form-data" },
  getGraph: { params: graphParams },
  renameGraph: {
    params: graphParams,
    body: z
      .object({ name: z.string().min(1).max(200).describe("the new name") })
      .strict()
      .meta({ examples: [{ name: "httpx-2026" }] }),
  },
  deleteGraph: {
    params: graphParams,
    body: z
      .object({ confirm: z.string().max(200).describe("the graph's name, typed again") })
      .strict()
      .meta({ examples: [{ confirm: "httpx" }] }),
  },
  searchNodes: { params: graphParams, query: z.object({ q: z.string().max(500).default(""), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  findHubNodes: { params: graphParams, query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(12) }) },
  getNodeDetails: { params: nodeParams },
  getNeighbourhood: {
    params: nodeParams,
    query: z.object({ depth: z.coerce.number().int().min(1).max(3).default(1), limit: z.coerce.number().int().min(2).max(500).default(150) }),
  },
  exportGraph: { params: graphParams, query: z.object({ version: z.coerce.number().int().positive().optional().describe("default: the current version") }) },
} satisfies Record<string, RequestContract>;

const int = z.number().int();

/** Response schemas of the graph routes moved here so far, registered as components of the OpenAPI document. */
export const graphsResponses = {
  RenamedGraph: z.object({ name: z.string().describe("the graph's name now"), previousName: z.string() }),
  DeletedGraph: z.object({ name: z.string(), versions: int, nodes: int.describe("nodes at the last version"), edges: int.describe("edges at the last version") }),
  ImportProgress: z.object({
    id: z.number().int().describe("this server's number for the import"),
    name: z.string().nullable().describe("the graph name asked for (null: taken from the file name)"),
    startedAt: z.string().describe("ISO 8601 date-time"),
    message: z.string().describe("latest progress line, e.g. `wrote 600,000 of 1,146,480 rows`"),
  }),
};
