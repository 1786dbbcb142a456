/**
 * The LLM client never holds more than its response cap: a server pushing 600 MB (chunked, no
 * Content-Length — what an attacker or a broken proxy sends) is cut off after the cap with a
 * clear LLM_FORMAT error naming the cap and its setting, and the process's memory stays flat.
 * Real HTTP through the local test server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { KnowledgeGraph } from "../../graph/model";
import type { CompletionRequest } from "../../loop/types";
import { DEFAULT_MAX_RESPONSE_BYTES, createOpenAiProvider } from "./openai";
import type { OpenAiProviderSettings } from "./openai";
import { completion, sequence, startTestLlmServer } from "./test-llm-server";
import type { TestLlmServer } from "./test-llm-server";

const servers: TestLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  delete process.env.REFINERY_LLM_MAX_RESPONSE_BYTES;
});

function settingsFor(server: { url: string }, overrides: Partial<OpenAiProviderSettings> = {}): OpenAiProviderSettings {
  return { baseUrl: server.url, model: "test-model", temperature: 0, timeoutMs: 60_000, maxRetries: 2, concurrency: 1, ...overrides };
}

const request: CompletionRequest = {
  task: "judge",
  messages: [{ role: "user", content: "Answer Yes or No." }],
  context: { task: "judge", question: "q", step: 1, triples: [], graph: new KnowledgeGraph() },
};

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("LLM response size cap", () => {
  it("cuts a 600 MB chunked push off at the 8 MB default without buffering it", async () => {
    const server = await startTestLlmServer({ handler: sequence({ status: 200, streamBytes: 600 * 1024 * 1024 }) });
    servers.push(server);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const error = await failure(createOpenAiProvider(settingsFor(server)).complete(request)).finally(() => clearInterval(sampler));
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(8 * 1024 * 1024);
    expect(error.code).toBe("LLM_FORMAT");
    expect(error.message).toMatch(/larger than the 8 MB cap/);
    expect(error.message).toMatch(/REFINERY_LLM_MAX_RESPONSE_BYTES/);
    expect(error.details).toMatchObject({ provider: "openai", kind: "too_large", limitBytes: DEFAULT_MAX_RESPONSE_BYTES });
    // Cut off, not retried: the same server would push the same again.
    expect(server.requests).toHaveLength(1);
    // The cap plus a decoding copy, with slack for the runtime: far below the 600 MB pushed.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    process.env.REFINERY_LLM_MAX_RESPONSE_BYTES = "100000";
    const server = await startTestLlmServer({ handler: sequence({ status: 200, streamBytes: 50 * 1024 * 1024, declareLength: true }) });
    servers.push(server);
    const error = await failure(createOpenAiProvider(settingsFor(server)).complete(request));
    expect(error.code).toBe("LLM_FORMAT");
    expect(error.message).toMatch(/declared a response of 52,428,800 bytes, larger than the 100,000-byte cap/);
  });

  it("takes the cap from settings or REFINERY_LLM_MAX_RESPONSE_BYTES and passes responses under it", async () => {
    const big = "y".repeat(200_000);
    const server = await startTestLlmServer({ handler: sequence(completion(big), completion(big), completion(big)) });
    servers.push(server);
    expect((await createOpenAiProvider(settingsFor(server)).complete(request)).text).toBe(big);
    expect((await failure(createOpenAiProvider(settingsFor(server, { maxResponseBytes: 100_000 })).complete(request))).details.kind).toBe("too_large");
    process.env.REFINERY_LLM_MAX_RESPONSE_BYTES = "150000";
    expect((await failure(createOpenAiProvider(settingsFor(server)).complete(request))).message).toMatch(/150,000-byte cap/);
  });

  it("reads only the start of a huge error body and still reports the status", async () => {
    const server = await startTestLlmServer({ handler: sequence({ status: 400, streamBytes: 600 * 1024 * 1024 }) });
    servers.push(server);
    const error = await failure(createOpenAiProvider(settingsFor(server)).complete(request));
    expect(error.code).toBe("LLM_UNAVAILABLE");
    expect(error.details.status).toBe(400);
  });
});
