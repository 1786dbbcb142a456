/**
 * The LLM verification's prompt, parser, quote check and relabel, on MuSiQue's real passages and
 * the review of real actions against its graph.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { httpx, musique } from "../loop/test-support";
import type { RefinementAction } from "../loop/types";
import { reviewActions } from "./review-actions";
import type { ActionReview } from "./types";
import { applyVerification, buildVerifyPrompt, checkQuotes, documentsForVerification, judgeVerification, parseVerification, shouldVerify, withFailedVerification } from "./verify-action";

let graph: KnowledgeGraph;
let all: Map<string, CorpusDocument>;
beforeAll(() => {
  ({ graph } = musique());
  all = new Map(musique().documents.map((d) => [d.docId, d]));
});

const doc = (id: string) => {
  const d = all.get(id);
  if (!d) throw new Error(`no ${id}`);
  return d;
};
const ins = (subject: string, relation: string, object: string): RefinementAction => ({ type: "insert_edge", subject, relation, object });

function review(action: RefinementAction, documents: ReadonlyMap<string, CorpusDocument> = all): ActionReview {
  const r = reviewActions({ graph, actions: [action], documents })[0];
  if (!r) throw new Error("no review");
  return r;
}

function verify(r: ActionReview, answer: string, documents = documentsForVerification({ review: r, graph, documents: all })) {
  const parsed = parseVerification(answer);
  if (!parsed.ok) throw parsed.error;
  const outcome = judgeVerification({ review: r, graph, parsed: parsed.value, documents });
  return { outcome, after: applyVerification({ review: r, outcome }) };
}

// Sentences of musique-p0010 ("Adolescence") and musique-p0000, verbatim.
const HALL = 'The formal study of adolescent psychology began with the publication of G. Stanley Hall\'s "Adolescence in 1904."';
const DARWIN = "This understanding of youth was based on two then new ways of understanding human behavior: Darwin's evolutionary theory and Freud's psychodynamic theory.";
const SOLOVEJ = "The current editor is Jan Philip Solovej from University of Copenhagen.";

describe("parseVerification (untrusted output)", () => {
  it("reads the verdict and every quote with its document; thinking is ignored", () => {
    const r = parseVerification(`<think>maybe <verdict>contradicted</verdict></think>\n<verdict> Supported </verdict>\n<quote doc="musique-p0010">${HALL}</quote>\n<quote doc='musique-p0000'>${SOLOVEJ}</quote>`);
    expect(r.ok && r.value).toEqual({ verdict: "supported", quotes: [{ docId: "musique-p0010", text: HALL }, { docId: "musique-p0000", text: SOLOVEJ }] });
  });

  it("rejects garbage, a missing, unknown or double verdict and a quote without a document, by code", () => {
    for (const [text, reason] of [
      ["Yes, I think the passage supports this.", "no <verdict> tag"],
      ["<verdict>probably</verdict>", 'unknown verdict "probably" (expected supported, contradicted, unsupported)'],
      ["<verdict>supported</verdict><verdict>unsupported</verdict>", "several verdicts (supported, unsupported)"],
      [`<verdict>supported</verdict><quote>${HALL}</quote>`, 'a <quote> without doc="ID"'],
      ["", "no <verdict> tag"],
    ] as const) {
      const r = parseVerification(text);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe("LLM_FORMAT");
        expect(r.error.details.reason).toBe(reason);
      }
    }
  });
});

describe("checkQuotes (against the named document)", () => {
  it("keeps a true quote (whitespace and curly quotes normalised) and drops a paraphrase, another document's sentence, a short or unknown one", () => {
    const docs = [doc("musique-p0010"), doc("musique-p0000")];
    const { checked, dropped } = checkQuotes({
      documents: docs,
      quotes: [
        { docId: "musique-p0010", text: `“${DARWIN.replace("Darwin's", "Darwin’s").replace(" human ", "\n  human ")}”` },
        { docId: "musique-p0010", text: "Hall's understanding of youth was based on Darwin's evolutionary theory." },
        { docId: "musique-p0010", text: SOLOVEJ },
        { docId: "musique-p0010", text: "Erik Erikson" },
        { docId: "musique-p9999", text: SOLOVEJ },
      ],
    });
    expect(checked.map((q) => [q.docId, q.text])).toEqual([["musique-p0010", DARWIN]]);
    // A fragment is judged by the sentence it lies in.
    const fragment = checkQuotes({ documents: docs, quotes: [{ docId: "musique-p0010", text: "Darwin's evolutionary theory and Freud's" }] }).checked[0];
    expect(fragment).toMatchObject({ text: "Darwin's evolutionary theory and Freud's", context: DARWIN, line: null });
    expect(dropped.map((d) => d.why)).toEqual([
      expect.stringMatching(/^"Hall's understanding .*" is not in musique-p0010 verbatim$/),
      expect.stringMatching(/is not in musique-p0010 \(it is in musique-p0000\)$/),
      '"Erik Erikson" is too short to show anything (fewer than 3 words)',
      expect.stringMatching(/names musique-p9999, which is not one of the documents shown$/),
    ]);
  });
});

describe("verification of a MuSiQue insert", () => {
  it("the prompt states the claim, lists the review's quotes and the documents with their ids and the strict format", () => {
    const r = review(ins("Erik Erikson", "studied", "Adolescence"));
    const docs = documentsForVerification({ review: r, graph, documents: all });
    expect(docs.map((d) => d.docId)).toContain("musique-p0010");
    const [system, user] = buildVerifyPrompt({ review: r, graph, documents: docs });
    expect(system?.content).toContain('<quote doc="DOCUMENT_ID">');
    expect(user?.content).toContain('Claim: "Erik Erikson" studied "Adolescence" (an edge proposed for the graph).');
    expect(user?.content).toContain("- [musique-p0010] Hall's assertions stood relatively uncontested");
    expect(user?.content).toContain('<document id="musique-p0010" title="Adolescence">');
  });

  it("supported with checked quotes naming both raises LOW to MEDIUM, positive but not strong", () => {
    const r = review(ins("G. Stanley Hall", "influenced by", "Darwin"));
    expect(r.confidence).toBe("LOW");
    expect(shouldVerify(r)).toBe(true);
    const { outcome, after } = verify(r, `<verdict>supported</verdict>\n<quote doc="musique-p0010">${HALL}</quote>\n<quote doc="musique-p0010">${DARWIN}</quote>`);
    expect(outcome.signal).toMatchObject({ kind: "llm", contribution: 1.5, positive: true });
    expect(outcome.signal.strong).toBeUndefined();
    expect(after.confidence).toBe("MEDIUM");
    expect(after.score).toBeGreaterThan(r.score ?? 1);
    const signal = after.signals?.at(-1);
    expect(after.evidence[signal?.evidence ?? -1]).toMatchObject({ kind: "text", quote: HALL, source: { docId: "musique-p0010" } });
    expect(after.reasons.at(-2)).toBe("verification: the model says the documents support it, with a quote checked verbatim in musique-p0010");
    expect(after.reasons.at(-1)).toMatch(/^MEDIUM: score 0\.50 ≥ 0\.4: the model says/);
  });

  it("a fabricated quote gives nothing: the review stays LOW and says the model quoted nothing in the source", () => {
    const r = review(ins("G. Stanley Hall", "influenced by", "Darwin"));
    const { outcome, after } = verify(r, '<verdict>supported</verdict><quote doc="musique-p0010">G. Stanley Hall was deeply influenced by Charles Darwin.</quote>');
    expect(outcome.signal.contribution).toBe(0);
    expect(outcome.signal.positive).toBeUndefined();
    expect(outcome.signal.summary).toMatch(/^the model claimed support but quoted nothing that is in the source; dropped 1 quote: .* is not in musique-p0010 verbatim$/);
    expect(after.confidence).toBe("LOW");
    expect(after.score).toBe(r.score);
  });

  it("a checked quote that names only one side is no support", () => {
    const r = review(ins("G. Stanley Hall", "influenced by", "Darwin"));
    const { outcome, after } = verify(r, `<verdict>supported</verdict><quote doc="musique-p0010">${HALL}</quote>`);
    expect(outcome.signal.contribution).toBe(0);
    expect(outcome.signal.summary).toContain('do not name both "G. Stanley Hall" and "Darwin"');
    expect(after.confidence).toBe("LOW");
  });

  it("the sentence the text check already counted adds half and never makes HIGH", () => {
    const r = review(ins("Erik Erikson", "studied", "Adolescence"));
    expect(r.confidence).toBe("MEDIUM");
    const quote = "Hall's assertions stood relatively uncontested until the 1950s when psychologists such as Erik Erikson and Anna Freud started to formulate their theories about adolescence.";
    const { outcome, after } = verify(r, `<verdict>supported</verdict><quote doc="musique-p0010">${quote}</quote>`);
    expect(outcome.signal.contribution).toBe(0.75);
    expect(after.confidence).toBe("MEDIUM");
    expect(after.score).toBeGreaterThan(r.score ?? 1);
  });

  it("a quote that passes the review's statement check is strong: HIGH when the review had not read that passage", () => {
    const r = review(ins("Carl Rogers", "developed", "Person-centered therapy"), new Map());
    expect(r.confidence).not.toBe("HIGH");
    const quote = "Person - centered therapy, also known as person - centered psychotherapy, person - centered counseling, client - centered therapy and Rogerian psychotherapy, is a form of psychotherapy developed by psychologist Carl Rogers beginning in the 1940s and extending into the 1980s.";
    const { outcome, after } = verify(r, `<verdict>supported</verdict><quote doc="musique-p0001">${quote}</quote>`, [doc("musique-p0001")]);
    expect(outcome.signal).toMatchObject({ contribution: 2, positive: true, strong: true });
    expect(after.confidence).toBe("HIGH");
  });

  it("a checked quote whose relation words attach to another pair is not strong: never HIGH", () => {
    // musique-hard's made-up edge: "Tic Tac is a Swedish thriller film which was released to cinemas in
    // Sweden on 31 October 1997, directed by Daniel Alfredson …" — the model quotes it for "released on".
    const r = review(ins("Tic Tac", "released on", "Daniel Alfredson"), new Map());
    expect(r.confidence).not.toBe("HIGH");
    const quote = "Tic Tac is a Swedish thriller film which was released to cinemas in Sweden on 31 October 1997, directed by Daniel Alfredson and written by Hans Renhäll";
    const { outcome, after } = verify(r, `<verdict>supported</verdict><quote doc="musique-p0810">${quote}</quote>`, [doc("musique-p0810")]);
    expect(outcome.signal.strong ?? false).toBe(false);
    expect(after.confidence).not.toBe("HIGH");
  });

  it("contradicted with a checked quote speaks against an insert; a blocking warning stays LOW whatever the model says", () => {
    const r = review(ins("Journal of Mathematical Physics", "edited by", "George T. Solomon"));
    const { outcome } = verify(r, `<verdict>contradicted</verdict><quote doc="musique-p0000">${SOLOVEJ}</quote>`, [doc("musique-p0000")]);
    expect(outcome.signal.contribution).toBe(-1.5);
    const blocked = review(ins("G. Stanley Hall", "founded", "unknown"));
    expect(shouldVerify(blocked)).toBe(false);
    const forced = verify(blocked, `<verdict>supported</verdict><quote doc="musique-p0010">${HALL}</quote>`, [doc("musique-p0010")]);
    expect(forced.after.confidence).toBe("LOW");
  });

  it("a delete of an edge the model shows supported gets a signal against it", () => {
    const r = review({ type: "delete_edge", subject: "Journal of Mathematical Physics", relation: "published by", object: "American Institute of Physics" });
    const quote = "The Journal of Mathematical Physics is a peer-reviewed journal published monthly by the American Institute of Physics devoted to the publication of papers in mathematical physics.";
    const { outcome, after } = verify(r, `<verdict>supported</verdict><quote doc="musique-p0000">${quote}</quote>`);
    expect(outcome.signal.contribution).toBeLessThan(0);
    expect(after.confidence).toBe("LOW");
  });

  it("a failed call leaves label and score as they were, with a neutral signal before the label line", () => {
    const r = review(ins("Erik Erikson", "studied", "Adolescence"));
    const after = withFailedVerification(r, "HTTP 500");
    expect(after).toMatchObject({ confidence: r.confidence, score: r.score });
    expect(after.signals?.at(-1)).toEqual({ kind: "llm", contribution: 0, summary: "verification failed: HTTP 500" });
    expect(after.reasons.at(-1)).toBe(r.reasons.at(-1));
    expect(after.reasons.at(-2)).toBe("verification failed: HTTP 500");
  });
});

describe("verification of a code action (graphify httpx)", () => {
  it("a line of the subject's file naming both identifiers is checked and raises a LOW insert to MEDIUM; an invented line is dropped", () => {
    const { graph: g, documents } = httpx();
    const files = new Map(documents.map((d) => [d.docId, d]));
    const r = reviewActions({ graph: g, actions: [ins("AsyncClient", "relies on", "BaseClient")], documents: files })[0] as ActionReview;
    expect(r.confidence).toBe("LOW");
    const shown = documentsForVerification({ review: r, graph: g, documents: files });
    const file = shown.find((d) => d.docId.endsWith("client.py"));
    expect(file).toBeDefined();
    const [, user] = buildVerifyPrompt({ review: r, graph: g, documents: shown });
    expect(user?.content).toContain("class AsyncClient(BaseClient):");
    const run = (answer: string) => {
      const parsed = parseVerification(answer);
      if (!parsed.ok) throw parsed.error;
      const outcome = judgeVerification({ review: r, graph: g, parsed: parsed.value, documents: shown });
      return { outcome, after: applyVerification({ review: r, outcome }) };
    };
    const real = run(`<verdict>supported</verdict><quote doc="${file?.docId ?? ""}">class AsyncClient(BaseClient):</quote>`);
    expect(real.outcome.checked).toMatchObject([{ line: 123 }]);
    expect(real.outcome.signal).toMatchObject({ kind: "llm", contribution: 1.5, positive: true });
    expect(real.after.confidence).toBe("MEDIUM");
    expect(real.after.evidence.at(-1)).toMatchObject({ kind: "code", source: { line: 123 } });
    const invented = run(`<verdict>supported</verdict><quote doc="${file?.docId ?? ""}">class AsyncClient(BaseClient, Protocol):</quote>`);
    expect(invented.outcome.signal.contribution).toBe(0);
    expect(invented.after.confidence).toBe("LOW");
  });
});
