/**
 * Ask over a real HTTP chat-completions server (started here) with the openai provider: the
 * Graph-RFT protocol end to end on MetaQA, including a 500 the provider retries and a garbage
 * turn the executor corrects; and a model that never stops calling tools.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runAsk } from "../../ask/run-ask";
import type { AskModel } from "../../ask/types";
import { metaqa } from "../../loop/test-support";
import { createOpenAiProvider } from "./openai";
import type { TestLlmServer } from "./test-llm-server";
import { completion, errorReply, startTestLlmServer } from "./test-llm-server";

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { messages?: { role: string; content: string }[] } | undefined;

function provider(url: string): AskModel {
  // The loop's provider is an AskModel as it is: no adapter.
  return createOpenAiProvider({ baseUrl: url, model: "graph-rft-7b", temperature: 0, timeoutMs: 5000, maxRetries: 2, concurrency: 1 }, { sleep: async () => undefined });
}

describe("ask with the openai provider over HTTP", () => {
  it("plans, calls the tools, gets each result in its tag and answers from the graph", async () => {
    let failedOnce = false;
    server = await startTestLlmServer({
      handler: (req) => {
        const messages = (req.body as Body)?.messages ?? [];
        const last = messages[messages.length - 1]?.content ?? "";
        const assistantTurns = messages.filter((m) => m.role === "assistant").length;
        if (!failedOnce) {
          failedOnce = true;
          return errorReply(500, "overloaded");
        }
        if (assistantTurns === 0) return completion("Sure! Let me think about who wrote Kismet."); // no tags: corrected
        if (last.startsWith("Your last reply could not be used")) {
          return completion("<think>Kismet is a film; its writer is a neighbour through written_by.</think>\n<plan>\nAns1 = SearchKG(t=person | h=Kismet, r=written_by)\n</plan>\n<relation_search> Kismet, writer </relation_search>");
        }
        if (last.startsWith("<relation_information>")) return completion("<neighbor_search> Kismet, written_by </neighbor_search>");
        if (last.startsWith("<neighbor_information>")) {
          const name = /Neighbors \(\d+\): ([^;\n]+)/.exec(last)?.[1] ?? "unknown";
          return completion(`<answer>${name}</answer>`);
        }
        return completion("<answer>unknown</answer>");
      },
    });
    const trace = await runAsk({ graph: metaqa(), question: "who wrote Kismet", provider: provider(server.url) });
    expect(trace.error).toBeNull();
    expect(trace).toMatchObject({ status: "answered", provider: "openai", model: "graph-rft-7b", isLlm: true });
    expect(trace.answers[0]).toMatchObject({ label: "Edward Knoblock", via: "graph" });
    expect(trace.plan).toEqual([{ id: "Ans1", op: "search", targetType: "person", head: { entity: "Kismet" }, relation: "written_by" }]);
    expect(trace.calls.map((c) => c.tool)).toEqual(["relation_search", "neighbor_search"]);
    // 1 failed + 1 garbage + 3 protocol turns.
    expect(server.requests.length).toBe(5);
    const lastRequest = server.requests[4]?.body as { model: string; messages: { role: string; content: string }[] };
    expect(lastRequest.model).toBe("graph-rft-7b");
    expect(lastRequest.messages[0]?.content).toContain("Descartes' Principles");
    expect(lastRequest.messages.at(-1)?.content).toContain("Kismet | written_by | Edward Knoblock");
    expect(trace.timings.modelMs).toBeGreaterThan(0);
  });

  it("a model that never answers ends at the tool budget with a failed trace", async () => {
    server = await startTestLlmServer({
      handler: () => completion("<plan>Ans1 = SearchKG(t=person | h=Kismet, r=directed_by)</plan>\n<relation_search> Kismet, director </relation_search>"),
    });
    const trace = await runAsk({ graph: metaqa(), question: "who directed Kismet", provider: provider(server.url), toolBudget: 4 });
    expect(trace.status).toBe("failed");
    expect(trace.calls.length).toBe(4);
    expect(trace.error?.message).toContain("tool budget of 4 calls");
    expect(server.requests.length).toBe(6);
  });
});
