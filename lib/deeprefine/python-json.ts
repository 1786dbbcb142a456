/**
 * One-line JSON the way Python's `json.dumps(value, ensure_ascii=False)` prints it (`", "` and
 * `": "` separators), so the JSONL files the deeprefine skill shares with us (history.jsonl,
 * refinement_results_*.jsonl) look the same whichever tool wrote a line. Numbers read
 * losslessly keep their text (`1.0` stays `1.0`).
 */
import type { JsonValue } from "../json/lossless-json";
import { LosslessNumber, formatPythonFloat, orderedKeys } from "../json/lossless-json";

function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return formatPythonFloat(value);
}

/** `value` may hold `undefined` object members (skipped, as JSON.stringify does). */
export function stringifyPythonJson(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof LosslessNumber) return value.raw;
  if (Array.isArray(value)) return `[${value.map((v) => stringifyPythonJson(v)).join(", ")}]`;
  const parts: string[] = [];
  for (const key of orderedKeys(value)) {
    const member: JsonValue | undefined = value[key];
    if (member === undefined) continue;
    parts.push(`${JSON.stringify(key)}: ${stringifyPythonJson(member)}`);
  }
  return `{${parts.join(", ")}}`;
}
