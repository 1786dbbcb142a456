/**
 * Campaigns on the server: iterations are stored as they finish, the live graph stays at its
 * version, the best iteration becomes one proposal whose approval applies cleanly, and a
 * campaign whose process is gone is marked interrupted with its iterations kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countryQuestions, hierarchyModel } from "../../campaign/test-support";
import { dataPath } from "../../test/data";
import { PROCESS_OWNER, findCampaigns, getCampaign, markInterruptedCampaigns, resumeCampaign, startCampaign, stopCampaign } from "./campaigns";
import { getDb } from "../db/db";
import { loadGraph } from "../graphs";
import { importGraphFromPath } from "../graphs";
import { applyProposal, getProposal } from "../proposals";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("campaigns");
  await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries", format: "triples" });
});

afterAll(async () => {
  await db.cleanup();
});

describe("campaigns", () => {
  it("runs in a sandbox, stores every iteration, and submits the best one as one proposal that applies cleanly", async () => {
    const { test, questions } = countryQuestions();
    const before = await loadGraph("countries");
    const edgesBefore = before.graph.edges.size;
    const seen: number[] = [];
    const started = await startCampaign({ graph: "countries", questions, provider: hierarchyModel(), onIteration: (it) => void seen.push(it.iter) });
    const done = await started.done;

    expect(done.status).toBe("finished");
    expect(done.iterationList.map((i) => i.iter)).toEqual(seen);
    expect(done.worklog).toHaveLength(seen.length);
    expect(done.bestIter).toBeGreaterThan(0);
    expect(done.proposalId).toBeTruthy();
    // The live graph did not change.
    const after = await loadGraph("countries");
    expect(after.version).toBe(before.version);
    expect(after.graph.edges.size).toBe(edgesBefore);

    const proposal = await getProposal(done.proposalId as string);
    expect(proposal.source).toBe("campaign");
    expect(proposal.question).toMatch(/^Campaign: iter0 /);
    expect(proposal.actions).toHaveLength(test.length);
    expect(proposal.actions[0]?.review.reasons.some((r) => r.startsWith("accepted in iteration"))).toBe(true);
    expect(proposal.actions[0]?.review.reasons.some((r) => / → answerable at step 1/.test(r))).toBe(true);

    // LOW still needs its confirmation, as for any proposal.
    const low = proposal.actions.filter((a) => a.confidence === "LOW");
    console.log(`campaign proposal labels: ${JSON.stringify(proposal.counts)}`);
    if (low.length > 0) await expect(applyProposal({ proposalId: proposal.id, actor: "test" })).rejects.toMatchObject({ code: "CONFIRMATION_REQUIRED" });
    const applied = await applyProposal({ proposalId: proposal.id, allowLowConfidence: low.length > 0, lowConfidenceReason: "test", actor: "test" });
    expect(applied.applied.filter((a) => !a.skipped)).toHaveLength(test.length);
    const now = await loadGraph("countries");
    expect(now.version).toBe(before.version + 1);
    for (const [country, relation, region] of test) expect(now.graph.outEdges(country).some((e) => e.relation === relation && e.target === region)).toBe(true);
    expect(now.graph.edges.size).toBe(edgesBefore + test.length);

    const listed = await findCampaigns({ graph: "countries" });
    expect(listed[0]).toMatchObject({ id: started.campaignId, status: "finished", iterations: seen.length });
  }, 120_000);

  it("stops a campaign on request, keeping what it did", async () => {
    const { questions } = countryQuestions();
    // The model's first answer waits for the stop, so the stop lands while the campaign works
    // (an instant model can otherwise finish before the stop request reads the row).
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = hierarchyModel();
    const gated: typeof model = { ...model, complete: async (request) => (await gate, model.complete(request)) };
    const started = await startCampaign({ graph: "countries", questions, provider: gated, iterationCap: 5 });
    await stopCampaign(started.campaignId);
    release();
    const done = await started.done;
    expect(done.status).toBe("stopped");
    expect(done.haltedBecause).toBe("stopped");
    await expect(stopCampaign(started.campaignId)).rejects.toMatchObject({ code: "CONFLICT" });
  }, 60_000);

  it("marks a campaign of a dead process interrupted with its iterations intact", async () => {
    const graph = await getDb().graph.findUniqueOrThrow({ where: { name: "countries" } });
    const row = await getDb().campaign.create({
      data: { graphId: graph.id, baseVersion: 1, provider: "heuristic", model: "heuristic-v1", isLlm: false, questions: "[]", config: "{}", status: "running", owner: PROCESS_OWNER, heartbeatAt: new Date(Date.now() - 300_000) },
    });
    await getDb().campaignIteration.create({ data: { campaignId: row.id, iter: 0, decision: "BASELINE", overall: 25, data: "{}", worklog: "{}" } });
    expect(await markInterruptedCampaigns()).toBe(1);
    const c = await getCampaign(row.id);
    expect(c.status).toBe("interrupted");
    expect(c.iterations).toBe(1);
    expect(c.error).toMatch(/iterations are kept/);
  });

  it("resumes an interrupted campaign from its stored iterations and ends as the uninterrupted one did", async () => {
    // A fresh import: the first test applied its proposal to "countries".
    await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries-fresh", format: "triples" });
    const { questions } = countryQuestions();
    const whole = await (await startCampaign({ graph: "countries-fresh", questions, provider: hierarchyModel() })).done;
    expect(whole.iterationList.length).toBeGreaterThan(2);
    // The same campaign, interrupted after iteration 1: its row and first two iterations.
    const source = await getDb().campaign.findUniqueOrThrow({ where: { id: whole.id }, include: { iterations: { orderBy: { iter: "asc" } } } });
    const copy = await getDb().campaign.create({
      data: { graphId: source.graphId, baseVersion: source.baseVersion, provider: source.provider, model: source.model, isLlm: source.isLlm, questions: source.questions, config: source.config, status: "interrupted", owner: "1@gone", error: "stopped" },
    });
    for (const it of source.iterations.slice(0, 2)) await getDb().campaignIteration.create({ data: { campaignId: copy.id, iter: it.iter, decision: it.decision, overall: it.overall, data: it.data, worklog: it.worklog } });
    const resumed = await (await resumeCampaign({ id: copy.id, provider: hierarchyModel() })).done;
    expect(resumed.status).toBe("finished");
    expect(resumed.iterationList.map((i) => [i.decision, i.score.overall])).toEqual(whole.iterationList.map((i) => [i.decision, i.score.overall]));
    expect(resumed.bestIter).toBe(whole.bestIter);
    expect(resumed.proposalId).toBeTruthy();
    await expect(resumeCampaign({ id: copy.id })).rejects.toMatchObject({ code: "CONFLICT" });
  }, 120_000);

  it("refuses bad input with typed errors", async () => {
    await expect(startCampaign({ graph: "countries", questions: [] })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(startCampaign({ graph: "nope", questions: [{ id: "a", question: "x?" }] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getCampaign("missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
