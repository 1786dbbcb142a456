/**
 * Where proposals come from (issue #16), on the real store: a person in the browser, an API
 * token (an agent, with the agent and model it says), a refinement file from the CLI, a campaign,
 * and a run started by each. The queue page filters by origin and counts each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyQueueFilters, countQueueOrigins, DEFAULT_FILTERS, toQueueRows } from "@/components/review/queue-rows";
import type { Actor } from "../../auth/permissions";
import { CLI_ACTOR } from "../../auth/permissions";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { createTestUser } from "../auth/test-support";
import { importGraphFromPath } from "../graphs";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { findProposalPage } from "./find-proposal-page";
import type { CreateProposalOptions, ProposalOrigin } from "./proposals";
import { createProposal, getProposal, proposalOrigin, reviewForGraph } from "./proposals";

let db: TestDatabase;
let person: Actor & { kind: "user" };
let token: Actor & { kind: "token" };
const OBJECTS = ["_build_request", "send", "request", "stream", "get", "post", "close"];
let made = 0;

/** A proposal of one action, a different one each time (the queue would merge copies into one row). */
async function propose(options: Omit<CreateProposalOptions, "graph" | "baseVersion" | "actions" | "reviews">): Promise<string> {
  const actions: RefinementAction[] = [{ type: "insert_edge", subject: "Client", relation: "calls", object: OBJECTS[made++ % OBJECTS.length] as string }];
  const reviews = await reviewForGraph({ graph: "httpx", actions });
  return createProposal({ graph: "httpx", baseVersion: 1, actions, reviews, ...options });
}

beforeAll(async () => {
  db = await useTestDatabase("proposal-origin");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  const ada = await createTestUser({ username: "ada", role: "admin" });
  person = { kind: "user", userId: ada.id, username: "ada", displayName: "ada", role: "admin", sessionId: "s" };
  token = { kind: "token", userId: ada.id, username: "ada", displayName: "ada", role: "admin", tokenId: "t", scope: "propose" };
}, 60_000);

afterAll(async () => {
  await db.cleanup();
});

describe("proposal origins", () => {
  it("each way in records its origin; an agent's name and model are kept, trimmed", async () => {
    const cases: [string, ProposalOrigin][] = [
      [await propose({ source: "api", submittedBy: person }), "person"],
      [await propose({ source: "api", submittedBy: token, agent: { name: "  DeepRefine ", model: "qwen3-8b" } }), "agent"],
      [await propose({ source: "file" }), "cli"],
      [await propose({ source: "campaign", submittedBy: person }), "campaign"],
      [await propose({ source: "run", startedBy: token }), "agent"],
      [await propose({ source: "run", startedBy: CLI_ACTOR }), "cli"],
    ];
    for (const [id, origin] of cases) expect((await getProposal(id)).origin).toBe(origin);
    const agent = await getProposal(cases[1]?.[0] as string);
    expect([agent.agentName, agent.agentModel, agent.submittedById]).toEqual(["DeepRefine", "qwen3-8b", person.userId]);
    expect(proposalOrigin("agent", null)).toBe("agent");
  });

  it("the queue page filters by origin and counts each under the other filters; the queue rows filter the same way", async () => {
    const agents = await findProposalPage({ origin: "agent" });
    expect(agents.proposals.map((p) => p.origin)).toEqual(["agent", "agent"]);
    expect(agents.summary.total).toBe(2);
    expect(agents.summary.byOrigin).toEqual({ person: 1, agent: 2, cli: 2, campaign: 1 });
    const all = await findProposalPage({});
    const rows = toQueueRows(all.proposals);
    expect(countQueueOrigins(rows, DEFAULT_FILTERS)).toEqual({ person: 1, agent: 2, cli: 2, campaign: 1 });
    const onlyCli = applyQueueFilters(rows, { ...DEFAULT_FILTERS, origin: "cli" }).visible;
    expect(onlyCli.map((r) => r.origin)).toEqual(["cli", "cli"]);
  });
});
