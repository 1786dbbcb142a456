/**
 * Lossless JSON for graphify files.
 *
 * graphify writes `json.dumps(..., indent=2)` from Python: floats keep their `.0`
 * (`"weight": 1.0`), floats use Python's repr (`1e-05`), non-ASCII is escaped and object key
 * order matters to people diffing the file. `JSON.parse` + `JSON.stringify` lose all of that,
 * so imports would not round-trip. This module parses numbers whose text JavaScript cannot
 * reproduce into `LosslessNumber`, keeps key order (plain objects do, for non-integer keys;
 * integer-like keys are kept in an explicit order list), and prints Python's formatting.
 */
import { AppError } from "../errors";

/** A number whose source text must be kept verbatim (e.g. `1.0`, `1E5`, 2^64). */
export class LosslessNumber {
  constructor(readonly raw: string) {}
  valueOf(): number {
    return Number(this.raw);
  }
  toJSON(): number {
    return Number(this.raw);
  }
}

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | LosslessNumber
  | JsonValue[]
  | JsonObject;

/** Plain objects; see `orderedKeys` for the rare integer-like keys whose file order JS would not keep. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Numeric value of a JSON number, whichever representation it has. */
export function jsonNumber(value: JsonValue | undefined): number | undefined {
  if (typeof value === "number") return value;
  if (value instanceof LosslessNumber) return value.valueOf();
  return undefined;
}

/** A Python float literal (what graphify writes for weights): `pyFloat(1)` prints `1.0`. */
export function pyFloat(value: number): number | LosslessNumber {
  return Number.isInteger(value) ? new LosslessNumber(formatPythonFloat(value)) : value;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
}

/**
 * Python's float repr: shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16,
 * otherwise `d.ddde±XX`; integral values keep `.0`.
 */
export function formatPythonFloat(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = value.toExponential().split("e") as [string, string];
  const exponent = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    let text: string;
    if (exponent >= 0) {
      const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
      const frac = digits.slice(exponent + 1);
      text = `${intPart}.${frac || "0"}`;
    } else {
      text = `0.${"0".repeat(-exponent - 1)}${digits}`;
    }
    return sign + text;
  }
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expSign = exponent < 0 ? "-" : "+";
  return `${sign}${mant}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return formatPythonFloat(value);
}

export interface ParseOptions {
  /** Name shown in error messages (usually the file path). */
  source?: string;
}

/** Parse JSON text, keeping number text and key order. Errors name line and column. */
export function parseLosslessJson(text: string, options: ParseOptions = {}): JsonValue {
  const parser = new Parser(text, options.source ?? "input");
  return parser.parseDocument();
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

class Parser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly source: string,
  ) {}

  parseDocument(): JsonValue {
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.skipWs();
    if (this.pos >= this.text.length) this.fail("the file is empty (no JSON value)");
    const value = this.parseValue(0);
    this.skipWs();
    if (this.pos < this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  private fail(message: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = at - lineStart + 1;
    throw new AppError("PARSE_ERROR", `${this.source}: line ${line}, column ${column}: ${message}`, {
      source: this.source,
      line,
      column,
    });
  }

  private skipWs(): void {
    const t = this.text;
    while (this.pos < t.length && WS.has(t.charCodeAt(this.pos))) this.pos++;
  }

  private parseValue(depth: number): JsonValue {
    if (depth > 512) this.fail("nesting deeper than 512 levels");
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case "{":
        return this.parseObject(depth);
      case "[":
        return this.parseArray(depth);
      case '"':
        return this.parseString();
      case "t":
        return this.parseLiteral("true", true);
      case "f":
        return this.parseLiteral("false", false);
      case "n":
        return this.parseLiteral("null", null);
      case "N":
        return this.parseLiteral("NaN", Number.NaN);
      case "I":
        return this.parseLiteral("Infinity", Infinity);
      case undefined:
        return this.fail("unexpected end of file");
      default:
        if (c === "-" || (c >= "0" && c <= "9")) return this.parseNumber();
        return this.fail(`unexpected character ${JSON.stringify(c)}`);
    }
  }

  private parseLiteral(word: string, value: JsonValue): JsonValue {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    if (word === "Infinity" || word === "NaN") return this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}`);
    return this.fail(`expected ${word}`);
  }

  private parseNumber(): JsonValue {
    const t = this.text;
    const start = this.pos;
    if (t[this.pos] === "-") {
      this.pos++;
      if (t.startsWith("Infinity", this.pos)) {
        this.pos += 8;
        return -Infinity;
      }
    }
    const digitsStart = this.pos;
    while (this.pos < t.length && t.charCodeAt(this.pos) >= 48 && t.charCodeAt(this.pos) <= 57) this.pos++;
    if (this.pos === digitsStart) this.fail("invalid number");
    if (t[digitsStart] === "0" && this.pos - digitsStart > 1) this.fail("numbers may not have leading zeros", digitsStart);
    let isFloat = false;
    if (t[this.pos] === ".") {
      isFloat = true;
      this.pos++;
      const fracStart = this.pos;
      while (this.pos < t.length && t.charCodeAt(this.pos) >= 48 && t.charCodeAt(this.pos) <= 57) this.pos++;
      if (this.pos === fracStart) this.fail("invalid number: digits expected after the decimal point");
    }
    if (t[this.pos] === "e" || t[this.pos] === "E") {
      isFloat = true;
      this.pos++;
      if (t[this.pos] === "+" || t[this.pos] === "-") this.pos++;
      const expStart = this.pos;
      while (this.pos < t.length && t.charCodeAt(this.pos) >= 48 && t.charCodeAt(this.pos) <= 57) this.pos++;
      if (this.pos === expStart) this.fail("invalid number: digits expected in the exponent");
    }
    const raw = t.slice(start, this.pos);
    const value = Number(raw);
    const canonical = isFloat ? formatPythonFloat(value) : formatNumber(value);
    if (canonical === raw && !(isFloat && Number.isInteger(value))) return value;
    if (!isFloat && Number.isSafeInteger(value)) return value;
    return new LosslessNumber(raw);
  }

  private parseString(): string {
    const t = this.text;
    const start = ++this.pos;
    // Fast path: no escapes.
    let i = start;
    for (; i < t.length; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 0x22) {
        this.pos = i + 1;
        return t.slice(start, i);
      }
      if (ch === 0x5c) break;
      if (ch < 0x20) this.fail("control character inside a string (unescaped newline?)", i);
    }
    let out = t.slice(start, i);
    this.pos = i;
    while (this.pos < t.length) {
      const ch = t.charCodeAt(this.pos);
      if (ch === 0x22) {
        this.pos++;
        return out;
      }
      if (ch < 0x20) this.fail("control character inside a string (unescaped newline?)");
      if (ch !== 0x5c) {
        out += t[this.pos++];
        continue;
      }
      const esc = t[this.pos + 1];
      this.pos += 2;
      switch (esc) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hex = t.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape", this.pos - 2);
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.fail(`invalid escape \\${esc ?? ""}`, this.pos - 2);
      }
    }
    return this.fail("unterminated string", start - 1);
  }

  private parseArray(depth: number): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipWs();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.parseValue(depth + 1));
      this.skipWs();
      const c = this.text[this.pos];
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === "]") {
        this.pos++;
        return out;
      }
      this.fail(c === undefined ? "unexpected end of file inside an array" : "expected ',' or ']' in an array");
    }
  }

  private parseObject(depth: number): JsonObject {
    this.pos++;
    const out: JsonObject = {};
    const keys: string[] = [];
    this.skipWs();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail("expected a quoted key in an object");
      const key = this.parseString();
      this.skipWs();
      if (this.text[this.pos] !== ":") this.fail("expected ':' after an object key");
      this.pos++;
      this.skipWs();
      const value = this.parseValue(depth + 1);
      if (!Object.prototype.hasOwnProperty.call(out, key)) keys.push(key);
      // defineProperty: a key named "__proto__" must become data, not change the prototype.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipWs();
      const c = this.text[this.pos];
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === "}") {
        this.pos++;
        if (keys.some(isArrayIndexKey)) setKeyOrder(out, keys);
        return out;
      }
      this.fail(c === undefined ? "unexpected end of file inside an object" : "expected ',' or '}' in an object");
    }
  }
}

/** JS objects list integer-like keys first; remember the file's order for those rare objects. */
const KEY_ORDER = Symbol("keyOrder");

function isArrayIndexKey(key: string): boolean {
  return /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

function setKeyOrder(obj: JsonObject, keys: string[]): void {
  Object.defineProperty(obj, KEY_ORDER, { value: keys, enumerable: false });
}

/** Keys of a parsed object in source order. */
export function orderedKeys(obj: JsonObject): string[] {
  const order = (obj as { [KEY_ORDER]?: string[] })[KEY_ORDER];
  if (order) {
    const present = order.filter((k) => Object.prototype.hasOwnProperty.call(obj, k));
    const extra = Object.keys(obj).filter((k) => !present.includes(k));
    return [...present, ...extra];
  }
  return Object.keys(obj);
}

export interface StringifyOptions {
  /** Spaces per level; undefined = compact (no whitespace). */
  indent?: number;
  /** Escape non-ASCII as \uXXXX, like Python's default `ensure_ascii=True`. */
  ensureAscii?: boolean;
}

function quote(s: string, ensureAscii: boolean): string {
  const q = JSON.stringify(s);
  if (!ensureAscii) return q;
   
  return q.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Print JSON the way Python's `json.dumps(value, indent=…)` does. */
export function stringifyLosslessJson(value: JsonValue, options: StringifyOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true;
  const indent = options.indent;
  const parts: string[] = [];
  const write = (v: JsonValue, level: number): void => {
    if (v === null) {
      parts.push("null");
    } else if (typeof v === "boolean") {
      parts.push(v ? "true" : "false");
    } else if (typeof v === "number") {
      parts.push(formatNumber(v));
    } else if (typeof v === "string") {
      parts.push(quote(v, ensureAscii));
    } else if (v instanceof LosslessNumber) {
      parts.push(v.raw);
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        parts.push("[]");
        return;
      }
      parts.push("[");
      const pad = indent === undefined ? "" : "\n" + " ".repeat(indent * (level + 1));
      v.forEach((item, i) => {
        if (i > 0) parts.push(",");
        parts.push(pad);
        write(item, level + 1);
      });
      parts.push(indent === undefined ? "]" : "\n" + " ".repeat(indent * level) + "]");
    } else {
      const keys = orderedKeys(v);
      if (keys.length === 0) {
        parts.push("{}");
        return;
      }
      parts.push("{");
      const pad = indent === undefined ? "" : "\n" + " ".repeat(indent * (level + 1));
      const sep = indent === undefined ? ":" : ": ";
      keys.forEach((key, i) => {
        if (i > 0) parts.push(",");
        parts.push(pad, quote(key, ensureAscii), sep);
        write(v[key] as JsonValue, level + 1);
      });
      parts.push(indent === undefined ? "}" : "\n" + " ".repeat(indent * level) + "}");
    }
  };
  write(value, 0);
  return parts.join("");
}
