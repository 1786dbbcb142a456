import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { ImportReport as ImportReportType } from "../graphs";
import type { GraphSummary as GraphSummaryType } from "../graphs";
import type { NodeDetails as NodeDetailsType, NodeSummary as NodeSummaryType, Neighbourhood as NeighbourhoodType, SearchResult as SearchResultType } from "../graphs";
import type { AddQuestionsResult as AddQuestionsResultType, QuestionItem as QuestionItemType, syncMemoryFiles } from "../runs";
import type { RunDetails as RunDetailsType, RunSummary as RunSummaryType } from "../runs";
import type { LaunchedRuns as LaunchedRunsType } from "../runs";
import type { VersionInfo as VersionInfoType, diffVersionsGraph, revertVersion } from "../proposals";
import type { ApplyProposalResult, PreviewResult as PreviewResultType, ProposalActionItem as ProposalActionItemType, ProposalDetails as ProposalDetailsType } from "../proposals";
import type { describeProvider } from "../providers";
import type { ProposalPage as ProposalPageType, QueueProposalPage as QueueProposalPageType } from "../proposals";
import type { ApproveActionsResult } from "../approvals";
import type { DecisionResult as DecisionResultType } from "../approvals";
import type { CommentView as CommentViewType } from "../approvals";
import type { TimelineEvent as TimelineEventType } from "../approvals";
import type { GraphPolicy as GraphPolicyType } from "../policies";
import type { ConnectionCheck as ConnectionCheckType, LlmSettingsView } from "../providers";
import type { ApiErrorBody } from "../../../app/api/_lib/respond";
import { buildOpenApiDocument } from "./openapi";
import type * as base from "./openapi-schemas";
import type * as review from "./openapi-schemas-review";
import type * as approvalSchemas from "./openapi-schemas-approvals";

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "app", "api");

interface RouteFile {
  path: string;
  methods: string[];
}

/** Every route.ts under app/api, as its OpenAPI path and the HTTP methods it exports. */
function findRouteFiles(dir: string): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findRouteFiles(full));
    else if (entry.name === "route.ts") {
      const route = `/api/${path.relative(apiRoot, dir).split(path.sep).join("/")}`.replace(/\[([^\]]+)\]/g, "{$1}");
      const source = fs.readFileSync(full, "utf8");
      const methods = [...source.matchAll(/export\s+(?:async\s+)?function\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => (m[1] ?? "").toLowerCase());
      found.push({ path: route, methods });
    }
  }
  return found;
}

type Operation = { operationId?: string; responses: Record<string, unknown> };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = buildOpenApiDocument() as unknown as Doc;
const routes = findRouteFiles(apiRoot);

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1", () => {
    expect(doc.openapi).toBe("3.1.0");
  });

  it("describes every route handler under app/api, method by method", () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      expect(doc.paths, `no path for app/api${route.path.slice(4)}`).toHaveProperty([route.path]);
      expect(route.methods.length, `${route.path} exports no handler`).toBeGreaterThan(0);
      for (const method of route.methods) expect(doc.paths[route.path], `${method.toUpperCase()} ${route.path}`).toHaveProperty([method]);
    }
  });

  it("documents no route that does not exist", () => {
    const real = new Map(routes.map((r) => [r.path, r.methods]));
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(real.has(p), `${p} has no route.ts`).toBe(true);
      for (const method of Object.keys(item)) expect(real.get(p), `${method.toUpperCase()} ${p}`).toContain(method);
    }
  });

  it("gives every operation a unique operationId", () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("documents the 428 and 403 of approve and the 409 of revert, with the error body", () => {
    const apply = doc.paths["/api/proposals/{id}/approve"]?.post;
    expect(apply?.responses).toHaveProperty("403");
    expect(apply?.responses).toHaveProperty("428");
    expect(apply?.responses).toHaveProperty("409");
    expect(doc.paths["/api/graphs/{name}/versions/{version}/revert"]?.post?.responses).toHaveProperty("409");
    expect(JSON.stringify(apply?.responses["428"])).toContain("#/components/schemas/ErrorBody");
  });

  it("only refers to schemas it defines", () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(refs.length).toBeGreaterThan(30);
    for (const name of new Set(refs)) expect(doc.components.schemas, name).toHaveProperty([name]);
  });

  it("marks request fields required as the routes do", () => {
    const body = doc.paths["/api/graphs"]?.post as unknown as { requestBody: { content: { "application/json": { schema: { required?: string[] } } } } };
    expect(body.requestBody.content["application/json"].schema.required).toEqual(["path"]);
  });
});

// Compile-time: what the server returns fits what the document promises.
type Doc_<K extends keyof typeof base | keyof typeof review | keyof typeof approvalSchemas> = z.infer<(typeof base & typeof review & typeof approvalSchemas)[K]>;
it("response schemas accept the server's types (checked by tsc)", () => {
  expectTypeOf<GraphSummaryType>().toExtend<Doc_<"GraphSummary">>();
  expectTypeOf<ImportReportType>().toExtend<Doc_<"ImportReport">>();
  expectTypeOf<NodeSummaryType>().toExtend<Doc_<"NodeSummary">>();
  expectTypeOf<SearchResultType>().toExtend<Doc_<"SearchResult">>();
  expectTypeOf<NeighbourhoodType>().toExtend<Doc_<"Neighbourhood">>();
  expectTypeOf<NodeDetailsType>().toExtend<Doc_<"NodeDetails">>();
  expectTypeOf<QuestionItemType>().toExtend<Doc_<"QuestionItem">>();
  expectTypeOf<AddQuestionsResultType>().toExtend<Doc_<"AddQuestionsResult">>();
  expectTypeOf<Awaited<ReturnType<typeof syncMemoryFiles>>>().toExtend<Doc_<"SyncMemoryResult">>();
  expectTypeOf<RunSummaryType>().toExtend<Doc_<"RunSummary">>();
  expectTypeOf<RunDetailsType>().toExtend<Doc_<"RunDetails">>();
  expectTypeOf<LaunchedRunsType>().toExtend<Doc_<"LaunchedRuns">>();
  expectTypeOf<VersionInfoType>().toExtend<Doc_<"VersionInfo">>();
  expectTypeOf<Awaited<ReturnType<typeof diffVersionsGraph>>>().toExtend<Doc_<"VersionDiff">>();
  expectTypeOf<Awaited<ReturnType<typeof revertVersion>>>().toExtend<Doc_<"RevertResult">>();
  expectTypeOf<ProposalDetailsType>().toExtend<Doc_<"ProposalDetails">>();
  expectTypeOf<ProposalPageType>().toExtend<Doc_<"ProposalPage">>();
  expectTypeOf<QueueProposalPageType>().toExtend<Doc_<"QueueProposalPage">>();
  expectTypeOf<ProposalActionItemType>().toExtend<Doc_<"ProposalActionItem">>();
  expectTypeOf<PreviewResultType>().toExtend<Doc_<"PreviewResult">>();
  expectTypeOf<ApplyProposalResult>().toExtend<Doc_<"ApplyResult">>();
  expectTypeOf<ApproveActionsResult>().toExtend<Doc_<"ApproveResult">>();
  expectTypeOf<DecisionResultType>().toExtend<Doc_<"DecisionResult">>();
  expectTypeOf<CommentViewType>().toExtend<Doc_<"CommentView">>();
  expectTypeOf<TimelineEventType>().toExtend<Doc_<"TimelineEvent">>();
  expectTypeOf<GraphPolicyType>().toExtend<Doc_<"GraphPolicy">>();
  expectTypeOf<Awaited<ReturnType<typeof describeProvider>>>().toExtend<Doc_<"ProviderInfo">>();
  expectTypeOf<LlmSettingsView>().toExtend<Doc_<"LlmSettingsView">>();
  expectTypeOf<ConnectionCheckType>().toExtend<Doc_<"ConnectionCheck">>();
  expectTypeOf<ApiErrorBody>().toExtend<Doc_<"ErrorBody">>();
});

describe("the OpenAPI document's security", () => {
  it("offers the session cookie and bearer tokens, and marks only the public operations open", () => {
    const full = doc as unknown as Doc & { security: unknown[]; components: { securitySchemes: Record<string, { type: string }> } };
    expect(Object.keys(full.components.securitySchemes).sort()).toEqual(["bearerToken", "sessionCookie"]);
    expect(full.security).toHaveLength(2);
    const open = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item)
        .filter(([, op]) => Array.isArray((op as { security?: unknown[] }).security))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(open.sort()).toEqual(["GET /api/auth/session", "GET /api/openapi.json", "POST /api/auth/login", "POST /api/auth/setup"]);
    expect(doc.paths["/api/graphs"]?.get?.responses).toHaveProperty("401");
    expect(doc.paths["/api/users/{id}"]?.patch?.responses).toHaveProperty("403");
    expect(doc.paths["/api/auth/login"]?.post?.responses).toHaveProperty("429");
  });
});
