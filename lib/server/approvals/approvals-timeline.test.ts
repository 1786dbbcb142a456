/**
 * The timeline numbers actions as the proposal does: applying action 3 on its own says
 * "action 3", not its position among the actions chosen for that apply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { findProposalTimeline } from "./approvals-timeline";
import { getDb } from "../db/db";
import { getGraphRecord } from "../graphs";
import { importGraphFromPath } from "../graphs";
import { applyProposal, createProposal, reviewForGraph } from "../proposals";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;

// Three independent links between nodes the httpx graph has (labels as graphify wrote them).
const ACTIONS: RefinementAction[] = [
  { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" },
  { type: "insert_edge", subject: "AsyncClient", relation: "uses", object: "Timeout" },
  { type: "insert_edge", subject: "HTTPTransport", relation: "uses", object: "Limits" },
];

beforeAll(async () => {
  db = await useTestDatabase("timeline");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
});

afterAll(async () => {
  await db.cleanup();
});

async function proposeAll(): Promise<string> {
  const record = await getGraphRecord("httpx");
  const reviews = await reviewForGraph({ graph: "httpx", actions: ACTIONS });
  return createProposal({ graph: "httpx", baseVersion: record.currentVersion, source: "api", runId: null, question: null, actions: ACTIONS, reviews });
}

describe("findProposalTimeline", () => {
  it("names the applied action by its number in the proposal, apply after apply", async () => {
    const id = await proposeAll();
    const third = await applyProposal({ proposalId: id, actionIndexes: [2], allowLowConfidence: true, actor: "bob" });
    const rest = await applyProposal({ proposalId: id, actionIndexes: [1, 0], allowLowConfidence: true, actor: "ann" });
    const applies = (await findProposalTimeline({ proposalId: id })).filter((e) => e.kind === "apply");
    expect(applies.map((e) => [e.who, e.version])).toEqual([
      ["bob", third.version],
      ["ann", rest.version],
    ]);
    expect(applies[0]?.text).toMatch(new RegExp(`^applied action 3 as version ${third.version}`));
    expect(applies[1]?.text).toMatch(new RegExp(`^applied actions 1, 2 as version ${rest.version}`));
    // The version's own list of actions is numbered the same way.
    const changeset = await getDb().changeset.findFirstOrThrow({ where: { proposalId: id, version: third.version } });
    expect((JSON.parse(changeset.summary) as { index: number }[]).map((a) => a.index)).toEqual([2]);
    // And its message is a sentence that says so.
    expect(changeset.message).toMatch(/^Applied action 3 of the proposal[;.]/);
  });

  it("a run started with no account is the command line's, not \"unknown\"", async () => {
    const record = await getGraphRecord("httpx");
    const question = "How does Client build a request?";
    // As `refinery loop run` / `loop import` store it: no account, so no starter's name.
    const run = await getDb().run.create({
      data: { graphId: record.id, queryId: "q-timeline", question, graphVersion: record.currentVersion, provider: "heuristic", model: "heuristic", isLlm: false, config: "{}", status: "awaiting_review" },
    });
    const reviews = await reviewForGraph({ graph: "httpx", actions: ACTIONS.slice(0, 1) });
    const id = await createProposal({ graph: "httpx", baseVersion: record.currentVersion, source: "run", runId: run.id, question, actions: ACTIONS.slice(0, 1), reviews });
    const events = await findProposalTimeline({ proposalId: id });
    expect(events.find((e) => e.kind === "run")).toMatchObject({ who: "command line", text: `started the run: ${question}` });
  });
});
