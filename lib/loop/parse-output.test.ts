import { describe, expect, it } from "vitest";
import { formatActions, parseAbduction, parseJudge, parseRefinement } from "./parse-output";
import type { RefinementAction } from "./types";

const MAX = { maxActions: 10 };

function ok(raw: string, opts = MAX) {
  const r = parseRefinement(raw, opts);
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r;
}

describe("parseJudge", () => {
  it.each([
    ["<judge>Yes</judge>", true],
    ["<judge>No</judge>", false],
    ["<judge> yes </judge>", true],
    ["<JUDGE>NO</JUDGE>", false],
    ["<judge>\n  Yes.\n</judge>", true],
    ["<judge>**No**</judge>", false],
    ["< judge >Yes</ judge >", true],
    ["After thinking: the KG lacks the president.\n<judge>No</judge>", false],
    // Reasoning models quote the format first: the last tag is the answer.
    ["<think>I must answer <judge>Yes</judge> or <judge>No</judge>.</think>\n<judge>Yes</judge>", true],
  ])("reads %j", (raw, answerable) => {
    expect(parseJudge(raw)).toEqual({ ok: true, answerable });
  });

  it.each([
    ["Yes", "no <judge>"],
    ["", "no <judge>"],
    ["<judge>Maybe</judge>", 'holds "Maybe"'],
    ["<judge>Yes and no</judge>", "not Yes or No"],
    ["<judge>Yes", "no <judge>"],
    ["<judge></judge>", "not Yes or No"],
  ])("rejects %j", (raw, message) => {
    const r = parseJudge(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });
});

describe("parseAbduction", () => {
  it("returns the trimmed text of the last block", () => {
    expect(parseAbduction("<abduction>\n  The KG lacks who presided the APA.\n</abduction>")).toEqual({
      ok: true,
      abduction: "The KG lacks who presided the APA.",
    });
    expect(parseAbduction("<think><abduction>...</abduction></think><ABDUCTION>real</ABDUCTION>")).toEqual({ ok: true, abduction: "real" });
  });

  it("rejects a missing, unterminated or empty block", () => {
    expect(parseAbduction("The KG is incomplete.").ok).toBe(false);
    expect(parseAbduction("<abduction>cut off").ok).toBe(false);
    const empty = parseAbduction("<abduction>  \n </abduction>");
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error).toContain("empty");
  });
});

describe("parseRefinement", () => {
  it("reads the seed's format", () => {
    const r = ok(
      '<refinement>insert_edge("G. Stanley Hall", "first president of", "American Psychological Association")|delete_edge("A", "is", "B")|replace_node("APA", "American Psychological Association")</refinement>',
    );
    expect(r.actions).toEqual([
      { type: "insert_edge", subject: "G. Stanley Hall", relation: "first president of", object: "American Psychological Association" },
      { type: "delete_edge", subject: "A", relation: "is", object: "B" },
      { type: "replace_node", old: "APA", new: "American Psychological Association" },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it("keeps ) | , and quotes inside quoted names, with backslash escapes", () => {
    const r = ok(
      String.raw`<refinement>insert_edge("send()", "calls", "_send_handling_auth(request, auth)")|insert_edge("a|b", "is, really", "c")|replace_node('O\'Brien', "Say \"hi\" \\ bye")</refinement>`,
    );
    expect(r.actions).toEqual([
      { type: "insert_edge", subject: "send()", relation: "calls", object: "_send_handling_auth(request, auth)" },
      { type: "insert_edge", subject: "a|b", relation: "is, really", object: "c" },
      { type: "replace_node", old: "O'Brien", new: 'Say "hi" \\ bye' },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it("reads an unescaped inner quote as part of the name, with a warning", () => {
    const r = ok(`<refinement>insert_edge("The "Big" Show", "aired on", "NBC")|replace_node('O'Brien', 'Conan O'Brien')</refinement>`);
    expect(r.actions).toEqual([
      { type: "insert_edge", subject: 'The "Big" Show', relation: "aired on", object: "NBC" },
      { type: "replace_node", old: "O'Brien", new: "Conan O'Brien" },
    ]);
    expect(r.warnings.filter((w) => w.includes("unescaped quote"))).toHaveLength(3);
  });

  it("tolerates whitespace, newlines, a trailing |, spaces before ( and typographic quotes", () => {
    const r = ok(`Here are the actions:
<refinement>
  insert_edge ( "Hank Snow" , "lived in" , "Tennessee" ) |
  insert_edge(\u201cTennessee\u201d, \u201cborders to the east\u201d, \u201cNorth Carolina\u201d)|
</refinement>`);
    expect(r.actions).toEqual([
      { type: "insert_edge", subject: "Hank Snow", relation: "lived in", object: "Tennessee" },
      { type: "insert_edge", subject: "Tennessee", relation: "borders to the east", object: "North Carolina" },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it("accepts unquoted arguments when the split is unambiguous, with a warning", () => {
    const r = ok("<refinement>insert_edge(Client.send(), calls, _send_handling_auth())|insert_edge(a, b|c, d)</refinement>");
    expect(r.actions).toEqual([{ type: "insert_edge", subject: "Client.send()", relation: "calls", object: "_send_handling_auth()" }]);
    // `b|c` unquoted: is `|` a separator or part of the name? Skipped, and named; its tail is not
    // reported a second time as stray text.
    expect(r.warnings).toEqual([
      'action 1 insert_edge(Client.send(), calls, _send_handling_auth()): unquoted arguments read as "Client.send()", "calls", "_send_handling_auth()"',
      "action 2 (insert_edge(a, b): unquoted argument runs into a separator; quote the names; skipped",
    ]);
  });

  it("skips wrong arity and unknown verbs, naming each", () => {
    const r = ok(
      '<refinement>delete_edge("Albert Einstein", "Berlin")|update_edge("a", "b", "c")|insert_edge("x", "y", "z")|replace_node("only one")|insert_edge("", "r", "o")</refinement>',
    );
    expect(r.actions).toEqual([{ type: "insert_edge", subject: "x", relation: "y", object: "z" }]);
    expect(r.warnings).toHaveLength(4);
    expect(r.warnings[0]).toMatch(/action 1 delete_edge\("Albert Einstein", "Berlin"\): delete_edge takes 3 arguments .* got 2; skipped/);
    expect(r.warnings[1]).toMatch(/action 2 update_edge.*unknown action "update_edge"/);
    expect(r.warnings[2]).toMatch(/action 4 replace_node\("only one"\).*takes 2 arguments/);
    expect(r.warnings[3]).toMatch(/action 5 .*empty subject/);
  });

  it("recovers after a broken action and keeps the following ones", () => {
    const r = ok('<refinement>insert_edge("a", "b"  "c")|insert_edge("unterminated, "r", "o"\n|insert_edge("d", "e", "f")</refinement>');
    expect(r.actions).toEqual([{ type: "insert_edge", subject: "d", relation: "e", object: "f" }]);
    expect(r.warnings.filter((w) => w.endsWith("skipped"))).toEqual([
      'action 1 insert_edge("a", "b" "c"): insert_edge takes 3 arguments (subject, relation, object), got 2; skipped',
      'action 2 (insert_edge("unterminated, "r", "o"): unbalanced quotes in argument 2; skipped',
    ]);
    // A missing `)` before the next action loses only that action.
    const missing = ok('<refinement>insert_edge("a", "b"|insert_edge("c", "d", "e")</refinement>');
    expect(missing.actions).toEqual([{ type: "insert_edge", subject: "c", relation: "d", object: "e" }]);
    expect(missing.warnings).toEqual(['action 1 (insert_edge("a", "b"): unbalanced quotes in argument 2; skipped']);
  });

  it("keeps the first maxActions of 11 and says so", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `insert_edge("s${i + 1}", "r", "o")`).join("|");
    const r = ok(`<refinement>${eleven}</refinement>`);
    expect(r.actions).toHaveLength(10);
    expect(r.actions[9]).toEqual({ type: "insert_edge", subject: "s10", relation: "r", object: "o" });
    expect(r.warnings).toEqual(["11 actions proposed; kept the first 10 (the limit), dropped 1"]);
    expect(ok(`<refinement>${eleven}</refinement>`, { maxActions: 3 }).actions).toHaveLength(3);
  });

  it("drops duplicates and self-replacements", () => {
    const r = ok('<refinement>insert_edge("a","b","c")|insert_edge("a", "b", "c")|replace_node("x", "x")</refinement>');
    expect(r.actions).toHaveLength(1);
    expect(r.warnings.map((w) => w.replace(/.*: /, ""))).toEqual(["duplicate of an earlier action; skipped", "replaces a name with itself; skipped"]);
  });

  it("treats an empty block as zero actions", () => {
    expect(ok("<refinement></refinement>")).toEqual({ ok: true, actions: [], warnings: [] });
    expect(ok("<refinement>\n | \n</refinement>")).toEqual({ ok: true, actions: [], warnings: [] });
    expect(ok("No change needed. <refinement/>")).toEqual({ ok: true, actions: [], warnings: [] });
  });

  it("uses the last complete block (a draft inside <think> comes first)", () => {
    const r = ok('<think>maybe <refinement>insert_edge("draft", "r", "o")</refinement></think>\n<refinement>insert_edge("final", "r", "o")</refinement>');
    expect(r.actions).toEqual([{ type: "insert_edge", subject: "final", relation: "r", object: "o" }]);
  });

  it("reads the answer after a <think> draft, even an unbalanced one", () => {
    const r = ok('<think>Maybe <refinement>insert_edge("Hall, "first</think>\n<refinement>insert_edge("x", "y", "z")</refinement>');
    expect(r.actions).toEqual([{ type: "insert_edge", subject: "x", relation: "y", object: "z" }]);
    // Without a think tag, an unterminated quote in an early block does not hide a later one.
    const s = ok('<refinement>insert_edge("a, "b</refinement>\nRetry: <refinement>insert_edge("x", "y", "z")</refinement>');
    expect(s.actions).toEqual([{ type: "insert_edge", subject: "x", relation: "y", object: "z" }]);
  });

  it("warns about prose between actions but keeps the actions", () => {
    const r = ok('<refinement>1. insert_edge("a", "b", "c")\n2. insert_edge("d", "e", "f")</refinement>');
    expect(r.actions).toHaveLength(2);
    expect(r.warnings).toEqual(['ignored text "1." between actions', 'ignored text "2." between actions']);
  });

  it.each([
    ["", "no <refinement>"],
    ['insert_edge("a", "b", "c")', "no <refinement>"],
    ["I would add an edge between Hall and the APA.", "no <refinement>"],
    ['<refinement>insert_edge("a", "b", "c")', "not closed"],
    ["<refinement>The KG should say who the first president was.</refinement>", "no insert_edge/delete_edge/replace_node calls"],
    ["\u0000\u0001<refinement>%%%</refinement>", "no insert_edge"],
  ])("rejects garbage %j", (raw, message) => {
    const r = parseRefinement(raw, MAX);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });
});

describe("formatActions", () => {
  const hostile = [
    'He said "hi"',
    "back\\slash\\",
    "paren) and | pipe",
    'quote", "comma',
    "new\nline\r\ttab",
    "</refinement> inside",
    "<refinement>",
    "Zoë Ñandú 北京 🚀",
    "'single'",
    "\\u0041 is not A",
    "trailing \\",
    "emoji👩‍👩‍👧",
    ",",
    ")",
  ];

  it("writes the seed's canonical form", () => {
    expect(
      formatActions([
        { type: "insert_edge", subject: "a", relation: "b", object: "c" },
        { type: "replace_node", old: 'x"', new: "y\\" },
      ]),
    ).toBe(String.raw`<refinement>insert_edge("a", "b", "c")|replace_node("x\"", "y\\")</refinement>`);
    expect(formatActions([])).toBe("<refinement></refinement>");
  });

  it("round-trips hostile names", () => {
    const actions: RefinementAction[] = [];
    hostile.forEach((name, i) => {
      const other = hostile[(i + 3) % hostile.length] as string;
      actions.push({ type: "insert_edge", subject: name, relation: other, object: `${name}${i}` });
      actions.push({ type: "delete_edge", subject: other, relation: name, object: "plain" });
      actions.push({ type: "replace_node", old: name, new: `${other}!` });
    });
    const r = ok(formatActions(actions), { maxActions: actions.length });
    expect(r.actions).toEqual(actions);
    expect(r.warnings).toEqual([]);
  });

  it("round-trips inside surrounding prose", () => {
    const actions: RefinementAction[] = [{ type: "insert_edge", subject: "</refinement>", relation: "|", object: ")" }];
    expect(ok(`Sure!\n${formatActions(actions)}\nDone.`).actions).toEqual(actions);
  });

  // Deterministic pseudo-random names over an alphabet of everything the grammar treats specially.
  const ALPHABET = ['"', "'", "\\", "(", ")", "|", ",", ";", "<", ">", "/", "\n", " ", "\t", "a", "Z", "é", "北", "🚀", "\u201c", "\u201d", "u", "0"];
  function randomNames(count: number, seed: number): string[] {
    let x = seed;
    const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    return Array.from({ length: count }, () => {
      const len = 1 + Math.floor(next() * 12);
      let name = "";
      for (let i = 0; i < len; i++) name += ALPHABET[Math.floor(next() * ALPHABET.length)];
      return name.trim() ? name : `${name}x`;
    });
  }

  it("round-trips 300 random names of special characters", () => {
    const names = randomNames(300, 42);
    const actions: RefinementAction[] = [];
    for (let i = 0; i + 2 < names.length; i += 3) {
      const [s, r, o] = names.slice(i, i + 3) as [string, string, string];
      actions.push(i % 2 ? { type: "insert_edge", subject: s, relation: r, object: o } : { type: "replace_node", old: s, new: `${o}~` });
    }
    const r = ok(formatActions(actions), { maxActions: actions.length });
    expect(r.actions).toEqual(actions);
    expect(r.warnings).toEqual([]);
  });

  it("never throws on random garbage", () => {
    for (const [i, junk] of randomNames(400, 7).entries()) {
      const raw = i % 2 ? `<refinement>insert_edge(${junk}` : `<refinement>${junk}</refinement>${junk}`;
      expect(() => parseRefinement(raw, MAX)).not.toThrow();
    }
  });
});

