import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { queryIdOf } from "../questions/query-id";
import { createHistoryRow, formatHistory, markRefined, memoryRowsToAdd, parseHistory, pendingRows, rowId } from "./history";
import { stringifyPythonJson } from "./python-json";
import { parseLosslessJson } from "../json/lossless-json";

const NOW = new Date(Date.UTC(2026, 0, 31, 9, 5, 7));

describe("history.jsonl", () => {
  it("writes rows as Python's json.dumps does, keys in the skill's order", () => {
    const row = createHistoryRow({ query: "  Qué es X?  ", source: "user", now: NOW });
    expect(formatHistory([row])).toBe(`{"id": "${queryIdOf("Qué es X?")}", "ts": "2026-01-31T09:05:07Z", "query": "Qué es X?", "source": "user", "refined": false}\n`);
  });

  it("keeps unknown keys and number text when a row is rewritten", () => {
    const text = '{"id": "abc", "query": "q", "refined": false, "score": 1.0, "extra": {"b": [1, 2]}}\n';
    const [row] = parseHistory(text);
    expect(formatHistory([row!])).toBe(text);
  });

  it("pending: not refined, one per id (the first), file order; rows without an id use the query's", () => {
    const rows = parseHistory(
      [
        '{"id": "a", "query": "first", "refined": false}',
        '{"id": "b", "query": "done", "refined": true}',
        '{"id": "a", "query": "first again", "refined": false}',
        '{"query": "no id"}',
        '{"id": "c", "query": "   ", "refined": false}',
        '{"id": "d", "query": "truthy but not true", "refined": "yes"}',
      ].join("\n"),
    );
    expect(pendingRows(rows).map((r) => r.query)).toEqual(["first", "no id", "truthy but not true"]);
    expect(rowId(rows[3]!)).toBe(queryIdOf("no id"));
  });

  it("names the file and line of a bad row", () => {
    try {
      parseHistory('{"id": "a"}\n[1]\n', { source: "h.jsonl" });
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.code).toBe("PARSE_ERROR");
      expect((e as Error).message).toBe("h.jsonl: line 2: expected a JSON object");
    }
  });

  it("marks every row of an id refined once, with refined_ts and trace_file", () => {
    const rows = parseHistory('{"id": "a", "query": "q", "refined": false}\n{"id": "b", "query": "r", "refined": false}\n{"id": "a", "query": "q", "refined": false, "trace_file": "t0"}\n');
    const { rows: out, changed } = markRefined({ rows, id: "a", now: NOW, traceFile: "t.json" });
    expect(changed).toBe(true);
    expect(out[0]).toEqual({ id: "a", query: "q", refined: true, refined_ts: "2026-01-31T09:05:07Z", trace_file: "t.json" });
    expect(out[1]).toBe(rows[1]);
    expect(out[2]?.trace_file).toBe("t0");
    expect(markRefined({ rows: out, id: "a", now: NOW }).changed).toBe(false);
  });

  it("sync-memory adds each new question once", () => {
    const rows = [createHistoryRow({ query: "known", source: "user", now: NOW })];
    const { added, known } = memoryRowsToAdd({
      rows,
      memory: [
        { query: "known", file: "m/query_1.md" },
        { query: "new", file: "m/query_2.md" },
        { query: " new ", file: "m/query_3.md" },
      ],
      now: NOW,
    });
    expect(added).toEqual([{ id: queryIdOf("new"), ts: "2026-01-31T09:05:07Z", query: "new", source: "graphify_memory", refined: false, memory_file: "m/query_2.md" }]);
    expect(known).toBe(2);
  });
});

describe("stringifyPythonJson", () => {
  it("matches json.dumps(ensure_ascii=False) spacing and keeps lossless numbers", () => {
    expect(stringifyPythonJson({ a: [1, 2.5, null, true], b: {}, c: [], d: "é\n\"" })).toBe('{"a": [1, 2.5, null, true], "b": {}, "c": [], "d": "é\\n\\""}');
    expect(stringifyPythonJson(parseLosslessJson('{"w": 1.0, "big": 1e400}'))).toBe('{"w": 1.0, "big": 1e400}');
  });
});
