/**
 * The review's LLM verification through reviewForGraph, against a real local HTTP server speaking
 * the OpenAI chat-completions protocol, on the imported MuSiQue bundle: checked quotes move a label,
 * fabricated ones do not, a failing or hanging server leaves the review as it was, and with the
 * heuristic provider (or REFINERY_REVIEW_VERIFY=off) no call is made.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "../../loop/types";
import type { ActionReview } from "../../review/types";
import { dataPath } from "../../test/data";
import { getGraphSummary } from "../graphs";
import { importGraphFromPath } from "../graphs";
import { reviewForGraph } from "./proposals";
import type { TestLlmHandler, TestLlmServer } from "../providers/test-llm-server";
import { completion, errorReply, startTestLlmServer } from "../providers/test-llm-server";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { isReviewVerifyEnabled } from "./verify-reviews";

const ENV = ["REFINERY_LLM_PROVIDER", "REFINERY_LLM_BASE_URL", "REFINERY_LLM_MODEL", "REFINERY_LLM_TIMEOUT_MS", "REFINERY_LLM_MAX_RETRIES", "REFINERY_LLM_CONCURRENCY", "REFINERY_REVIEW_VERIFY"];
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

let db: TestDatabase;
let server: TestLlmServer | undefined;
let version: number;

const HALL = 'The formal study of adolescent psychology began with the publication of G. Stanley Hall\'s "Adolescence in 1904."';
const DARWIN = "This understanding of youth was based on two then new ways of understanding human behavior: Darwin's evolutionary theory and Freud's psychodynamic theory.";
const ERIKSON = "Hall's assertions stood relatively uncontested until the 1950s when psychologists such as Erik Erikson and Anna Freud started to formulate their theories about adolescence.";

const ins = (subject: string, relation: string, object: string): RefinementAction => ({ type: "insert_edge", subject, relation, object });
const DARWIN_ACTION = ins("G. Stanley Hall", "influenced by", "Darwin");
const ERIKSON_ACTION = ins("Erik Erikson", "studied", "Adolescence");
const BLOCKED_ACTION = ins("G. Stanley Hall", "founded", "unknown");

function setEnv(values: Record<string, string | undefined>): void {
  for (const k of ENV) {
    const v = values[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

async function useServer(handler: TestLlmHandler, extra: Record<string, string> = {}): Promise<TestLlmServer> {
  server = await startTestLlmServer({ handler });
  setEnv({ REFINERY_LLM_PROVIDER: "openai", REFINERY_LLM_BASE_URL: server.url, REFINERY_LLM_MODEL: "verifier-7b", REFINERY_LLM_TIMEOUT_MS: "5000", REFINERY_LLM_MAX_RETRIES: "0", REFINERY_LLM_CONCURRENCY: "2", ...extra });
  return server;
}

const review = (actions: RefinementAction[]) => reviewForGraph({ graph: "musique", version, actions, rulesWaitMs: 60_000 });

/** The user message of a recorded request. */
function claimOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
  return messages.find((m) => m.role === "user")?.content ?? "";
}

/** The review without the verification's neutral signal and reason. */
function withoutFailure(r: ActionReview): ActionReview {
  return { ...r, signals: r.signals?.filter((s) => !s.summary.startsWith("verification failed")), reasons: r.reasons.filter((x) => !x.startsWith("verification failed")) };
}

let baseline: ActionReview[];

beforeAll(async () => {
  db = await useTestDatabase("verify-reviews");
  await importGraphFromPath({ path: dataPath("musique"), name: "musique" });
  version = (await getGraphSummary("musique")).version;
  setEnv({ REFINERY_LLM_PROVIDER: "heuristic" });
  baseline = await review([DARWIN_ACTION, ERIKSON_ACTION, BLOCKED_ACTION]);
}, 120_000);

afterEach(async () => {
  await server?.close();
  server = undefined;
  setEnv({});
});

afterAll(async () => {
  setEnv(saved);
  await db.cleanup();
});

describe("review verification over HTTP", () => {
  it("the heuristic provider makes no call; the baseline labels are LOW, MEDIUM, LOW", async () => {
    expect(baseline.map((r) => r.confidence)).toEqual(["LOW", "MEDIUM", "LOW"]);
    const s = await useServer(() => completion("<verdict>supported</verdict>"), { REFINERY_LLM_PROVIDER: "heuristic" });
    expect(await review([DARWIN_ACTION, ERIKSON_ACTION, BLOCKED_ACTION])).toEqual(baseline);
    expect(s.requests).toHaveLength(0);
  });

  it("REFINERY_REVIEW_VERIFY=off turns it off with an LLM configured; a bad value is a neutral signal naming the variable", async () => {
    const s = await useServer(() => completion("<verdict>supported</verdict>"), { REFINERY_REVIEW_VERIFY: "off" });
    expect(await review([DARWIN_ACTION])).toEqual([baseline[0]]);
    expect(s.requests).toHaveLength(0);
    expect(() => isReviewVerifyEnabled({ REFINERY_REVIEW_VERIFY: "maybe" })).toThrow(/REFINERY_REVIEW_VERIFY must be on or off/);
    process.env.REFINERY_REVIEW_VERIFY = "maybe";
    const [r] = await review([DARWIN_ACTION]);
    expect(r?.confidence).toBe("LOW");
    expect(r?.signals?.at(-1)?.summary).toMatch(/^verification failed: REFINERY_REVIEW_VERIFY must be on or off/);
  });

  it("supported with real quotes raises the LOW insert to MEDIUM and the co-mention MEDIUM's score; the blocked action is not sent", async () => {
    const s = await useServer((req) => {
      const claim = claimOf(req.body);
      if (claim.includes('"Darwin"')) return completion(`<verdict>supported</verdict>\n<quote doc="musique-p0010">${HALL}</quote>\n<quote doc="musique-p0010">${DARWIN}</quote>`, { delayMs: 50 });
      return completion(`<verdict>supported</verdict>\n<quote doc="musique-p0010">${ERIKSON}</quote>`, { delayMs: 50 });
    });
    const [darwin, erikson, blocked] = await review([DARWIN_ACTION, ERIKSON_ACTION, BLOCKED_ACTION]);
    expect(s.requests).toHaveLength(2);
    expect(s.maxInFlight).toBeLessThanOrEqual(2);
    expect(claimOf(s.requests[0]?.body)).toContain('<document id="musique-p0010" title="Adolescence">');
    expect((s.requests[0]?.body as { model?: string }).model).toBe("verifier-7b");

    expect(darwin?.confidence).toBe("MEDIUM");
    expect(darwin?.signals?.at(-1)).toMatchObject({ kind: "llm", contribution: 1.5, positive: true });
    expect(darwin?.evidence.at(-1)).toMatchObject({ quote: DARWIN, source: { docId: "musique-p0010", title: "Adolescence" } });
    expect(erikson?.confidence).toBe("MEDIUM");
    expect(erikson?.score).toBeGreaterThan(baseline[1]?.score ?? 1);
    expect(blocked).toEqual(baseline[2]);
  });

  it("a fabricated quote gives nothing: same label and score, the reason says so", async () => {
    const s = await useServer(() => completion('<verdict>supported</verdict><quote doc="musique-p0010">Hall was deeply influenced by Charles Darwin\'s work.</quote>'));
    const [r] = await review([DARWIN_ACTION]);
    expect(s.requests).toHaveLength(1);
    expect(r).toMatchObject({ confidence: "LOW", score: baseline[0]?.score });
    expect(r?.reasons.at(-2)).toMatch(/^verification: the model claimed support but quoted nothing that is in the source; dropped 1 quote/);
  });

  it("a 500 (after the client's retries), garbage or a hang leaves the review as it was, with a neutral signal", async () => {
    let s = await useServer(() => errorReply(500, "overloaded"), { REFINERY_LLM_MAX_RETRIES: "1" });
    let [r] = await review([DARWIN_ACTION]);
    expect(s.requests).toHaveLength(2);
    expect(r?.signals?.at(-1)).toMatchObject({ kind: "llm", contribution: 0 });
    expect(r?.signals?.at(-1)?.summary).toMatch(/^verification failed: LLM server at .* failed after 2 attempts: HTTP 500/);
    expect(withoutFailure(r as ActionReview)).toEqual(baseline[0]);
    await s.close();

    s = await useServer(() => completion("I believe this is true."));
    [r] = await review([DARWIN_ACTION]);
    expect(r?.signals?.at(-1)?.summary).toBe("verification failed: the verification answer is unusable: no <verdict> tag");
    expect(withoutFailure(r as ActionReview)).toEqual(baseline[0]);
    await s.close();

    s = await useServer(() => "hang", { REFINERY_LLM_TIMEOUT_MS: "300" });
    [r] = await review([DARWIN_ACTION]);
    expect(r?.signals?.at(-1)?.summary).toMatch(/^verification failed: /);
    expect(withoutFailure(r as ActionReview)).toEqual(baseline[0]);
  });
});
