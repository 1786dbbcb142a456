/**
 * A real HTTP server on 127.0.0.1 (random port) speaking the OpenAI chat-completions protocol,
 * for tests: the test scripts each reply (status, headers, body, delay, "hang", or a dropped
 * connection) and inspects every request the server received.
 *
 *   const server = await startTestLlmServer({ handler: sequence(reply({ status: 500 }), completion("Yes")) });
 *   const provider = createOpenAiProvider({ baseUrl: server.url, model: "m", ... });
 *   ...
 *   await server.close();
 *
 * Only POST {url}/chat/completions reaches the handler; anything else gets a 404 in the
 * OpenAI error shape (and is still recorded).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  /** 0-based position among all requests this server received. */
  index: number;
  method: string;
  /** Path and query, e.g. "/v1/chat/completions". */
  path: string;
  headers: http.IncomingHttpHeaders;
  bodyText: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent verbatim; anything else as JSON. Omitted: empty body. */
  body?: unknown;
  /** Wait this long before answering (abandoned if the client disconnects first). */
  delayMs?: number;
  /** Send the status, headers and body so far, but never end the response. */
  stallBody?: boolean;
  /**
   * Push a completion this many bytes long, generated in chunks as the client reads (never held
   * whole in memory), without Content-Length unless `declareLength`. For response-size caps.
   */
  streamBytes?: number;
  declareLength?: boolean;
}

/** "hang": never answer (until the client gives up or the server closes); "drop": reset the connection. */
export type ScriptedReply = ScriptedResponse | "hang" | "drop";

export type TestLlmHandler = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface TestLlmServer {
  /** Base URL to configure, e.g. "http://127.0.0.1:40123/v1". */
  url: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Requests currently being handled (received, not yet answered or disconnected). */
  readonly inFlight: number;
  /** The most requests ever in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export const TEST_LLM_PREFIX = "/v1";

/** A valid chat-completions body whose first choice says `text`. */
export function completionBody(
  text: string | null,
  options: { model?: string; usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null; finishReason?: string } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: options.model ?? "test-model",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: options.finishReason ?? "stop" }],
  };
  if (options.usage !== null) body.usage = options.usage ?? { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  return body;
}

/** A 200 reply with a valid completion of `text`. */
export function completion(text: string, options: Parameters<typeof completionBody>[1] & { delayMs?: number } = {}): ScriptedResponse {
  return { status: 200, body: completionBody(text, options), ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }) };
}

/** An error reply in the OpenAI error shape. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): ScriptedResponse {
  return { status, headers, body: { error: { message, type: "test_error", code: null } } };
}

/** A handler answering the n-th request with the n-th reply; the last reply repeats. */
export function sequence(...replies: ScriptedReply[]): TestLlmHandler {
  if (replies.length === 0) throw new Error("sequence() needs at least one reply");
  let next = 0;
  return () => {
    const reply = replies[Math.min(next, replies.length - 1)];
    next += 1;
    return reply ?? "hang";
  };
}

/** Write a `total`-byte completion in 64 KiB chunks, waiting for the client (backpressure). */
async function pushBytes(res: http.ServerResponse, total: number, reply: ScriptedResponse): Promise<void> {
  const head = Buffer.from('{"choices":[{"index":0,"message":{"role":"assistant","content":"');
  const tail = Buffer.from('"},"finish_reason":"stop"}]}');
  const filler = Buffer.alloc(64 * 1024, "x");
  const headers: Record<string, string> = { "content-type": "application/json", ...reply.headers };
  if (reply.declareLength) headers["content-length"] = String(total);
  res.writeHead(reply.status ?? 200, headers);
  let left = total - head.length - tail.length;
  if (!res.write(head)) await new Promise((resolve) => res.once("drain", resolve));
  while (left > 0 && !res.destroyed) {
    const chunk = left >= filler.length ? filler : filler.subarray(0, left);
    left -= chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  if (!res.destroyed) res.end(tail);
}

export async function startTestLlmServer(options: { handler: TestLlmHandler }): Promise<TestLlmServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;

  const send = (res: http.ServerResponse, reply: ScriptedResponse) => {
    if (res.destroyed || res.writableEnded) return;
    if (reply.streamBytes !== undefined) return void pushBytes(res, reply.streamBytes, reply);
    const payload = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    const headers: Record<string, string> = { "content-type": "application/json", ...reply.headers };
    res.writeHead(reply.status ?? 200, headers);
    if (reply.stallBody) res.write(payload);
    else res.end(payload);
  };

  const server = http.createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const bodyText = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        index: requests.length,
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        bodyText,
        body,
      };
      requests.push(recorded);
      if (req.method !== "POST" || req.url !== `${TEST_LLM_PREFIX}/chat/completions`) {
        send(res, errorReply(404, `no route for ${req.method} ${req.url}`));
        return;
      }
      Promise.resolve()
        .then(() => options.handler(recorded))
        .then(
          (reply) => {
            if (reply === "hang") return;
            if (reply === "drop") {
              req.socket.destroy();
              return;
            }
            if (reply.delayMs && reply.delayMs > 0) {
              const timer = setTimeout(() => {
                timers.delete(timer);
                send(res, reply);
              }, reply.delayMs);
              timers.add(timer);
            } else {
              send(res, reply);
            }
          },
          (error: unknown) => send(res, errorReply(500, `test handler threw: ${String(error)}`)),
        );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${TEST_LLM_PREFIX}`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
