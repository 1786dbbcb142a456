import { describe, expect, it } from "vitest";
import { displayText, displayTextParts, neutraliseBidi } from "./display-text";

describe("displayText", () => {
  it("shows bidi overrides visibly so a reordered name cannot pass for another", () => {
    expect(displayText("\u202Eevil\u202C.py")).toBe("⟨U+202E⟩evil⟨U+202C⟩.py");
    expect(neutraliseBidi("a\u2066b\u2069c\u200Ed\u200F")).toBe("a⟨U+2066⟩b⟨U+2069⟩c⟨U+200E⟩d⟨U+200F⟩");
    for (let cp = 0x202a; cp <= 0x202e; cp++) expect(displayText(String.fromCodePoint(cp))).toMatch(/^⟨U\+202[A-E]⟩$/);
  });

  it("leaves ordinary text, including right-to-left scripts, untouched", () => {
    expect(displayText("שלום world")).toBe("שלום world");
    expect(displayText("Friedrich Nietzsche")).toBe("Friedrich Nietzsche");
  });

  it("caps long text at 120 characters by default with an ellipsis and keeps the full text", () => {
    const label = "x".repeat(100_000);
    const parts = displayTextParts(label);
    expect(parts.truncated).toBe(true);
    expect(parts.text).toBe(`${"x".repeat(120)}…`);
    expect(parts.full.length).toBe(100_000);
    expect(parts.length).toBe(100_000);
    expect(displayText(label, { max: 10 })).toBe("xxxxxxxxxx…");
    expect(displayTextParts("short").truncated).toBe(false);
  });

  it("never splits a surrogate pair or a marker when cutting", () => {
    const emoji = "😀".repeat(5);
    expect(displayText(emoji, { max: 3 })).toBe("😀😀😀…");
    expect(displayText("ab\u202Ecd", { max: 3 })).toBe("ab⟨U+202E⟩…");
  });
});
