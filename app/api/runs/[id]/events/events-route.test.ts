/**
 * Live-progress streams over a real HTTP server (node:http in front of the route handler, read
 * with fetch as a browser's EventSource would): a run of this process is pushed, not polled; a
 * run of another process is followed by the fallback poll; open streams are capped per account
 * and in total with a 429 + Retry-After, and a closed stream gives its slot back.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LlmProvider } from "@/lib/loop/types";
import { createHeuristicProvider } from "@/lib/providers/heuristic";
import { dataPath } from "@/lib/test/data";
import { createTestToken, createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { getDb } from "@/lib/server/db/db";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { openEventStreamCount } from "@/lib/server/runs/run-event-streams";
import { startRun } from "@/lib/server/runs/runs";
import type * as RunsModule from "@/lib/server/runs/runs";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { GET } from "./route";

// Counts the route's reads of a run: a pushed stream reads it once at the start and once at the end.
const reads = vi.hoisted(() => ({ getRun: 0 }));
vi.mock("@/lib/server/runs/runs", async (importOriginal) => {
  const actual = await importOriginal<typeof RunsModule>();
  return {
    ...actual,
    getRun: (id: string) => {
      reads.getRun++;
      return actual.getRun(id);
    },
  };
});

let db: TestDatabase;
let server: http.Server;
let base: string;

function gatedProvider(): { provider: LlmProvider; release: () => void } {
  const inner = createHeuristicProvider();
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    provider: { name: inner.name, model: inner.model, isLlm: inner.isLlm, complete: async (request) => (await gate, inner.complete(request)) },
    release: () => release(),
  };
}

/** A web stream's chunks (the DOM lib types do not declare ReadableStream async-iterable). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

interface SseEvent {
  event: string;
  data: unknown;
}

/** One open stream: its status and headers, and its events as they arrive. */
async function openStream(runId: string, headers: Record<string, string>) {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/runs/${runId}/events`, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  let ended = false;
  const pump = (async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of chunksOf(res.body)) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    }
    ended = true;
  })();
  return {
    status: res.status,
    headers: res.headers,
    body: res.status === 200 ? null : ((await res.json()) as { error: { code: string; message: string } }),
    events,
    isEnded: () => ended,
    async close() {
      abort.abort();
      await pump;
    },
    async untilDone(timeoutMs = 15_000) {
      const start = Date.now();
      while (!events.some((e) => e.event === "done")) {
        if (Date.now() - start > timeoutMs) throw new Error(`no done event after ${timeoutMs} ms: ${events.map((e) => e.event).join(",")}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      await pump;
    },
  };
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  db = await useTestDatabase("run-events");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await createTestUser({ username: "rita", role: "reviewer" });
  await createTestUser({ username: "vera", role: "viewer" });
  await createTestUser({ username: "tom", role: "viewer" });
  server = http.createServer((req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const url = new URL(req.url ?? "/", "http://localhost");
    const id = decodeURIComponent(url.pathname.split("/")[3] ?? "");
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    void (async () => {
      const response = await GET(new Request(url, { headers, signal: abort.signal }), { params: Promise.resolve({ id }) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return res.end();
      try {
        for await (const chunk of chunksOf(response.body)) res.write(chunk);
      } catch {
        // the client went away
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.cleanup();
});

describe("GET /api/runs/{id}/events over HTTP", () => {
  it("pushes the steps and the end of a run of this process without polling the database", async () => {
    const gated = gatedProvider();
    const started = await startRun({ graph: "httpx", question: "Which class does Client inherit from?", provider: gated.provider });
    reads.getRun = 0;
    const stream = await openStream(started.runId, await signInHeaders("rita"));
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    // Long enough that a 300 ms poll would read the run several times meanwhile.
    await new Promise((r) => setTimeout(r, 1_500));
    gated.release();
    await stream.untilDone();
    const run = await started.done;
    const steps = stream.events.filter((e) => e.event === "step").map((e) => (e.data as { step: number }).step);
    expect(steps).toEqual(run.stepRecords.map((s) => s.step));
    expect(steps.length).toBeGreaterThan(0);
    const done = stream.events.at(-1);
    expect(done?.event).toBe("done");
    expect((done?.data as { status: string }).status).toBe(run.status);
    // One read when the stream opens and one when the run's end is pushed.
    expect(reads.getRun).toBeLessThanOrEqual(2);
    await eventually(() => openEventStreamCount() === 0);
  });

  it("follows a run of another process with the fallback poll", async () => {
    process.env.REFINERY_EVENT_STREAMS_POLL_MS = "100";
    try {
      const graph = await getDb().graph.findUniqueOrThrow({ where: { name: "httpx" } });
      const row = await getDb().run.create({
        data: { graphId: graph.id, queryId: "feedfacefeedface", question: "q", graphVersion: 1, provider: "heuristic", model: "heuristic", isLlm: false, config: "{}", status: "running", owner: "4242@another-host" },
      });
      const stream = await openStream(row.id, await signInHeaders("vera"));
      expect(stream.status).toBe(200);
      const step = { step: 1, answerable: false, triples: [] };
      await getDb().runStep.create({ data: { runId: row.id, step: 1, data: JSON.stringify(step), answerable: false } });
      await eventually(() => stream.events.some((e) => e.event === "step"));
      await getDb().run.update({ where: { id: row.id }, data: { status: "finished", finishedAt: new Date() } });
      await stream.untilDone(5_000);
      expect(stream.events.map((e) => e.event)).toEqual(["status", "step", "status", "done"]);
    } finally {
      delete process.env.REFINERY_EVENT_STREAMS_POLL_MS;
    }
  });

  it("caps open streams per account and in total with 429 + Retry-After, and frees a slot on close", async () => {
    process.env.REFINERY_EVENT_STREAMS_PER_USER = "2";
    process.env.REFINERY_EVENT_STREAMS_MAX = "3";
    const gated = gatedProvider();
    const started = await startRun({ graph: "httpx", question: "What does Timeout use?", provider: gated.provider });
    const open: Awaited<ReturnType<typeof openStream>>[] = [];
    try {
      const rita = await signInHeaders("rita");
      open.push(await openStream(started.runId, rita), await openStream(started.runId, rita));
      expect(open.map((s) => s.status)).toEqual([200, 200]);

      const third = await openStream(started.runId, rita);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(third.body?.error.code).toBe("RATE_LIMITED");
      expect(third.body?.error.message).toMatch(/for this account \(2 of 2\)/);
      // A token counts with its owner: minting tokens does not widen the cap.
      expect((await openStream(started.runId, await createTestToken("rita", "read"))).status).toBe(429);

      open.push(await openStream(started.runId, await signInHeaders("vera")));
      expect(open[2]?.status).toBe(200);
      const overTotal = await openStream(started.runId, await signInHeaders("tom"));
      expect(overTotal.status).toBe(429);
      expect(overTotal.body?.error.message).toMatch(/most live-progress streams it allows open \(3\)/);

      // A refused or failed open holds nothing: an unknown run is a 404, not a 429, every time.
      for (let i = 0; i < 3; i++) expect((await openStream("no-such-run", await signInHeaders("tom"))).status).toBe(429);
      await open.shift()?.close();
      await eventually(async () => {
        const again = await openStream(started.runId, rita);
        if (again.status === 200) open.push(again);
        return again.status === 200;
      });
    } finally {
      gated.release();
      await started.done;
      for (const s of open) await s.untilDone();
      delete process.env.REFINERY_EVENT_STREAMS_PER_USER;
      delete process.env.REFINERY_EVENT_STREAMS_MAX;
    }
    await eventually(() => openEventStreamCount() === 0);
    for (let i = 0; i < 3; i++) expect((await openStream("no-such-run", await signInHeaders("tom"))).status).toBe(404);
  });
});
