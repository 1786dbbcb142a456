/**
 * The executor against a scripted model and the heuristic planner, on the real MetaQA and
 * MuSiQue graphs (the HTTP round trip is in lib/server/providers/openai-ask.test.ts).
 */
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { parseBundle } from "../import/parse-bundle";
import { metaqa, musique } from "../loop/test-support";
import type { CompletionResult } from "../loop/types";
import { readData } from "../test/data";
import { runAsk } from "./run-ask";
import type { AskCompletionRequest, AskModel } from "./types";

/** A model answering turn by turn from a list (a function sees the conversation so far). */
function scriptedModel(turns: Array<string | Error | ((req: AskCompletionRequest) => string)>): AskModel & { requests: AskCompletionRequest[] } {
  const requests: AskCompletionRequest[] = [];
  return {
    name: "replay",
    model: "scripted",
    isLlm: true,
    requests,
    async complete(request): Promise<CompletionResult> {
      requests.push({ ...request, messages: [...request.messages] });
      const next = turns[requests.length - 1];
      if (next === undefined) throw new Error(`script has no turn ${requests.length}`);
      if (next instanceof Error) throw next;
      return { text: typeof next === "function" ? next(request) : next };
    },
  };
}

const TWO_HOP = [
  `<think>First the movies John Krasinski starred in, then their directors.</think>
<plan>
Ans1 = SearchKG(t=film | h=John Krasinski, r=starred_actors)
Ans2 = SearchKG(t=person | h=Ans1, r=directed_by)
</plan>
<relation_search> John Krasinski, starred </relation_search>`,
  "<neighbor_search> John Krasinski, starred_actors </neighbor_search>",
  "<relation_search> Ans1, directed </relation_search>",
  "<neighbor_search> Ans1, directed by </neighbor_search>",
  (req: AskCompletionRequest) => {
    const last = req.messages[req.messages.length - 1]?.content ?? "";
    const names = /Neighbors \(\d+\): (.*)/.exec(last)?.[1]?.split("; ") ?? [];
    return `<answer>${names.slice(0, 3).join("; ")}</answer>`;
  },
];

describe("runAsk with a model", () => {
  it("runs the 2-hop protocol on MetaQA: plan, four tool calls, answers from the graph with their triples", async () => {
    const model = scriptedModel(TWO_HOP);
    const trace = await runAsk({ graph: metaqa(), question: "which person directed the movies starred by John Krasinski", provider: model, graphName: "metaqa", graphVersion: 3 });
    expect(trace.status).toBe("answered");
    expect(trace).toMatchObject({ graph: "metaqa", version: 3, provider: "replay", model: "scripted", isLlm: true, turns: 5 });
    expect(trace.plan.map((s) => s.id)).toEqual(["Ans1", "Ans2"]);
    expect(trace.calls.map((c) => [c.tool, c.planStep])).toEqual([
      ["relation_search", "Ans1"],
      ["neighbor_search", "Ans1"],
      ["relation_search", "Ans2"],
      ["neighbor_search", "Ans2"],
    ]);
    expect(trace.calls[0]?.relations?.[0]?.relation).toBe("starred_actors");
    // "directed by" is not the graph's spelling; the tool maps it to directed_by.
    expect(trace.calls[3]?.input.relation).toBe("directed by");
    const films = trace.stepAnswers.Ans1?.map((e) => e.label) ?? [];
    expect(films).toEqual(expect.arrayContaining(["Leatherheads", "Away We Go", "License to Wed", "It's Complicated"]));
    const gold = ["Nancy Meyers", "Sam Mendes", "George Clooney", "Ken Kwapis", "Luke Greenfield"];
    expect(trace.answers.length).toBe(3);
    for (const a of trace.answers) {
      expect(gold).toContain(a.label);
      expect(a.via).toBe("graph");
      expect(a.evidence?.triples?.some((t) => t.object === a.label && t.relation === "directed_by")).toBe(true);
    }
    expect(trace.subgraph.some((t) => t.subject === "Away We Go" && t.relation === "directed_by")).toBe(true);
    // Each tool result went back to the model inside its tag.
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(/^<relation_information>\n[\s\S]*starred_actors[\s\S]*<\/relation_information>$/);
    expect(model.requests[2]?.messages.at(-1)?.content).toContain("Leatherheads | starred_actors | John Krasinski");
    expect(trace.transcript.filter((m) => m.role === "tool").length).toBe(4);
    expect(trace.timings.totalMs).toBeGreaterThanOrEqual(trace.timings.toolMs);
  });

  it("asks again after broken output, then goes on", async () => {
    const model = scriptedModel(["I believe the director is Alex Chandon.", "<plan>Ans1 = SearchKG(t=person | h=Cradle of Fear, r=directed_by)</plan><neighbor_search> Cradle of Fear, directed_by </neighbor_search>", "<answer>Alex Chandon</answer>"]);
    const trace = await runAsk({ graph: metaqa(), question: "who directed Cradle of Fear", provider: model });
    expect(trace.status).toBe("answered");
    expect(trace.answers[0]).toMatchObject({ label: "Alex Chandon", via: "graph" });
    expect(model.requests[1]?.messages.at(-1)?.content).toContain("no tool call");
    expect(trace.turns).toBe(3);
  });

  it("fails with the step and the reason when the retry is broken too", async () => {
    const model = scriptedModel(["no tags here", "<relation_search> Cradle of Fear </relation_search>"]);
    const trace = await runAsk({ graph: metaqa(), question: "who directed Cradle of Fear", provider: model });
    expect(trace.status).toBe("failed");
    expect(trace.error?.step).toBe("turn 1");
    expect(trace.error?.message).toMatch(/unusable model output after 2 attempt\(s\): .*needs "h, r"/);
    expect(trace.answers).toEqual([]);
  });

  it("stops a runaway loop at the tool budget", async () => {
    const plan = "<plan>Ans1 = SearchKG(t=person | h=Kismet, r=directed_by)</plan>";
    const model = scriptedModel([`${plan}<relation_search> Kismet, director </relation_search>`, ...Array.from({ length: 10 }, () => "<relation_search> Kismet, director </relation_search>")]);
    const trace = await runAsk({ graph: metaqa(), question: "who directed Kismet", provider: model, toolBudget: 3 });
    expect(trace.calls.length).toBe(3);
    expect(trace.status).toBe("failed");
    expect(trace.error?.message).toContain("tool budget of 3 calls");
    // The model was told once to answer.
    expect(trace.transcript.filter((m) => m.content.includes("tool budget (3 calls) is used up")).length).toBe(1);
  });

  it("records a failing model call as a failed trace", async () => {
    const model = scriptedModel([new AppError("LLM_UNAVAILABLE", "Could not reach the LLM server")]);
    const trace = await runAsk({ graph: metaqa(), question: "who directed Kismet", provider: model });
    expect(trace).toMatchObject({ status: "failed", error: { step: "turn 1" } });
    expect(trace.error?.message).toContain("Could not reach");
  });

  it("says which entity a tool could not find, and the model can recover", async () => {
    const model = scriptedModel([
      "<plan>Ans1 = SearchKG(t=person | h=Cradle of Fears, r=directed_by)</plan><neighbor_search> Cradle of Fears, directed_by </neighbor_search>",
      "<neighbor_search> Cradle of Fear, directed_by </neighbor_search>",
      "<answer>Alex Chandon</answer>",
    ]);
    const trace = await runAsk({ graph: metaqa(), question: "who directed Cradle of Fear", provider: model });
    expect(trace.calls[0]?.error).toMatch(/no entity named "Cradle of Fears".*did you mean "Cradle of Fear"/);
    expect(trace.answers[0]).toMatchObject({ label: "Alex Chandon", via: "graph" });
  });

  it("rejects an empty question", async () => {
    await expect(runAsk({ graph: metaqa(), question: "  " })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("runAsk with the heuristic planner", () => {
  it("1 hop on MetaQA: writes the protocol and says it is not an LLM", async () => {
    const trace = await runAsk({ graph: metaqa(), question: "who acted in Cradle of Fear" });
    expect(trace).toMatchObject({ provider: "heuristic", isLlm: false, status: "answered" });
    expect(trace.think).toContain("not an LLM");
    expect(trace.planText).toBe("Ans1 = SearchKG(t=entity | h=Cradle of Fear, r=starred_actors)");
    expect(trace.answers.map((a) => a.label)).toEqual(["Dani Filth"]);
    expect(trace.calls.map((c) => c.tool)).toEqual(["relation_search", "neighbor_search"]);
    expect(trace.transcript.filter((m) => m.role === "assistant").map((m) => m.content.trim().split("\n").at(-1))).toEqual([
      "<relation_search> Cradle of Fear, who acted in </relation_search>",
      "<neighbor_search> Cradle of Fear, starred_actors </neighbor_search>",
      "<answer>Dani Filth</answer>",
    ]);
  });

  it.each([
    ["which person directed the movies starred by John Krasinski", ["Nancy Meyers", "Sam Mendes", "George Clooney", "Ken Kwapis", "Luke Greenfield"], ["starred_actors", "directed_by"]],
    ["what are the primary languages in the movies directed by David Mandel", ["German"], ["directed_by", "in_language"]],
  ])("2 hops on MetaQA: %s", async (question, gold, relations) => {
    const trace = await runAsk({ graph: metaqa(), question });
    expect(trace.plan.map((s) => (s.op === "search" ? s.relation : s.op))).toEqual(relations);
    expect(trace.plan[1]).toMatchObject({ head: { ref: "Ans1" } });
    expect(trace.calls.map((c) => `${c.tool}:${c.input.head}`)).toEqual(["relation_search:" + (trace.plan[0]?.op === "search" && "entity" in trace.plan[0].head ? trace.plan[0].head.entity : ""), expect.stringMatching(/^neighbor_search:/), "relation_search:Ans1", "neighbor_search:Ans1"]);
    expect(trace.status).toBe("answered");
    expect(gold).toContain(trace.answers[0]?.label);
  });

  it("a second graph (MuSiQue, LLM-extracted relations): the relation the question names", async () => {
    const { graph } = musique();
    const trace = await runAsk({ graph, question: "What company published Journal of Psychotherapy Integration?" });
    expect(trace.plan).toEqual([{ id: "Ans1", op: "search", targetType: "entity", head: { entity: "Journal of Psychotherapy Integration" }, relation: "published by" }]);
    expect(trace.answers[0]).toMatchObject({ label: "American Psychological Association", via: "graph" });
  });

  it("the corpus fallback finds the passage when the triples were removed", async () => {
    const corpus = { name: "corpus.jsonl", text: readData("musique", "corpus.jsonl") };
    const kept = readData("musique", "triples.jsonl")
      .split("\n")
      .filter((l) => !l.includes('"Journal of Psychotherapy Integration"'))
      .join("\n");
    const { graph, documents } = parseBundle({ corpus, triples: { name: "triples.jsonl", text: kept } });
    const question = "What company published Journal of Psychotherapy Integration?";
    const without = await runAsk({ graph, question, documents, corpusFallback: false });
    expect(without.status).toBe("no_answer");
    const trace = await runAsk({ graph, question, documents });
    expect(trace.status).toBe("answered");
    expect(trace.calls.map((c) => c.tool)).toEqual(["web_search"]);
    expect(trace.calls[0]?.passages?.[0]).toMatchObject({ docId: "musique-p0006", origin: "corpus" });
    expect(trace.answers[0]).toMatchObject({ label: "American Psychological Association", via: "corpus", evidence: { passage: { docId: "musique-p0006" } } });
    expect(trace.answers[0]?.evidence?.passage?.quote).toContain("published by the American Psychological Association");
  });
});
