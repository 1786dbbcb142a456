/**
 * Response bodies of the HTTP API as zod schemas, for the OpenAPI document only (responses are
 * produced by typed server functions, not parsed). openapi.test.ts checks at compile time that
 * each server type is assignable to its schema, so a field renamed on the server breaks the
 * build instead of silently lying in the document. Objects are open (clients ignore unknown
 * fields); nested review and run details are described as far as a client needs them.
 */
import { z } from "zod";

const int = z.number().int();
const timestamp = z.string().describe("ISO 8601 date-time");
const community = z.union([z.string(), z.number(), z.null()]);
const matchKind = z.enum(["id", "qualified", "label", "normalized", "alias", "fuzzy", "substring"]);

export const ErrorBody = z.object({
  error: z.object({
    code: z.enum(["NOT_FOUND", "CONFLICT", "INVALID_INPUT", "PARSE_ERROR", "TOO_LARGE", "USAGE", "LLM_FORMAT", "LLM_UNAVAILABLE", "CONFIG", "CONFIRMATION_REQUIRED", "UNAUTHENTICATED", "FORBIDDEN", "RATE_LIMITED", "SETUP_REQUIRED", "INTERNAL"]),
    message: z.string(),
    refusal: z.string().optional().describe("why a decision was refused, e.g. CANNOT_APPLY, APPLY_FAILED, EDITED, VETOED, ALREADY_APPROVED, NOT_PENDING, POLICY_CHANGED"),
    cause: z.string().optional().describe("with CANNOT_APPLY: AMBIGUOUS_NAME, NOT_APPLICABLE, ALREADY_APPLIED or GRAPH_CHANGED (which fix applies)"),
  }),
});

export const GraphSummary = z.object({
  id: z.string(),
  name: z.string(),
  format: z.string(),
  sourcePath: z.string().nullable(),
  version: int,
  nodes: int,
  edges: int,
  documents: int,
  questions: int,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const ImportReport = z.object({
  graph: GraphSummary,
  format: z.enum(["graphify", "triples", "bundle"]),
  corpus: z.object({ read: int, missing: z.array(z.string()), skipped: z.array(z.string()) }),
  warnings: z.array(z.string()).describe("what the import changed and says so, e.g. labels over 1,000 characters shortened (the full text stays in the node's attributes)"),
});

export const NodeSummary = z.object({ id: z.string(), label: z.string(), community, fileType: z.string().nullable(), degree: int });

export const SearchResult = z.object({
  q: z.string(),
  hits: z.array(NodeSummary.extend({ qualified: z.string(), matchedBy: matchKind, score: z.number() })),
});

export const Neighbourhood = z.object({
  center: z.string(),
  depth: int,
  nodes: z.array(NodeSummary),
  edges: z.array(z.object({ key: z.string(), source: z.string(), target: z.string(), relation: z.string(), confidence: z.string().optional() })),
  truncated: z.boolean(),
});

/** Node attributes: any JSON value, as imported. */
export const JsonValue = z.json();

export const Triple = z.object({ subject: z.string(), relation: z.string(), object: z.string(), subject_id: z.string(), object_id: z.string() });

export const NodeDetails = z.object({
  node: NodeSummary.extend({ sourceFile: z.string().nullable(), sourceLocation: z.string().nullable(), attrs: z.record(z.string(), JsonValue) }),
  triples: z.array(Triple.extend({ key: z.string() })),
  totalTriples: int,
  source: z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("file"),
      docId: z.string(),
      path: z.string().nullable(),
      location: z.string().nullable(),
      totalLines: int,
      lines: z.array(z.object({ number: int, text: z.string(), isFocus: z.boolean() })),
    }),
    z.object({ kind: z.literal("passages"), passages: z.array(z.object({ docId: z.string(), title: z.string().nullable(), text: z.string() })) }),
    z.object({ kind: z.literal("none"), reason: z.string() }),
  ]),
});

export const QuestionItem = z.object({
  pk: int,
  queryId: z.string(),
  text: z.string(),
  source: z.string(),
  answers: z.array(z.string()).nullable(),
  refined: z.boolean(),
  ord: int,
  createdAt: timestamp,
});

export const AddQuestionsResult = z.object({ added: z.array(QuestionItem), existing: z.array(QuestionItem) });

export const SyncMemoryResult = AddQuestionsResult.extend({ files: int, unreadable: z.array(z.string()) });

export const RefinementAction = z.discriminatedUnion("type", [
  z.object({ type: z.literal("insert_edge"), subject: z.string(), relation: z.string(), object: z.string() }),
  z.object({ type: z.literal("delete_edge"), subject: z.string(), relation: z.string(), object: z.string() }),
  z.object({ type: z.literal("replace_node"), old: z.string(), new: z.string() }),
]);

export const RunSummary = z.object({
  id: z.string(),
  graph: z.string(),
  queryId: z.string(),
  question: z.string(),
  graphVersion: int,
  provider: z.string(),
  model: z.string(),
  isLlm: z.boolean(),
  status: z.enum(["running", "early_exit", "awaiting_review", "finished", "failed", "interrupted"]),
  error: z.string().nullable(),
  earlyExit: z.boolean(),
  steps: int,
  actions: int,
  answeredAt: int.nullable().describe("the first step judged answerable; null when none was"),
  applied: int.describe("how many of its proposed actions were approved and are applied now"),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});

export const RunDetails = RunSummary.extend({
  config: z.object({
    maxHops: int,
    incrementHop: int,
    baseTopK: int,
    maxTripleNumByStep: z.array(int),
    historyHorizon: int,
    maxActions: int,
    refineAfterFinalYes: z.boolean(),
    formatRetries: int,
  }),
  stepRecords: z.array(
    z.object({
      step: int,
      query: z.string(),
      numHops: int,
      baseTopK: int,
      cap: int,
      retrieval: z.object({ method: z.enum(["graphify_query", "graph_rft_plan", "k_hop_expansion", "graphify_query+k_hop_expansion"]), evidence: z.string() }),
      triples: z.array(Triple),
      edgeKeys: z.array(z.string()),
      answerable: z.boolean(),
      judgementRaw: z.string(),
      timings: z.object({ retrievalMs: z.number(), judgeMs: z.number() }),
    }),
  ),
  abductionRaw: z.string().nullable(),
  abduction: z.string().nullable(),
  refinementRaw: z.string().nullable(),
  actionList: z.array(RefinementAction),
  actionWarnings: z.array(z.string()),
  calls: z.array(
    z.object({
      task: z.enum(["judge", "abduction", "refinement"]),
      step: int.nullable(),
      attempt: int,
      raw: z.string(),
      latencyMs: z.number(),
      usage: z.object({ promptTokens: int, completionTokens: int, totalTokens: int }).optional(),
      error: z.string().optional(),
    }),
  ),
});

export const LaunchedRuns = z.object({ runId: z.string().nullable(), queued: z.array(z.string()) });

const DiffNode = z.object({ id: z.string(), label: z.string(), community });
const DiffEdge = z.object({ key: z.string(), subject: z.string(), relation: z.string(), object: z.string(), subject_id: z.string(), object_id: z.string() });

export const GraphDiff = z.object({
  addedNodes: z.array(DiffNode),
  removedNodes: z.array(DiffNode),
  changedNodes: z.array(z.object({ before: DiffNode, after: DiffNode, fields: z.array(z.string()) })),
  mergedNodes: z.array(z.object({ from: DiffNode, into: DiffNode })),
  addedEdges: z.array(DiffEdge),
  removedEdges: z.array(DiffEdge),
  changedEdges: z.array(z.object({ before: DiffEdge, after: DiffEdge })),
});

const diffStatus = z.enum(["added", "removed", "changed", "merged", "context"]);

export const DiffGraph = z.object({
  nodes: z.array(
    z.object({ id: z.string(), label: z.string(), community, status: diffStatus, previousLabel: z.string().optional(), mergedInto: z.string().optional() }),
  ),
  edges: z.array(
    z.object({
      id: z.string(),
      source: z.string(),
      target: z.string(),
      relation: z.string(),
      status: diffStatus,
      previous: z.object({ source: z.string(), target: z.string(), relation: z.string() }).optional(),
    }),
  ),
  truncated: z.boolean(),
});

export const VersionInfo = z.object({
  version: int,
  message: z.string(),
  nodes: int,
  edges: int,
  createdAt: timestamp,
  kind: z.enum(["import", "apply", "revert"]),
  revertOf: int.nullable(),
  revertedBy: int.nullable(),
  proposalId: z.string().nullable(),
  actor: z.string().nullable(),
  actions: z.array(
    z.object({
      index: int,
      summary: z.string().describe("what the action did, as a sentence naming nodes by label"),
      skipped: z.boolean(),
      change: z
        .object({ kind: z.enum(["add_edge", "edge_exists", "remove_edge", "remove_copies", "same_node", "merge", "rename"]) })
        .nullable()
        .describe("the same as data, with node ids ({id, label} per node); null for an old summary of unknown shape"),
    }),
  ),
});

export const VersionDiff = z.object({ diff: GraphDiff.extend({ from: int, to: int }), graph: DiffGraph });

export const RevertResult = z.object({ version: int, changesetId: int, reverted: int, diff: GraphDiff });
