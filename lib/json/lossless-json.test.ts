import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { LosslessNumber, formatPythonFloat, parseLosslessJson, pyFloat, stringifyLosslessJson } from "./lossless-json";

const roundTrip = (text: string) => stringifyLosslessJson(parseLosslessJson(text), { indent: 2 });

describe("formatPythonFloat", () => {
  it.each([
    [1, "1.0"],
    [0.5, "0.5"],
    [1e-5, "1e-05"],
    [0.0001, "0.0001"],
    [1e16, "1e+16"],
    [123456789012345.6, "123456789012345.6"],
    [-2.5e-7, "-2.5e-07"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [0, "0.0"],
  ])("%s → %s", (value, text) => {
    expect(formatPythonFloat(value)).toBe(text);
  });
});

describe("lossless JSON", () => {
  it("keeps Python float text, big integers and key order", () => {
    const text = '{\n  "b": 1.0,\n  "a": [\n    1e-05,\n    12345678901234567890,\n    0.1\n  ],\n  "2": "x",\n  "1": null\n}';
    expect(roundTrip(text)).toBe(text);
  });

  it("escapes non-ASCII the way Python's ensure_ascii does", () => {
    const value = parseLosslessJson('{"s": "caf\\u00e9 \\u2014 \\ud83d\\ude00 \\u007f"}');
    expect(stringifyLosslessJson(value)).toBe('{"s":"caf\\u00e9 \\u2014 \\ud83d\\ude00 \\u007f"}');
    expect(stringifyLosslessJson(value, { ensureAscii: false })).toContain("café — 😀");
  });

  it("prints empty containers and nesting like json.dumps(indent=2)", () => {
    expect(stringifyLosslessJson({ a: [], b: {}, c: [{ d: true }] }, { indent: 2 })).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": [\n    {\n      "d": true\n    }\n  ]\n}',
    );
  });

  it("treats __proto__ keys as data", () => {
    const value = parseLosslessJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(["__proto__"]);
  });

  it("makes Python floats for new values", () => {
    expect(stringifyLosslessJson({ w: pyFloat(1), x: pyFloat(0.25) })).toBe('{"w":1.0,"x":0.25}');
    expect(new LosslessNumber("1.0").valueOf()).toBe(1);
  });

  it.each([
    ["", "line 1, column 1: the file is empty"],
    ['{"a": 1,\n  "b": }', "line 2, column 8: unexpected character"],
    ['{"a": "x\ny"}', "line 1, column 9: control character"],
    ['{"a": 01}', "leading zeros"],
    ['[1, 2', "unexpected end of file inside an array"],
    ['{"a": 1} x', "unexpected text after the JSON value"],
  ])("names line and column for %j", (text, message) => {
    try {
      parseLosslessJson(text, { source: "bad.json" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe("PARSE_ERROR");
      expect((e as AppError).message).toContain("bad.json: ");
      expect((e as AppError).message).toContain(message);
    }
  });
});
