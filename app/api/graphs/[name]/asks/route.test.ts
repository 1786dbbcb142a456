/**
 * The Ask endpoints through the real handlers with real sessions and tokens, on the MuSiQue
 * bundle: POST starts an ask (201, running) that GET /api/asks/{id} then shows answered, or with
 * `wait` answers finished; lists; bad input, unknown graphs and viewers are refused by code; the
 * loop setting is an admin's to change; a run's answerable step states its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskDetails, AskSummary } from "@/lib/server/asks/asks";
import { createTestToken, createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import type { LlmProvider } from "@/lib/loop/types";
import { createHeuristicProvider } from "@/lib/providers/heuristic";
import { startRun } from "@/lib/server/runs/runs";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { dataPath } from "@/lib/test/data";
import { GET as getAskRoute } from "../../../asks/[id]/route";
import { GET as getRunAnswer } from "../../../runs/[id]/answer/route";
import { GET as getLoopSettings, PUT as putLoopSettings } from "../loop-settings/route";
import { GET, POST } from "./route";

let db: TestDatabase;
const QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
const graphCtx = (name: string) => ({ params: Promise.resolve({ name }) });
const idCtx = (id: string) => ({ params: Promise.resolve({ id }) });
const url = (path: string) => `http://localhost${path}`;

type Body<T> = T & { error?: { code: string; message: string } };

async function post(name: string, headers: Record<string, string>, body: unknown) {
  const res = await POST(new Request(url(`/api/graphs/${name}/asks`), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }), graphCtx(name));
  return { status: res.status, body: (await res.json()) as Body<AskDetails> };
}

async function getAsk(id: string, headers: Record<string, string>) {
  const res = await getAskRoute(new Request(url(`/api/asks/${id}`), { headers }), idCtx(id));
  return { status: res.status, body: (await res.json()) as Body<AskDetails> };
}

beforeAll(async () => {
  db = await useTestDatabase("asks-route");
  await importGraphFromPath({ path: dataPath("musique"), name: "musique" });
  await createTestUser({ username: "ada", role: "admin" });
  await createTestUser({ username: "rita", role: "reviewer" });
  await createTestUser({ username: "vic", role: "viewer" });
}, 60_000);

afterAll(async () => {
  await db.cleanup();
});

describe("POST /api/graphs/{name}/asks", () => {
  it("starts an ask at once (201, running); GET /api/asks/{id} then shows the answer and the trace", async () => {
    const rita = await signInHeaders("rita");
    const started = await post("musique", rita, { question: QUESTION });
    expect(started.status).toBe(201);
    expect(started.body.status).toBe("running");
    expect(started.body.trace).toBeNull();
    let ask = started.body;
    for (let i = 0; i < 100 && ask.status === "running"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ask = (await getAsk(started.body.id, await signInHeaders("vic"))).body;
    }
    expect(ask.status).toBe("answered");
    expect(ask.answers[0]?.label).toBe("G. Stanley Hall");
    expect(ask.startedByName).toBe("rita");
    expect(ask.trace?.calls.length).toBeGreaterThan(0);
  });

  it("waits for the answer with wait: true (an API token may ask)", async () => {
    await createTestUser({ username: "bot", role: "reviewer" });
    const r = await post("musique", await createTestToken("bot", "propose"), { question: QUESTION, wait: true, corpusFallback: false });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("answered");
    expect(r.body.trace?.options.corpusFallback).toBe(false);
  });

  it("refuses an empty question (400), an unknown graph (404) and a viewer (403)", async () => {
    const rita = await signInHeaders("rita");
    expect((await post("musique", rita, { question: "  " })).body.error?.code).toBe("INVALID_INPUT");
    expect((await post("musique", rita, { question: QUESTION, toolBudget: 0 })).status).toBe(400);
    expect((await post("nosuch", rita, { question: QUESTION })).status).toBe(404);
    expect((await post("musique", await signInHeaders("vic"), { question: QUESTION })).status).toBe(403);
    expect((await post("musique", {}, { question: QUESTION })).status).toBe(401);
  });
});

describe("GET /api/graphs/{name}/asks and /api/asks/{id}", () => {
  it("lists the graph's asks newest first, without their traces", async () => {
    const res = await GET(new Request(url("/api/graphs/musique/asks"), { headers: await signInHeaders("vic") }), graphCtx("musique"));
    const list = (await res.json()) as AskSummary[];
    expect(res.status).toBe(200);
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.every((a) => !("trace" in a))).toBe(true);
    expect(Date.parse(list[0]?.createdAt ?? "")).toBeGreaterThanOrEqual(Date.parse(list[1]?.createdAt ?? ""));
  });

  it("answers 404 for an unknown ask", async () => {
    const r = await getAsk("nosuch", await signInHeaders("vic"));
    expect(r.status).toBe(404);
    expect(r.body.error?.code).toBe("NOT_FOUND");
  });
});

describe("loop settings and a run's answer", () => {
  it("lets only an admin switch step 1 to the planned retrieval", async () => {
    const put = async (headers: Record<string, string>, body: unknown) =>
      putLoopSettings(new Request(url("/api/graphs/musique/loop-settings"), { method: "PUT", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }), graphCtx("musique"));
    expect((await put(await signInHeaders("rita"), { step1Retrieval: "graph_rft_plan" })).status).toBe(403);
    expect((await put(await signInHeaders("ada"), { step1Retrieval: "vector_search" })).status).toBe(400);
    const ok = await put(await signInHeaders("ada"), { step1Retrieval: "graph_rft_plan" });
    expect(ok.status).toBe(200);
    const read = await getLoopSettings(new Request(url("/api/graphs/musique/loop-settings"), { headers: await signInHeaders("vic") }), graphCtx("musique"));
    expect(await read.json()).toEqual({ graph: "musique", step1Retrieval: "graph_rft_plan" });
  });

  it("states the answer of the step judged answerable", async () => {
    // The judge says Yes at step 1 (the heuristic judge is not what this tests).
    const heuristic = createHeuristicProvider();
    const provider: LlmProvider = { ...heuristic, name: heuristic.name, model: heuristic.model, isLlm: false, complete: async (r) => (r.task === "judge" ? { text: "<judge>Yes</judge>" } : heuristic.complete(r)) };
    const run = await (await startRun({ graph: "musique", question: QUESTION, provider })).done;
    expect(run.stepRecords[0]?.retrieval.method).toBe("graph_rft_plan");
    const res = await getRunAnswer(new Request(url(`/api/runs/${run.id}/answer`), { headers: await signInHeaders("vic") }), idCtx(run.id));
    const body = (await res.json()) as { answer: { step: number; trace: { answers: { label: string }[] } } | null };
    expect(res.status).toBe(200);
    const answerable = run.stepRecords.find((s) => s.answerable);
    expect(answerable).toBeDefined();
    expect(body.answer?.step).toBe(answerable?.step);
    expect(body.answer?.trace.answers[0]?.label).toBe("G. Stanley Hall");
    const missing = await getRunAnswer(new Request(url("/api/runs/nosuch/answer"), { headers: await signInHeaders("vic") }), idCtx("nosuch"));
    expect(missing.status).toBe(404);
  }, 60_000);
});
