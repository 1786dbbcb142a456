import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { KnowledgeGraph } from "../../graph/model";
import type { CompletionRequest } from "../../loop/types";
import { createOpenAiProvider, parseRetryAfter } from "./openai";
import type { OpenAiProviderDeps, OpenAiProviderSettings } from "./openai";
import { completion, completionBody, errorReply, sequence, startTestLlmServer } from "./test-llm-server";
import type { TestLlmHandler, TestLlmServer } from "./test-llm-server";

const KEY = "sk-test-very-secret-key-123";

const servers: TestLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: TestLlmHandler): Promise<TestLlmServer> {
  const server = await startTestLlmServer({ handler });
  servers.push(server);
  return server;
}

function settingsFor(server: { url: string }, overrides: Partial<OpenAiProviderSettings> = {}): OpenAiProviderSettings {
  return {
    baseUrl: server.url,
    model: "test-model",
    apiKey: KEY,
    temperature: 0,
    timeoutMs: 2_000,
    maxRetries: 3,
    concurrency: 2,
    ...overrides,
  };
}

/** Sleeps that return at once and remember what was asked for. */
function recordingSleep(): { delays: number[]; sleep: NonNullable<OpenAiProviderDeps["sleep"]> } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

function request(signal?: AbortSignal): CompletionRequest {
  return {
    task: "judge",
    messages: [
      { role: "system", content: "You judge whether triples answer a question." },
      { role: "user", content: "Question: who directed Kismet?\nAnswer: Yes or No." },
    ],
    context: { task: "judge", question: "who directed Kismet?", step: 1, triples: [], graph: new KnowledgeGraph() },
    ...(signal ? { signal } : {}),
  };
}

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

function expectNoKey(error: AppError): void {
  expect(error.message).not.toContain(KEY);
  expect(JSON.stringify(error.details)).not.toContain(KEY);
}

describe("openai provider: happy path", () => {
  it("posts model, messages, temperature, max_tokens and the bearer key; parses text, usage and model", async () => {
    const server = await serve(() =>
      completion("Yes. The triples name the director.", {
        model: "served-model-v2",
        usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
      }),
    );
    const provider = createOpenAiProvider(settingsFor(server, { maxTokens: 256, temperature: 0.2 }));
    expect(provider.name).toBe("openai");
    expect(provider.isLlm).toBe(true);
    expect(provider.model).toBe("test-model");

    const result = await provider.complete(request());
    expect(result).toEqual({
      text: "Yes. The triples name the director.",
      usage: { promptTokens: 42, completionTokens: 7, totalTokens: 49 },
      model: "served-model-v2",
    });

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers["content-type"]).toContain("application/json");
    expect(sent.body).toEqual({
      model: "test-model",
      messages: request().messages,
      temperature: 0.2,
      max_tokens: 256,
    });
  });

  it("sends no Authorization header without a key and no max_tokens when unset; tolerates a trailing slash", async () => {
    const server = await serve(() => completion("No"));
    const provider = createOpenAiProvider(settingsFor({ url: `${server.url}/` }, { apiKey: undefined }));
    await provider.complete(request());
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: "test-model", messages: request().messages, temperature: 0 });
  });

  it("returns no usage or model when the server reports none, and fills a missing total", async () => {
    const server = await serve(
      sequence(
        { status: 200, body: { choices: [{ message: { role: "assistant", content: "plain" } }] } },
        completion("partial", { usage: { prompt_tokens: 3, completion_tokens: 4 } }),
      ),
    );
    const provider = createOpenAiProvider(settingsFor(server));
    expect(await provider.complete(request())).toEqual({ text: "plain" });
    expect((await provider.complete(request())).usage).toEqual({ promptTokens: 3, completionTokens: 4, totalTokens: 7 });
  });

  it("returns garbage completion text as it is: the loop's parsers deal with it", async () => {
    const garbage = "%%%<<answer>> ??? {not: json] \u0000 ñ";
    const server = await serve(() => completion(garbage));
    const result = await createOpenAiProvider(settingsFor(server)).complete(request());
    expect(result.text).toBe(garbage);
  });

  it("returns an empty string content as empty text", async () => {
    const server = await serve(() => completion(""));
    expect((await createOpenAiProvider(settingsFor(server)).complete(request())).text).toBe("");
  });
});

describe("openai provider: retries", () => {
  it("waits for Retry-After (seconds) on 429, then succeeds", async () => {
    const server = await serve(sequence(errorReply(429, "Rate limit reached", { "retry-after": "2" }), completion("Yes")));
    const { delays, sleep } = recordingSleep();
    const result = await createOpenAiProvider(settingsFor(server), { sleep }).complete(request());
    expect(result.text).toBe("Yes");
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2_000]);
  });

  it("honours Retry-After as an HTTP date, and caps long waits", async () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    const server = await serve(
      sequence(
        errorReply(503, "overloaded", { "retry-after": new Date(now + 5_000).toUTCString() }),
        errorReply(429, "slow down", { "retry-after": "3600" }),
        completion("ok"),
      ),
    );
    const { delays, sleep } = recordingSleep();
    const provider = createOpenAiProvider(settingsFor(server), { sleep, now: () => now, retryAfterMaxMs: 10_000 });
    expect((await provider.complete(request())).text).toBe("ok");
    expect(delays).toEqual([5_000, 10_000]);
  });

  it("retries 500, 500 then succeeds, with growing backoff", async () => {
    const server = await serve(sequence(errorReply(500, "boom"), errorReply(500, "boom"), completion("third time")));
    const { delays, sleep } = recordingSleep();
    const provider = createOpenAiProvider(settingsFor(server), { sleep, random: () => 0.5, retryBaseDelayMs: 100 });
    expect((await provider.complete(request())).text).toBe("third time");
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBe(75); // 100 ms: half fixed + half × 0.5 jitter
    expect(delays[1]).toBe(150); // doubled
  });

  it("retries 408 and 409 too", async () => {
    const server = await serve(sequence(errorReply(408, "timeout"), errorReply(409, "conflict"), completion("fine")));
    const { sleep } = recordingSleep();
    expect((await createOpenAiProvider(settingsFor(server), { sleep }).complete(request())).text).toBe("fine");
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after maxRetries + 1 attempts of 500 with an error naming the status and the server's message", async () => {
    const server = await serve(() => errorReply(500, "model crashed"));
    const { delays, sleep } = recordingSleep();
    const error = await failure(createOpenAiProvider(settingsFor(server, { maxRetries: 2 }), { sleep }).complete(request()));
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(error.code).toBe("LLM_UNAVAILABLE");
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("model crashed");
    expect(error.message).toContain("3 attempts");
    expect(error.details).toMatchObject({ provider: "openai", kind: "http", status: 500, attempts: 3 });
    expectNoKey(error);
  });

  it("caps computed backoff at retryMaxDelayMs", async () => {
    const server = await serve(() => errorReply(502, "bad gateway"));
    const { delays, sleep } = recordingSleep();
    const provider = createOpenAiProvider(settingsFor(server, { maxRetries: 5 }), {
      sleep,
      random: () => 0.999,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 300,
    });
    await failure(provider.complete(request()));
    expect(delays).toHaveLength(5);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(300);
    expect(delays[4]).toBeGreaterThanOrEqual(150);
  });

  it("retries a dropped connection (network error), then succeeds", async () => {
    const server = await serve(sequence("drop", completion("after reconnect")));
    const { sleep } = recordingSleep();
    expect((await createOpenAiProvider(settingsFor(server), { sleep }).complete(request())).text).toBe("after reconnect");
    expect(server.requests).toHaveLength(2);
  });

  it("reports an unreachable server clearly after the retries", async () => {
    const server = await serve(() => completion("never"));
    const url = server.url;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const { delays, sleep } = recordingSleep();
    const error = await failure(createOpenAiProvider(settingsFor({ url }, { maxRetries: 1 }), { sleep }).complete(request()));
    expect(delays).toHaveLength(1);
    expect(error.message).toContain("Could not reach the LLM server");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.details).toMatchObject({ kind: "network", attempts: 2 });
  });
});

describe("openai provider: client errors are not retried", () => {
  it("401: one attempt, the server's message, a hint, and never the key (even when the server echoes it)", async () => {
    const server = await serve(() => errorReply(401, `Incorrect API key provided: ${KEY}. You can find your key elsewhere.`));
    const { delays, sleep } = recordingSleep();
    const error = await failure(createOpenAiProvider(settingsFor(server), { sleep }).complete(request()));
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(error.code).toBe("LLM_UNAVAILABLE");
    expect(error.message).toContain("HTTP 401");
    expect(error.message).toContain("Incorrect API key provided");
    expect(error.message).toContain("REFINERY_LLM_API_KEY");
    expect(error.details).toMatchObject({ kind: "http", status: 401, attempts: 1 });
    expectNoKey(error);
  });

  it.each([
    [400, "max_tokens is too large"],
    [403, "forbidden"],
    [404, "The model `test-model` does not exist"],
    [422, "unprocessable"],
  ])("%i: one attempt and the server's error.message", async (status, message) => {
    const server = await serve(() => errorReply(status, message));
    const error = await failure(createOpenAiProvider(settingsFor(server)).complete(request()));
    expect(server.requests).toHaveLength(1);
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain(message);
  });

  it("shows the start of a non-JSON error body", async () => {
    const server = await serve(() => ({ status: 400, headers: { "content-type": "text/plain" }, body: "bad request: " + "x".repeat(500) }));
    const error = await failure(createOpenAiProvider(settingsFor(server)).complete(request()));
    expect(error.message).toContain("bad request: xxx");
    expect(error.message.length).toBeLessThan(400);
  });

  it("understands {error: string} and {detail} error bodies", async () => {
    const server = await serve(sequence({ status: 400, body: { error: "plain string error" } }, { status: 400, body: { detail: "fastapi detail" } }));
    const provider = createOpenAiProvider(settingsFor(server));
    expect((await failure(provider.complete(request()))).message).toContain("plain string error");
    expect((await failure(provider.complete(request()))).message).toContain("fastapi detail");
  });
});

describe("openai provider: timeouts and cancellation", () => {
  it("times out a hung server per attempt, retries, then fails with a clear timeout error", async () => {
    const server = await serve(() => "hang");
    const { delays, sleep } = recordingSleep();
    const started = Date.now();
    const error = await failure(createOpenAiProvider(settingsFor(server, { timeoutMs: 150, maxRetries: 2 }), { sleep }).complete(request()));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(error.code).toBe("LLM_UNAVAILABLE");
    expect(error.message).toContain("timed out after 150 ms");
    expect(error.message).toContain("REFINERY_LLM_TIMEOUT_MS");
    expect(error.details).toMatchObject({ kind: "timeout", attempts: 3 });
  });

  it("times out a server that sends headers but never finishes the body", async () => {
    const server = await serve(() => ({ status: 200, body: '{"choices": [{"message": {"content": "par', stallBody: true }));
    const error = await failure(createOpenAiProvider(settingsFor(server, { timeoutMs: 150, maxRetries: 0 })).complete(request()));
    expect(error.details).toMatchObject({ kind: "timeout", attempts: 1 });
  });

  it("a caller abort stops an in-flight request at once, without retrying", async () => {
    const server = await serve(() => "hang");
    const controller = new AbortController();
    const provider = createOpenAiProvider(settingsFor(server, { timeoutMs: 30_000 }));
    const started = Date.now();
    const pending = provider.complete(request(controller.signal));
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((error as Error).name).toBe("AbortError");
    expect(server.requests).toHaveLength(1);
  });

  it("a caller abort during the backoff wait stops at once, with the caller's reason", async () => {
    const server = await serve(() => errorReply(500, "boom"));
    const controller = new AbortController();
    const provider = createOpenAiProvider(settingsFor(server), { retryBaseDelayMs: 60_000 });
    const pending = provider.complete(request(controller.signal));
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 30));
    const reason = new Error("user cancelled the run");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const server = await serve(() => completion("never"));
    const controller = new AbortController();
    controller.abort();
    await expect(createOpenAiProvider(settingsFor(server)).complete(request(controller.signal))).rejects.toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("openai provider: unusable responses are LLM_FORMAT", () => {
  it.each([
    ["malformed JSON", "{\"choices\": [", "not valid JSON"],
    ["an empty body", "", "empty body"],
    ["a JSON array", "[1, 2]", "not a JSON object"],
    ["no choices", "{\"id\": \"x\"}", "choices is missing"],
    ["empty choices", "{\"choices\": []}", "choices is empty"],
    ["a choice without message", "{\"choices\": [{\"index\": 0}]}", "choices"],
    ["null content", JSON.stringify(completionBody(null, { finishReason: "length" })), "content is missing (null) (finish_reason: length)"],
    ["numeric content", "{\"choices\": [{\"message\": {\"content\": 42}}]}", "a number, not a string"],
  ])("%s", async (_label, body, reason) => {
    const server = await serve(() => ({ status: 200, body }));
    const { sleep, delays } = recordingSleep();
    const error = await failure(createOpenAiProvider(settingsFor(server), { sleep }).complete(request()));
    expect(error.code).toBe("LLM_FORMAT");
    expect(error.message).toContain(reason);
    expect(error.message).toContain(JSON.stringify(body.trim().slice(0, 200)).slice(1, -1));
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("quotes only the first 200 characters of a long body", async () => {
    const body = "<html>" + "y".repeat(5_000);
    const server = await serve(() => ({ status: 200, headers: { "content-type": "text/html" }, body }));
    const error = await failure(createOpenAiProvider(settingsFor(server)).complete(request()));
    expect(error.code).toBe("LLM_FORMAT");
    expect(error.details.body).toBe(body.slice(0, 200) + "…");
    expect(error.message.length).toBeLessThan(400);
  });
});

describe("openai provider: concurrency limit", () => {
  it("keeps at most `concurrency` requests in flight; all calls complete", async () => {
    const server = await serve((req) => completion(`answer ${req.index}`, { delayMs: 80 }));
    const provider = createOpenAiProvider(settingsFor(server, { concurrency: 2 }));
    const results = await Promise.all(Array.from({ length: 5 }, () => provider.complete(request())));
    expect(results).toHaveLength(5);
    expect(new Set(results.map((r) => r.text)).size).toBe(5);
    expect(server.requests).toHaveLength(5);
    expect(server.maxInFlight).toBe(2);
  });

  it("a hung request holds one slot only until its timeout; the other slot keeps serving", async () => {
    const server = await serve((req) => (req.index === 0 ? "hang" : completion(`fast ${req.index}`, { delayMs: 20 })));
    const provider = createOpenAiProvider(settingsFor(server, { concurrency: 2, timeoutMs: 600, maxRetries: 0 }));
    const finished: string[] = [];
    const hung = provider.complete(request()).then(
      () => finished.push("hung:ok"),
      () => finished.push("hung:timeout"),
    );
    await new Promise((r) => setTimeout(r, 20));
    const fast = Array.from({ length: 3 }, () => provider.complete(request()).then((r) => finished.push(r.text)));
    await Promise.all([hung, ...fast]);
    expect(finished).toHaveLength(4);
    expect(finished[3]).toBe("hung:timeout");
    expect(server.maxInFlight).toBe(2);

    // The slot freed by the timeout is usable again.
    expect((await provider.complete(request())).text).toBe("fast 4");
  });

  it("releases the slot while waiting to retry, so queued calls go ahead", async () => {
    const server = await serve((req) => (req.index === 0 ? errorReply(503, "warming up") : completion(`ok ${req.index}`)));
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const provider = createOpenAiProvider(settingsFor(server, { concurrency: 1 }), { sleep: () => gate });
    const order: string[] = [];
    const retrying = provider.complete(request()).then((r) => order.push(`retrying:${r.text}`));
    const queued = provider.complete(request()).then((r) => order.push(`queued:${r.text}`));
    await queued;
    openGate();
    await retrying;
    expect(order).toEqual(["queued:ok 1", "retrying:ok 2"]);
    expect(server.maxInFlight).toBe(1);
  });

  it("a call waiting for a slot can be aborted without ever being sent", async () => {
    const server = await serve(() => completion("slow", { delayMs: 200 }));
    const provider = createOpenAiProvider(settingsFor(server, { concurrency: 1 }));
    const first = provider.complete(request());
    const controller = new AbortController();
    const queued = provider.complete(request(controller.signal));
    await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    await expect(queued).rejects.toMatchObject({ name: "AbortError" });
    expect((await first).text).toBe("slow");
    expect(server.requests).toHaveLength(1);
    expect((await provider.complete(request())).text).toBe("slow");
  });

  it("instances do not share slots", async () => {
    const server = await serve(() => completion("x", { delayMs: 80 }));
    const a = createOpenAiProvider(settingsFor(server, { concurrency: 1 }));
    const b = createOpenAiProvider(settingsFor(server, { concurrency: 1 }));
    await Promise.all([a.complete(request()), a.complete(request()), b.complete(request()), b.complete(request())]);
    expect(server.maxInFlight).toBe(2);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");
  it.each([
    [{ "retry-after": "3" }, 3_000],
    [{ "retry-after": "0.5" }, 500],
    [{ "retry-after-ms": "250", "retry-after": "9" }, 250],
    [{ "retry-after": new Date(now + 7_000).toUTCString() }, 7_000],
    [{ "retry-after": new Date(now - 7_000).toUTCString() }, 0],
    [{ "retry-after": "soon" }, undefined],
    [{}, undefined],
  ])("%j → %s", (headers, expected) => {
    expect(parseRetryAfter(new Headers(headers), now)).toBe(expected);
  });
});
