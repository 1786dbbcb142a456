import { describe, expect, it } from "vitest";
import { ASK_SYSTEM_PROMPT, buildAskCorrection, buildAskPrompt } from "./build-ask-prompt";
import { parseAskTurn } from "./parse-ask-output";

describe("buildAskPrompt", () => {
  it("states the seed's protocol: Descartes' principles, SearchKG and the logic functions, the tools and their tags", () => {
    const [system, user] = buildAskPrompt({ question: "  who directed Kismet " });
    expect(system?.role).toBe("system");
    for (const text of [
      "in accordance with Descartes' Principles inside <think> and </think>",
      "Ans1 = SearchKG(t=target_type | h=topic_entity, r=relation_type of h and t)",
      "Ans2 = SearchKG(t=target_type | h=Ans1",
      "Intersect(Ans1, Ans2, ...)",
      "Union(Ans1, Ans2, ...)",
      "Negation(Ans1, Ans2, ...) represents removing all elements from the answer of the first sub-problem (the main set)",
      "<relation_search> h, r </relation_search>",
      "top 15 relevant relations",
      "<relation_information> and </relation_information>",
      "<neighbor_search> h, r </neighbor_search>",
      "<neighbor_information> and </neighbor_information>",
      "<web_search> query </web_search>",
      "<web_information> and </web_information>",
      "<answer> and </answer>",
    ]) expect(ASK_SYSTEM_PROMPT).toContain(text);
    expect(user).toEqual({ role: "user", content: "Question: who directed Kismet" });
  });

  it("the formats the prompt shows are the formats the parser reads", () => {
    const turn = "<think>x</think><plan>Ans1 = SearchKG(t=target_type | h=topic_entity, r=relation_type of h and t)\nAns2 = SearchKG(t=target_type | h=Ans1, r=relation_type of h and t)\nAns3 = Intersect(Ans1, Ans2)</plan><relation_search> h, r </relation_search>";
    const r = parseAskTurn(turn, { needPlan: true });
    expect(r.ok && r.turn.plan.map((s) => s.op)).toEqual(["search", "search", "intersect"]);
    expect(buildAskCorrection({ problem: "no <answer>" })).toContain("could not be used: no <answer>");
  });
});
