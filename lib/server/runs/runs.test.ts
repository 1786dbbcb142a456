/**
 * Runs across app instances (on SQLite and, with REFINERY_TEST_DATABASE=postgres, PostgreSQL):
 * one running run per question even when two starts race, restarts interrupt only runs whose
 * process is gone (never another live instance's), and `runPending` leaves questions another
 * instance is running alone.
 */
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../errors";
import type { LlmProvider } from "../../loop/types";
import { createHeuristicProvider } from "../../providers/heuristic";
import { dataPath } from "../../test/data";
import { getDb } from "../db/db";
import { importGraphFromPath } from "../graphs";
import { addQuestions } from "./questions";
import { markInterruptedRuns, PROCESS_OWNER, runPending, startRun } from "./runs";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
let graphId: string;

/** The heuristic provider, held at its first call until `release()`: the run stays "running". */
function gatedProvider(): { provider: LlmProvider; release: () => void } {
  const inner = createHeuristicProvider();
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    provider: { name: inner.name, model: inner.model, isLlm: inner.isLlm, complete: async (request) => (await gate, inner.complete(request)) },
    release: () => release(),
  };
}

async function insertRunningRun(owner: string, heartbeatAgoMs: number, queryId: string) {
  return getDb().run.create({
    data: {
      graphId,
      queryId,
      question: `question ${queryId}`,
      graphVersion: 1,
      provider: "heuristic",
      model: "heuristic-v1",
      isLlm: false,
      config: "{}",
      status: "running",
      owner,
      heartbeatAt: new Date(Date.now() - heartbeatAgoMs),
    },
  });
}

beforeAll(async () => {
  db = await useTestDatabase("runs");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  graphId = (await getDb().graph.findUniqueOrThrow({ where: { name: "httpx" } })).id;
});

afterAll(async () => {
  await db.cleanup();
});

describe("one running run per question", () => {
  it("two concurrent starts of one question: one runs, the other gets CONFLICT (not a 500)", async () => {
    const gated = gatedProvider();
    const question = "Which class does Client inherit from?";
    const results = await Promise.allSettled([
      startRun({ graph: "httpx", question, provider: gated.provider }),
      startRun({ graph: "httpx", question, provider: gated.provider }),
    ]);
    const started = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(started.length).toBe(1);
    expect(refused.length).toBe(1);
    const reason = (refused[0] as PromiseRejectedResult).reason as unknown;
    expect(isAppError(reason) && reason.code).toBe("CONFLICT");
    gated.release();
    const run = await (started[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof startRun>>>).value.done;
    expect(run.status).not.toBe("running");
    // Once it finished, the question can run again.
    const again = await startRun({ graph: "httpx", question, provider: createHeuristicProvider() });
    expect((await again.done).status).not.toBe("running");
  });

  it("the database itself refuses a second running run of a question (another instance's insert)", async () => {
    await insertRunningRun(`1@another-host`, 0, "feedfeedfeedfeed");
    await expect(insertRunningRun(`2@another-host`, 0, "feedfeedfeedfeed")).rejects.toMatchObject({ code: "P2002" });
    await getDb().run.updateMany({ where: { queryId: "feedfeedfeedfeed" }, data: { status: "interrupted" } });
  });
});

describe("restarts", () => {
  it("interrupts dead or silent runs, never a live instance's", async () => {
    const live = await insertRunningRun(`4242@other-instance-${process.pid}`, 1_000, "1111111111111111");
    const silent = await insertRunningRun(`4242@crashed-instance-${process.pid}`, 10 * 60_000, "2222222222222222");
    const deadHere = await insertRunningRun(`999999999@${os.hostname()}`, 60_000, "3333333333333333");
    // Our pid and host, but not started by this process: a previous process that had our pid
    // (pid 1 in a container restarts as pid 1).
    const previousLife = await insertRunningRun(PROCESS_OWNER, 60_000, "4444444444444444");
    const justStartedHere = await insertRunningRun(`999999998@${os.hostname()}`, 0, "5555555555555555");
    const gated = gatedProvider();
    const mine = await startRun({ graph: "httpx", question: "What does main call?", provider: gated.provider });

    expect(await markInterruptedRuns()).toBe(3);
    const status = async (id: string) => (await getDb().run.findUniqueOrThrow({ where: { id } })).status;
    expect(await status(live.id)).toBe("running");
    expect(await status(mine.runId)).toBe("running");
    expect(await status(silent.id)).toBe("interrupted");
    expect(await status(deadHere.id)).toBe("interrupted");
    expect(await status(previousLife.id)).toBe("interrupted");
    expect(await status(justStartedHere.id)).toBe("running");
    await getDb().run.update({ where: { id: justStartedHere.id }, data: { status: "interrupted" } });

    gated.release();
    expect((await mine.done).status).not.toBe("running");
    await getDb().run.update({ where: { id: live.id }, data: { status: "interrupted" } });
  });

  it("a new start takes over a question whose run lost its lease (the instance died)", async () => {
    const question = "Who maintains httpx?";
    const [item] = (await addQuestions({ graph: "httpx", texts: [question], source: "user" })).added;
    if (!item) throw new Error("question not added");
    const orphan = await insertRunningRun(`5@dead-instance-${process.pid}`, 10 * 60_000, item.queryId);
    const started = await startRun({ graph: "httpx", queryId: item.queryId, provider: createHeuristicProvider() });
    expect((await started.done).status).not.toBe("running");
    expect((await getDb().run.findUniqueOrThrow({ where: { id: orphan.id } })).status).toBe("interrupted");
  });

  it("runPending skips a question another instance is running", async () => {
    const added = await addQuestions({ graph: "httpx", texts: ["What does Client send?", "What does Response hold?"], source: "user" });
    const [busy, free] = added.added;
    if (!busy || !free) throw new Error("questions not added");
    const other = await insertRunningRun(`77@other-instance-${process.pid}`, 0, busy.queryId);
    await getDb().run.update({ where: { id: other.id }, data: { questionPk: busy.pk } });
    const results = await runPending({ graph: "httpx", provider: createHeuristicProvider() });
    const ran = results.map((r) => r.queryId);
    expect(ran).toContain(free.queryId);
    expect(ran).not.toContain(busy.queryId);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: other.id } })).status).toBe("running");
  });
});
