import { describe, expect, it } from "vitest";
import { repeatsSignal } from "./repeats-signal";

// Summaries as the review wrote them for insert_edge("Kismet", "in_language", "French") on MetaQA.
const FUNCTIONAL = `in_language is functional (91% of its 2,984 subjects have one object); the subject already has "English"`;

describe("an evidence summary that repeats its signal is not shown twice", () => {
  it("the same words, or the signal's words behind a prefix, repeat it", () => {
    expect(repeatsSignal(FUNCTIONAL, FUNCTIONAL)).toBe(true);
    expect(repeatsSignal(`functional in_language: ${FUNCTIONAL}`, FUNCTIONAL)).toBe(true);
    expect(repeatsSignal("nodes that share  Kismet's\nneighbours", "Nodes that share Kismet's neighbours have in_language French")).toBe(true);
  });

  it("evidence that says something else is kept", () => {
    expect(repeatsSignal("path of 2 hops: Kismet --directed_by--> William Dieterle; The Hunchback of Notre Dame --directed_by--> William Dieterle", FUNCTIONAL)).toBe(false);
    expect(repeatsSignal("", FUNCTIONAL)).toBe(false);
  });
});
