import { describe, expect, it } from "vitest";
import type { VersionMeta } from "./versions";
import { formatVersionMeta, nextVersionNumber, parseVersionMeta, undoTarget, versionNumbers } from "./versions";

const meta = (version: number, undone: boolean): VersionMeta => ({
  version,
  created_ts: "2026-01-31T09:00:00Z",
  query: null,
  query_id: null,
  trace_file: null,
  refinement_file: "r.txt",
  before_sha256: "a",
  after_sha256: "b",
  refresh_wiki: false,
  allow_low_confidence: false,
  actions: [{ index: 0, action: 'insert_edge("a", "r", "b")', confidence: "HIGH", summary: "adds a --r--> b", skipped: false }],
  undone_ts: undone ? "2026-01-31T10:00:00Z" : null,
});

describe("versions", () => {
  it("numbers versions from the folder names, ignoring temporary and foreign entries", () => {
    expect(versionNumbers(["2", "10", ".tmp-3-x", "01", "notes", "1"])).toEqual([1, 2, 10]);
    expect(nextVersionNumber([])).toBe(1);
    expect(nextVersionNumber([1, 2, 10])).toBe(11);
  });

  it("undo takes the newest version not undone yet", () => {
    expect(undoTarget([meta(1, false), meta(2, true), meta(3, true)])?.version).toBe(1);
    expect(undoTarget([meta(1, false), meta(2, false)])?.version).toBe(2);
    expect(undoTarget([meta(1, true)])).toBeNull();
  });

  it("round-trips the record and names the file of a broken one", () => {
    expect(parseVersionMeta(formatVersionMeta(meta(4, false)), { source: "v.json" })).toEqual(meta(4, false));
    expect(() => parseVersionMeta('{"version": 0}', { source: "v/4/version.json" })).toThrow(/^v\/4\/version.json: field "version"/);
    expect(() => parseVersionMeta("{", { source: "v.json" })).toThrow(/^v.json: invalid JSON/);
  });
});
