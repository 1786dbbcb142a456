/**
 * The whole hop loop over a real HTTP chat-completions server (started here), on the real
 * MetaQA and MuSiQue graphs: the openai provider end to end, including a garbage answer that
 * the loop's format retry recovers from and a 500 that the provider retries.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runHopLoop } from "../../loop/run-hop-loop";
import { documentLoader, metaqa, musique } from "../../loop/test-support";
import { createOpenAiProvider } from "./openai";
import type { TestLlmServer } from "./test-llm-server";
import { completion, errorReply, startTestLlmServer } from "./test-llm-server";

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A "model" that says No twice, then Yes; answers abduction and refinement by what the prompt asks. */
function scriptedModel() {
  let judged = 0;
  let failedOnce = false;
  return (body: { messages?: { content?: string }[] } | undefined) => {
    const prompt = (body?.messages ?? []).map((m) => m.content ?? "").join("\n");
    if (prompt.includes("<judge>")) {
      judged++;
      if (judged === 2) return completion("I am not sure."); // garbage: the loop asks again
      return completion(judged >= 4 ? "<judge>Yes</judge>" : "<judge>No</judge>");
    }
    if (prompt.includes("<abduction>")) {
      if (!failedOnce) {
        failedOnce = true;
        return errorReply(500, "overloaded");
      }
      return completion("<abduction>The director of the movie is missing from the retrieved triples.</abduction>");
    }
    return completion('<refinement>insert_edge("Kismet", "directed_by", "William Dieterle")</refinement>');
  };
}

describe("hop loop with the openai provider over HTTP", () => {
  it.each([
    ["MetaQA", "who directed Kismet", () => ({ graph: metaqa(), load: documentLoader(metaqa(), []) })],
    [
      "MuSiQue",
      "Who was the first president of the association which published Journal of Psychotherapy Integration?",
      () => ({ graph: musique().graph, load: documentLoader(musique().graph, musique().documents) }),
    ],
  ])("%s: steps, retries, abduction and parsed actions", async (_name, question, data) => {
    const model = scriptedModel();
    server = await startTestLlmServer({ handler: (req) => model(req.body as { messages?: { content?: string }[] }) });
    const provider = createOpenAiProvider(
      { baseUrl: server.url, model: "deeprefine-8b", temperature: 0, timeoutMs: 5000, maxRetries: 2, concurrency: 2 },
      { sleep: async () => undefined },
    );
    const { graph, load } = data();
    const trace = await runHopLoop({ graph, question, queryId: "q", provider, loadDocuments: load });
    expect(trace.error).toBeNull();
    expect(trace.status).toBe("awaiting_review");
    expect(trace.steps.map((s) => s.answerable)).toEqual([false, false, true]);
    expect(trace.steps.map((s) => s.cap)).toEqual([5, 10, 15]);
    expect(trace.actions).toEqual([{ type: "insert_edge", subject: "Kismet", relation: "directed_by", object: "William Dieterle" }]);
    expect(trace.abduction).toContain("director");
    // 4 judge requests (one garbage + its retry), 2 abduction (500 then ok), 1 refinement.
    expect(server.requests.length).toBe(7);
    expect(trace.calls.every((c) => c.usage?.totalTokens === 15)).toBe(true);
    const judgeRequest = server.requests[0]?.body as { model: string; messages: { content: string }[] };
    expect(judgeRequest.model).toBe("deeprefine-8b");
    expect(judgeRequest.messages.map((m) => m.content).join("\n")).toContain(question);
  });
});
