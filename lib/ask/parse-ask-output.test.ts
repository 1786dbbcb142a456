import { describe, expect, it } from "vitest";
import { parseAskTurn, parsePlan, parseStepRef, splitAnswerItems, splitHeadRelation } from "./parse-ask-output";

/** A first turn as instruction-tuned models write it: reasoning, plan, one call, then an invented result. */
const FIRST_TURN = `<think>
The question asks which person directed the movies starred by John Krasinski. First find the movies
John Krasinski starred in, then the directors of those movies. I will call <neighbor_search> later.
</think>
<plan>
1. Ans1 = SearchKG(t=film | h=John Krasinski, r=starred actors)
2. Ans2 = SearchKG(t=person | h=Ans1, r=directed by)
</plan>
<relation_search> John Krasinski, starred actors </relation_search>
<relation_information>starred_actors, directed_by</relation_information>
<answer>Sam Mendes</answer>`;

function errorOf(r: { ok: true } | { ok: false; error: string }): string {
  return r.ok ? "(parsed)" : r.error;
}

describe("parseAskTurn", () => {
  it("reads think, plan and the first action; what the model invents after it is not the action", () => {
    const r = parseAskTurn(FIRST_TURN, { needPlan: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.turn.think).toContain("directors of those movies");
    expect(r.turn.plan).toEqual([
      { id: "Ans1", op: "search", targetType: "film", head: { entity: "John Krasinski" }, relation: "starred actors" },
      { id: "Ans2", op: "search", targetType: "person", head: { ref: "Ans1" }, relation: "directed by" },
    ]);
    // The <neighbor_search> quoted inside <think> is not the action; the invented answer neither.
    expect(r.turn.action).toEqual({ kind: "relation_search", argsText: "John Krasinski, starred actors", head: "John Krasinski", relation: "starred actors" });
    expect(FIRST_TURN.slice(0, r.turn.actionEnd).endsWith("</relation_search>")).toBe(true);
  });

  it("is forgiving about whitespace and case inside tags", () => {
    const r = parseAskTurn("< Neighbor_Search >\n  Cradle of Fear ,  starred_actors \n</ neighbor_search >", { needPlan: false });
    expect(r.ok && r.turn.action).toEqual({ kind: "neighbor_search", argsText: "Cradle of Fear ,  starred_actors", head: "Cradle of Fear", relation: "starred_actors" });
  });

  it("keeps commas in names: h, r splits at the last comma", () => {
    const r = parseAskTurn("<neighbor_search> Truth or Consequences, N.M., starred_actors </neighbor_search>", { needPlan: false });
    expect(r.ok && r.turn.action.kind === "neighbor_search" && r.turn.action.head).toBe("Truth or Consequences, N.M.");
  });

  it("accepts a tool tag cut at the end of the reply (a stop sequence), nowhere else", () => {
    expect(parseAskTurn("<web_search> who published Journal of Psychotherapy Integration", { needPlan: false })).toMatchObject({ ok: true, turn: { action: { kind: "web_search" } } });
    const r = parseAskTurn("<neighbor_search> Kismet, directed_by <neighbor_information>x</neighbor_information>", { needPlan: false });
    expect(r).toEqual({ ok: false, error: "<neighbor_search> is not closed with </neighbor_search>" });
  });

  it("answers: items split on ; and lines, names keep commas", () => {
    const r = parseAskTurn("<answer>Sam Mendes; Nancy Meyers\n- Johnnycake, West Virginia</answer>", { needPlan: true });
    expect(r.ok && r.turn.action).toEqual({ kind: "answer", text: "Sam Mendes; Nancy Meyers\n- Johnnycake, West Virginia", items: ["Sam Mendes", "Nancy Meyers", "Johnnycake, West Virginia"] });
  });

  it("rejects broken output with a reason", () => {
    expect(errorOf(parseAskTurn("I think the answer is Sam Mendes.", { needPlan: false }))).toContain("no tool call");
    expect(errorOf(parseAskTurn("<relation_search> John Krasinski </relation_search>", { needPlan: false }))).toContain('needs "h, r"');
    expect(parseAskTurn("<relation_search> X, r </relation_search>", { needPlan: true })).toEqual({ ok: false, error: "no <plan>…</plan> before the first tool call" });
    expect(parseAskTurn("<answer>  </answer>", { needPlan: false })).toEqual({ ok: false, error: "the <answer> is empty" });
    expect(parseAskTurn("<think>hmm <plan>Ans1 = SearchKG(t=x | h=y, r=z)</plan> <answer>a</answer>", { needPlan: true })).toEqual({ ok: false, error: "<think> is not closed with </think>" });
    // The seed's typo tag is not a tool call.
    expect(parseAskTurn("<relation_informations>directed_by</relation_informations>", { needPlan: false }).ok).toBe(false);
  });
});

describe("parsePlan", () => {
  it("reads logic functions and checks references", () => {
    const r = parsePlan(`Ans1 = SearchKG(t=film | h=Tom Hanks, r=starred_actors)
Ans2 = SearchKG(t=film | h=Steven Spielberg, r=directed_by)
Ans3 = Intersect(Ans1, Ans2)
Ans4 = Union(Ans1, Ans2)
Ans5 = Negation(Ans1, Ans2)`);
    expect(r.ok && r.plan.slice(2)).toEqual([
      { id: "Ans3", op: "intersect", args: ["Ans1", "Ans2"] },
      { id: "Ans4", op: "union", args: ["Ans1", "Ans2"] },
      { id: "Ans5", op: "negation", main: "Ans1", args: ["Ans2"] },
    ]);
  });

  it("keeps commas and bars out of the wrong field", () => {
    const r = parsePlan("Ans1 = SearchKG(t=place | h=Johnnycake, West Virginia, r=located in)");
    expect(r.ok && r.plan[0]).toEqual({ id: "Ans1", op: "search", targetType: "place", head: { entity: "Johnnycake, West Virginia" }, relation: "located in" });
  });

  it("rejects forward references, unknown functions and empty plans", () => {
    expect(parsePlan("Ans1 = SearchKG(t=x | h=Ans2, r=y)")).toEqual({ ok: false, error: "plan line 1: Ans1 uses Ans2 before it is defined" });
    expect(errorOf(parsePlan("Ans1 = Lookup(x)"))).toContain("unknown function");
    expect(errorOf(parsePlan("first find the films"))).toContain("no step");
    expect(parsePlan("Ans1 = SearchKG(t=x | h=a, r=b)\nAns1 = SearchKG(t=x | h=a, r=b)")).toEqual({ ok: false, error: "plan line 2: Ans1 is defined twice" });
  });
});

describe("small parsers", () => {
  it("step refs, h/r splits, answer items", () => {
    expect(parseStepRef(" ans_2 ")).toBe("Ans2");
    expect(parseStepRef("Answer")).toBeNull();
    expect(splitHeadRelation("'Kismet', directed_by,")).toEqual({ head: "Kismet", relation: "directed_by" });
    expect(splitHeadRelation("Kismet")).toBeNull();
    expect(splitAnswerItems("1. A\n2) B | C.")).toEqual(["A", "B", "C"]);
  });
});
