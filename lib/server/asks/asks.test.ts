/**
 * Asks stored like runs (SQLite, or PostgreSQL with REFINERY_TEST_DATABASE=postgres) on the real
 * MuSiQue bundle: the row exists while the ask runs, the trace and answers land with the final
 * status and both audit events; "ask again" after an apply sees the answer change; the run page's
 * answer comes from the answerable step's triples; the per-graph loop setting switches step 1 to
 * the planned retrieval.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskTrace } from "../../ask/types";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import type { CompletionRequest, LlmProvider } from "../../loop/types";
import { createHeuristicProvider } from "../../providers/heuristic";
import { dataPath } from "../../test/data";
import { askAgainForProposal, compareAnswers } from "./ask-again";
import { askGraph, findAsks, getAsk, startAsk } from "./asks";
import { getDb } from "../db/db";
import { importGraphFromPath } from "../graphs";
import { getLoopSettings, updateLoopSettings } from "../runs";
import { applyProposal, createProposal, reviewForGraph } from "../proposals";
import { startRun } from "../runs";
import { answerRunStep } from "../runs";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const GRAPH = "musique";
const QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
const ADMIN: Actor = { kind: "user", userId: "u-admin", username: "ada", displayName: "Ada", role: "admin", sessionId: "s1" };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isAppError(error) ? error.code : `not an AppError: ${String(error)}`;
  }
  return "no error";
}

beforeAll(async () => {
  db = await useTestDatabase("asks");
  await importGraphFromPath({ path: dataPath("musique"), name: GRAPH });
}, 60_000);

afterAll(async () => {
  await db.cleanup();
});

describe("asks", () => {
  it("stores an ask: running first, then the answer, the trace and the audit events", async () => {
    const started = await startAsk({ graph: GRAPH, question: `  ${QUESTION} `, actor: ADMIN });
    const running = await getDb().ask.findUniqueOrThrow({ where: { id: started.askId } });
    expect(running.status).toBe("running");
    expect(running.trace).toBeNull();
    const ask = await started.done;
    expect(ask.status).toBe("answered");
    expect(ask.question).toBe(QUESTION);
    expect(ask.answers[0]?.label).toBe("G. Stanley Hall");
    expect(ask.provider).toBe("heuristic");
    expect(ask.isLlm).toBe(false);
    expect(ask.startedByName).toBeTruthy();
    expect(ask.trace?.plan.length).toBeGreaterThanOrEqual(2);
    expect(ask.trace?.calls.map((c) => c.tool)).toContain("neighbor_search");
    expect(ask.trace?.subgraph.some((t) => t.subject === "G. Stanley Hall" || t.object === "G. Stanley Hall")).toBe(true);
    expect(ask.totalMs).not.toBeNull();

    const events = await getDb().auditEvent.findMany({ where: { targetType: "ask", targetId: ask.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["ask.start", "ask.finish"]);
    expect(events[1]?.summary).toContain("G. Stanley Hall");

    const listed = await findAsks({ graph: GRAPH });
    expect(listed[0]?.id).toBe(ask.id);
    expect(listed[0]).not.toHaveProperty("trace");
    expect((await getAsk(ask.id)).trace?.question).toBe(QUESTION);
  });

  it("refuses an empty question, an unknown graph, version or ask, by code", async () => {
    expect(await codeOf(startAsk({ graph: GRAPH, question: "   " }))).toBe("INVALID_INPUT");
    expect(await codeOf(startAsk({ graph: "no-such-graph", question: QUESTION }))).toBe("NOT_FOUND");
    expect(await codeOf(startAsk({ graph: GRAPH, question: QUESTION, version: 99 }))).toBe("NOT_FOUND");
    expect(await codeOf(getAsk("no-such-ask"))).toBe("NOT_FOUND");
  });

  it("records a provider failure as a failed ask, with the step and the reason", async () => {
    const broken: LlmProvider = {
      name: "openai",
      model: "broken-model",
      isLlm: true,
      complete: (_request: CompletionRequest) => Promise.reject(new Error("connection refused")),
    };
    const ask = await askGraph({ graph: GRAPH, question: QUESTION, provider: broken });
    expect(ask.status).toBe("failed");
    expect(ask.error).toMatch(/connection refused/);
    expect(ask.isLlm).toBe(true);
    const finish = await getDb().auditEvent.findFirstOrThrow({ where: { targetId: ask.id, action: "ask.finish" } });
    expect(finish.actorKind).toBe("system");
    expect(finish.summary).toMatch(/failed/);
  });
});

describe("ask again after an apply", () => {
  it("compares answers by node id, else by label", () => {
    const a = (label: string, id: string | null) => ({ label, id, score: 1, via: "graph" as const });
    expect(compareAnswers({ status: "answered", answers: [a("X", "n1")] }, { status: "answered", answers: [a("x (renamed)", "n1")] }).changed).toBe(false);
    expect(compareAnswers({ status: "answered", answers: [a("X", null)] }, { status: "answered", answers: [a(" x ", null)] }).changed).toBe(false);
    expect(compareAnswers({ status: "no_answer", answers: [] }, { status: "answered", answers: [a("Y", "n2")] })).toEqual({ changed: true, added: ["Y"], removed: [] });
  });

  it("asks the base version and the current one, and sees the answer go when its edge is deleted", async () => {
    const actions = [{ type: "delete_edge" as const, subject: "G. Stanley Hall", relation: "first president of", object: "American Psychological Association" }];
    const baseVersion = (await getDb().graph.findUniqueOrThrow({ where: { name: GRAPH } })).currentVersion;
    const reviews = await reviewForGraph({ graph: GRAPH, actions });
    const proposalId = await createProposal({ graph: GRAPH, baseVersion, source: "api", question: QUESTION, actions, reviews });
    expect(await codeOf(askAgainForProposal({ proposalId }))).toBe("CONFLICT");

    await applyProposal({ proposalId, allowLowConfidence: true, lowConfidenceReason: "test", actor: "test" });
    const result = await askAgainForProposal({ proposalId, actor: ADMIN });
    expect(result.before.graphVersion).toBe(baseVersion);
    expect(result.after.graphVersion).toBe(baseVersion + 1);
    expect(result.before.answers[0]?.label).toBe("G. Stanley Hall");
    expect(result.after.answers.map((a) => a.label)).not.toContain("G. Stanley Hall");
    expect(result.changed).toBe(true);
    expect(result.removed).toContain("G. Stanley Hall");

    // The stored "before" ask is reused the second time; both are linked to the proposal.
    const again = await askAgainForProposal({ proposalId });
    expect(again.before.id).toBe(result.before.id);
    expect((await findAsks({ graph: GRAPH, proposalId })).length).toBe(3);
  });

  it("refuses a proposal without a question", async () => {
    const actions = [{ type: "insert_edge" as const, subject: "G. Stanley Hall", relation: "born in", object: "Ashfield" }];
    const reviews = await reviewForGraph({ graph: GRAPH, actions });
    const version = (await getDb().graph.findUniqueOrThrow({ where: { name: GRAPH } })).currentVersion;
    const proposalId = await createProposal({ graph: GRAPH, baseVersion: version, source: "file", question: null, actions, reviews });
    expect(await codeOf(askAgainForProposal({ proposalId }))).toBe("INVALID_INPUT");
  });
});

describe("the loop and Ask", () => {
  it("switches step 1 to the planned retrieval per graph, audited", async () => {
    expect((await getLoopSettings({ graph: GRAPH })).step1Retrieval).toBe("graphify_query");
    await updateLoopSettings({ graph: GRAPH, step1Retrieval: "graph_rft_plan", actor: ADMIN });
    expect((await getLoopSettings({ graph: GRAPH })).step1Retrieval).toBe("graph_rft_plan");
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { action: "settings.update", graphName: GRAPH }, orderBy: { id: "desc" } });
    expect(audit.summary).toContain("graph_rft_plan");

    const question = "Who founded the organisation that publishes Journal of Psychotherapy Integration?";
    const run = await (await startRun({ graph: GRAPH, question, provider: createHeuristicProvider() })).done;
    expect(run.stepRecords[0]?.retrieval.method).toBe("graph_rft_plan");
    expect(run.stepRecords[0]?.retrieval.evidence).toMatch(/^Ask plan/);
    await updateLoopSettings({ graph: GRAPH, step1Retrieval: "graphify_query", actor: ADMIN });
    const plain = await (await startRun({ graph: GRAPH, question: `${question} (again)`, provider: createHeuristicProvider() })).done;
    expect(plain.stepRecords[0]?.retrieval.method).toBe("graphify_query");
  }, 60_000);

  it("states the answer of the step judged answerable, from that step's triples only", async () => {
    // A provider that judges step 2 answerable: the answer must come from step 2's triples.
    const heuristic = createHeuristicProvider();
    let judged = 0;
    const provider: LlmProvider = {
      name: heuristic.name,
      model: heuristic.model,
      isLlm: false,
      complete: async (request) => (request.task === "judge" ? { text: ++judged >= 2 ? "<judge>Yes</judge>" : "<judge>No</judge>" } : heuristic.complete(request)),
    };
    const run = await (await startRun({ graph: GRAPH, question: "Who published Journal of Psychotherapy Integration?", provider })).done;
    const step = run.stepRecords.find((s) => s.answerable);
    expect(step?.step).toBe(2);
    const answer = await answerRunStep(run.id);
    expect(answer?.step).toBe(2);
    expect(answer?.method).toBe("heuristic_ask_over_step_triples");
    const trace = answer?.trace as AskTrace;
    const stepIds = new Set(step?.triples.flatMap((t) => [t.subject_id, t.object_id]));
    expect(trace.answers.length).toBeGreaterThan(0);
    for (const a of trace.answers) expect(a.id === null || stepIds.has(a.id)).toBe(true);
    expect(trace.answers[0]?.label).toBe("American Psychological Association");
  }, 60_000);
});
