/**
 * The containers advanced indexes share between versions: a layered map and a layered text read
 * as a plain map and a plain scan would, over long chains of random changes (past the folds),
 * and every older version keeps reading its own contents.
 */
import { describe, expect, it } from "vitest";
import { SegmentText } from "../retrieve/segment-text";
import { randomSource } from "../test/random-changesets";
import { LayeredMap, ListEdits } from "./derived-cache";

describe("LayeredMap", () => {
  it("reads as the plain map of each version through many versions, folds included", () => {
    const random = randomSource(7);
    let plain = new Map<number, string>();
    for (let i = 0; i < 2000; i++) plain.set(i, `v${i}`);
    let layered = LayeredMap.of(new Map(plain));
    const versions: [LayeredMap<number, string>, Map<number, string>][] = [];
    for (let round = 0; round < 60; round++) {
      const changes = new Map<number, string | null>();
      for (let k = 0; k < 1 + random(40); k++) changes.set(random(2600), random(3) === 0 ? null : `r${round}.${k}`);
      const next = new Map(plain);
      for (const [key, value] of changes) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      layered = layered.with(changes);
      plain = next;
      versions.push([layered, plain]);
    }
    const keys = Array.from({ length: 2600 }, (_, i) => i);
    for (const [map, want] of versions) {
      expect(keys.map((key) => map.get(key))).toEqual(keys.map((key) => want.get(key)));
      expect(keys.map((key) => map.has(key))).toEqual(keys.map((key) => want.has(key)));
    }
  });

  it("ListEdits copies each list it changes, keeps order, and leaves the old lists alone", () => {
    const old = LayeredMap.of(new Map([["a", [1, 3, 5]], ["b", [2]]]));
    const edits = new ListEdits(old);
    edits.add("a", 4, (x, y) => x - y);
    edits.remove("a", 1);
    edits.remove("b", 2);
    edits.add("c", 9);
    edits.add("c", 9);
    const next = old.with(edits.result());
    expect(next.get("a")).toEqual([3, 4, 5]);
    expect(next.get("b")).toBeUndefined();
    expect(next.get("c")).toEqual([9]);
    expect(old.get("a")).toEqual([1, 3, 5]);
    expect(old.get("b")).toEqual([2]);
  });
});

describe("SegmentText", () => {
  it("finds the items a scan of their current strings finds, through layers and folds", () => {
    const random = randomSource(11);
    const word = () => ["alpha", "beta", "gamma", "delta", "alphabet", "bet", "mama"][random(7)] as string;
    let strings = new Map<number, string>();
    for (let i = 0; i < 1500; i++) strings.set(i, `${word()} ${word()}`);
    let text = SegmentText.of([...strings.keys()], [...strings.values()]);
    const versions: [SegmentText, Map<number, string>][] = [[text, strings]];
    for (let round = 0; round < 40; round++) {
      const changes = new Map<number, string | null>();
      for (let k = 0; k < 1 + random(30); k++) changes.set(random(1700), random(4) === 0 ? null : `${word()} ${round}`);
      const next = new Map(strings);
      for (const [item, s] of changes) {
        if (s === null) next.delete(item);
        else next.set(item, s);
      }
      text = text.with(changes);
      strings = next;
      versions.push([text, strings]);
    }
    for (const [t, want] of versions) {
      for (const term of ["alpha", "bet", "ma", "a 1", "gamma 3", "zeta"]) {
        const expected = [...want].filter(([, s]) => s.includes(term)).map(([i]) => i).sort((a, b) => a - b);
        expect(t.find(term).sort((a, b) => a - b)).toEqual(expected);
      }
    }
  });
});
