/**
 * Parsers for the three model outputs of the hop loop (seed 000): `<judge>`, `<abduction>` and
 * `<refinement>`. Model output is untrusted text: every parser returns a result object instead of
 * throwing, and the refinement parser is a character scanner, not a regex split, because names
 * legitimately contain `)`, `|`, `,` and quotes (reference.md §1.4: the skill's parser broke on
 * exactly those).
 */
import type { RefinementAction } from "./types";

export type JudgeParse = { ok: true; answerable: boolean } | { ok: false; error: string };
export type AbductionParse = { ok: true; abduction: string } | { ok: false; error: string };
export type RefinementParse =
  | { ok: true; actions: RefinementAction[]; warnings: string[] }
  | { ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// <judge> and <abduction>

/** Inner text of every `<tag>…</tag>` pair, in order; tolerant of case and spaces inside the tags. */
function tagContents(raw: string, tag: string): string[] {
  const re = new RegExp(`<\\s*${tag}\\s*>([\\s\\S]*?)<\\s*/\\s*${tag}\\s*>`, "gi");
  return [...raw.matchAll(re)].map((m) => m[1] ?? "");
}

function preview(raw: string, max = 80): string {
  const flat = raw.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * `<judge>Yes</judge>` / `<judge>No</judge>`, case- and space-tolerant (`<judge> yes </judge>`,
 * `<JUDGE>No.</JUDGE>`, `<judge>**Yes**</judge>`). The LAST tag wins: reasoning models quote the
 * format ("I must answer <judge>Yes</judge> or <judge>No</judge>") before they answer.
 */
export function parseJudge(raw: string): JudgeParse {
  const tags = tagContents(raw, "judge");
  const last = tags[tags.length - 1];
  if (last === undefined) return { ok: false, error: "no <judge>…</judge> tag in the output" };
  const value = last
    .trim()
    .replace(/^[*_"'`\s]+|[*_"'`.!\s]+$/g, "")
    .toLowerCase();
  if (value === "yes") return { ok: true, answerable: true };
  if (value === "no") return { ok: true, answerable: false };
  return { ok: false, error: `the <judge> tag holds "${preview(last, 40)}", not Yes or No` };
}

/** The text inside the last `<abduction>…</abduction>`, trimmed; empty analysis is a format error. */
export function parseAbduction(raw: string): AbductionParse {
  const tags = tagContents(raw, "abduction");
  const last = tags[tags.length - 1];
  if (last === undefined) return { ok: false, error: "no <abduction>…</abduction> block in the output" };
  const text = last.trim();
  if (!text) return { ok: false, error: "the <abduction> block is empty" };
  return { ok: true, abduction: text };
}

// ---------------------------------------------------------------------------------------------
// <refinement>: tokenizer

const ARITY: Record<RefinementAction["type"], number> = { insert_edge: 3, delete_edge: 3, replace_node: 2 };
const ARG_NAMES: Record<RefinementAction["type"], string[]> = {
  insert_edge: ["subject", "relation", "object"],
  delete_edge: ["subject", "relation", "object"],
  replace_node: ["old entity", "new entity"],
};

/** Closing quote for each opening quote: ASCII, and the typographic pairs models sometimes emit. */
const QUOTES: Record<string, string> = { '"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019" };

interface RawCall {
  verb: string;
  args: string[];
  /** Arguments that were not quoted. */
  bare: boolean;
  /** The call's source text, for warnings. */
  text: string;
  /** 1-based position among the block's calls (broken ones included), for warnings. */
  no: number;
}

/** A block's content in source order: calls, and notes about text that was not a valid call. */
type BlockItem = { call: RawCall } | { warning: string };

interface BlockScan {
  items: BlockItem[];
  /** Position just after the closing tag (or the end of the text). */
  end: number;
  closed: boolean;
  /** Whether the block held any `name(` call at all, valid or not. */
  sawCall: boolean;
}

const OPEN_TAG = /<\s*refinement\s*(\/)?\s*>/gi;
const CLOSE_TAG = /^<\s*\/\s*refinement\s*>/i;

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z_]/.test(c);
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

function isSpace(c: string | undefined): boolean {
  return c !== undefined && /\s/.test(c);
}

class ActionError extends Error {
  /** Where scanning resumes looking for the next action. */
  constructor(
    message: string,
    readonly resumeAt: number,
  ) {
    super(message);
  }
}

/** Scanner over one `<refinement>` block, starting just after its opening tag. */
class BlockScanner {
  private pos: number;
  private readonly items: BlockItem[] = [];
  private actionNo = 0;
  private sawCall = false;
  /** The text right after a broken action is its own tail (`c, d)` of `f(a, b|c, d)`): not warned about twice. */
  private afterError = false;

  constructor(
    private readonly src: string,
    start: number,
  ) {
    this.pos = start;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private atClose(at = this.pos): number {
    if (this.src[at] !== "<") return 0;
    const m = CLOSE_TAG.exec(this.src.slice(at, at + 40));
    return m ? m[0].length : 0;
  }

  private skipSpaces(): void {
    while (isSpace(this.peek())) this.pos++;
  }

  scan(): BlockScan {
    const src = this.src;
    for (;;) {
      // Separators between actions: `|` (the seed's), whitespace and newlines; `,` and `;` too,
      // which models use when they list actions.
      while (this.pos < src.length && /[\s|,;]/.test(src[this.pos] ?? "")) this.pos++;
      if (this.pos >= src.length) return this.result(false);
      const close = this.atClose();
      if (close) {
        this.pos += close;
        return this.result(true);
      }
      if (isIdentStart(this.peek())) {
        const start = this.pos;
        while (isIdentChar(this.peek())) this.pos++;
        const verb = src.slice(start, this.pos);
        this.skipSpaces();
        if (this.peek() === "(") {
          this.sawCall = true;
          this.actionNo++;
          try {
            this.afterError = false;
            this.items.push({ call: this.call(verb, start) });
          } catch (e) {
            if (!(e instanceof ActionError)) throw e;
            this.warn(`action ${this.actionNo} (${preview(src.slice(start, e.resumeAt), 60)}): ${e.message}; skipped`);
            this.pos = e.resumeAt;
            this.afterError = true;
          }
          continue;
        }
        this.junk(start);
        continue;
      }
      this.junk(this.pos);
    }
  }

  private result(closed: boolean): BlockScan {
    return { items: this.items, end: this.pos, closed, sawCall: this.sawCall };
  }

  private warn(warning: string): void {
    this.items.push({ warning });
  }

  /** Text that is not an action ("1.", prose): skipped up to the next word that could start one. */
  private junk(start: number): void {
    const src = this.src;
    this.pos = Math.max(this.pos, start + 1);
    while (this.pos < src.length && !this.atClose()) {
      const prev = src[this.pos - 1];
      if (isIdentStart(src[this.pos]) && !isIdentChar(prev)) break;
      this.pos++;
    }
    const text = src.slice(start, this.pos).trim();
    if (text && !this.afterError) this.warn(`ignored text "${preview(text, 60)}" between actions`);
  }

  /** Resume point after a broken action: the next `|` or line break, or the closing tag. */
  private resumeFrom(at: number): number {
    const src = this.src;
    let i = at;
    while (i < src.length && src[i] !== "|" && src[i] !== "\n" && !this.atClose(i)) i++;
    return i;
  }

  /** `verb(arg, arg, …)` with the scanner on `(`. */
  private call(verb: string, start: number): RawCall {
    const src = this.src;
    this.pos++; // (
    const args: string[] = [];
    let bare = false;
    this.skipSpaces();
    if (this.peek() === ")") {
      this.pos++;
      return { verb, args, bare, text: src.slice(start, this.pos), no: this.actionNo };
    }
    for (;;) {
      this.skipSpaces();
      const c = this.peek();
      if (c === undefined) throw new ActionError("unterminated action (no closing parenthesis)", src.length);
      const closer = QUOTES[c];
      if (closer !== undefined) {
        args.push(this.quoted(c, closer, args.length + 1));
      } else {
        const value = this.bareArg();
        if (value === null) {
          // `f("a", "b",)`: a trailing comma before `)` adds no argument.
          if (this.peek() === ")" && args.length > 0) {
            this.pos++;
            return { verb, args, bare, text: src.slice(start, this.pos), no: this.actionNo };
          }
          throw new ActionError("empty argument", this.resumeFrom(this.pos));
        }
        bare = true;
        args.push(value);
      }
      this.skipSpaces();
      const next = this.peek();
      if (next === ",") {
        this.pos++;
        continue;
      }
      if (next === ")") {
        this.pos++;
        return { verb, args, bare, text: src.slice(start, this.pos), no: this.actionNo };
      }
      throw new ActionError(
        next === undefined ? "unterminated action (no closing parenthesis)" : `unexpected "${next}" after argument ${args.length}`,
        this.resumeFrom(this.pos),
      );
    }
  }

  /**
   * A quoted argument. Backslash escapes (`\"`, `\\`, `\'`, `\n`, `\t`, `\r`, `\uXXXX`; any other
   * backslash is kept literally, as Python does). A closing quote counts only when the next
   * non-space character is `,` or `)`: `"The "Big" Show"` and `'O'Brien'` are one name each.
   */
  private quoted(open: string, closer: string, argNo: number): string {
    const src = this.src;
    const openAt = this.pos;
    this.pos++;
    let out = "";
    let literalQuote = false;
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      // After a quote that did not end the name, a separator means the quotes are unbalanced
      // (`"b"|next(…)` with a missing `)`): give up here so the next action is still read.
      if (literalQuote && (c === "|" || c === "\n")) throw new ActionError(`unbalanced quotes in argument ${argNo}`, this.pos);
      if (c === "\\") {
        const n = src[this.pos + 1];
        if (n === undefined) break;
        if (n === "u" && /^[0-9a-fA-F]{4}$/.test(src.slice(this.pos + 2, this.pos + 6))) {
          out += String.fromCharCode(parseInt(src.slice(this.pos + 2, this.pos + 6), 16));
          this.pos += 6;
          continue;
        }
        const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'" };
        const decoded = simple[n];
        out += decoded ?? `\\${n}`;
        this.pos += 2;
        continue;
      }
      // A typographic opening quote also accepts a plain `"` as its close.
      if (c === closer || (closer !== open && c === '"')) {
        let j = this.pos + 1;
        while (isSpace(src[j])) j++;
        const after = src[j];
        if (after === "," || after === ")") {
          this.pos++;
          if (literalQuote) this.warn(`action ${this.actionNo}: argument ${argNo} has an unescaped quote; read as part of the name`);
          return out;
        }
        literalQuote = true;
      }
      out += c;
      this.pos++;
    }
    // Unterminated: resume after the opening quote so the following actions can still be read.
    throw new ActionError(`unterminated string in argument ${argNo}`, this.resumeFrom(openAt + 1));
  }

  /**
   * An unquoted argument: up to a top-level `,` or `)`; balanced parentheses are part of it
   * (`foo()` is a graphify label). `|`, a line break or the closing tag inside it make the split
   * ambiguous, so the action is rejected. Returns null for an empty argument.
   */
  private bareArg(): string | null {
    const src = this.src;
    const start = this.pos;
    let depth = 0;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (depth === 0 && (c === "," || c === ")")) break;
      if (c === "|" || c === "\n" || this.atClose()) {
        throw new ActionError("unquoted argument runs into a separator; quote the names", this.resumeFrom(this.pos));
      }
      if (c === "(") depth++;
      if (c === ")") depth--;
      this.pos++;
    }
    if (this.pos >= src.length) throw new ActionError("unterminated action (no closing parenthesis)", src.length);
    const value = src.slice(start, this.pos).trim();
    return value === "" ? null : value;
  }
}

const HAS_OPEN_TAG = /<\s*refinement\s*\/?\s*>/i;

function lastClosedFromEachTag(raw: string): BlockScan | undefined {
  const starts = [...raw.matchAll(OPEN_TAG)].filter((m) => m[1] !== "/").map((m) => m.index + m[0].length);
  for (const start of starts.reverse()) {
    const block = new BlockScanner(raw, start).scan();
    if (block.closed) return block;
  }
  return undefined;
}

/** All `<refinement>` blocks, each scanned quote-aware so a tag inside a quoted name is not one. */
function scanBlocks(raw: string): BlockScan[] {
  const blocks: BlockScan[] = [];
  let from = 0;
  for (;;) {
    OPEN_TAG.lastIndex = from;
    const m = OPEN_TAG.exec(raw);
    if (!m) return blocks;
    const after = m.index + m[0].length;
    if (m[1] === "/") {
      // `<refinement/>`: an explicit empty block.
      blocks.push({ items: [], end: after, closed: true, sawCall: false });
      from = after;
      continue;
    }
    const block = new BlockScanner(raw, after).scan();
    blocks.push(block);
    from = Math.max(block.end, after);
  }
}

function describeCall(call: RawCall): string {
  return `action ${call.no} ${preview(call.text, 60)}`;
}

/** The action a well-formed call stands for, or why it is skipped. */
function checkCall(call: RawCall): RefinementAction | string {
  const verb = call.verb.toLowerCase();
  if (!Object.hasOwn(ARITY, verb)) {
    return `unknown action "${call.verb}" (expected insert_edge, delete_edge or replace_node); skipped`;
  }
  const type = verb as RefinementAction["type"];
  const names = ARG_NAMES[type];
  if (call.args.length !== ARITY[type]) {
    return `${type} takes ${ARITY[type]} arguments (${names.join(", ")}), got ${call.args.length}; skipped`;
  }
  const emptyAt = call.args.findIndex((a) => a.trim() === "");
  if (emptyAt >= 0) return `empty ${names[emptyAt]}; skipped`;
  const [a, b, c] = call.args as [string, string, string];
  if (type === "replace_node") return a === b ? "replaces a name with itself; skipped" : { type, old: a, new: b };
  return { type, subject: a, relation: b, object: c };
}

/**
 * The actions of the last complete `<refinement>…</refinement>` block. Per-action problems skip
 * that action with a warning naming it (wrong arity, unknown verb, empty name, duplicate); a
 * missing or unterminated block, or one holding only prose, is a format error for a retry. An
 * empty block is a valid "no changes" answer.
 */
export function parseRefinement(raw: string, { maxActions }: { maxActions: number }): RefinementParse {
  // Reasoning models (DeepRefine's are Qwen3-based) draft inside <think>…</think>: the answer
  // is what follows, when it holds a block. A draft can be left unbalanced, so skip it whole.
  const thinkEnd = raw.toLowerCase().lastIndexOf("</think>");
  const answer = thinkEnd >= 0 ? raw.slice(thinkEnd + "</think>".length) : raw;
  const text = thinkEnd >= 0 && HAS_OPEN_TAG.test(answer) ? answer : raw;
  const blocks = scanBlocks(text);
  if (blocks.length === 0) return { ok: false, error: "no <refinement>…</refinement> block in the output" };
  // The last complete block; if an unbalanced quote swallowed the rest, retry from each opening
  // tag, last first.
  const block = [...blocks].reverse().find((b) => b.closed) ?? lastClosedFromEachTag(text);
  if (!block) return { ok: false, error: "the <refinement> block is not closed with </refinement> (output cut off?)" };
  if (!block.sawCall && block.items.length > 0) {
    return { ok: false, error: "the <refinement> block holds text but no insert_edge/delete_edge/replace_node calls" };
  }

  const warnings: string[] = [];
  const actions: RefinementAction[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const item of block.items) {
    if ("warning" in item) {
      warnings.push(item.warning);
      continue;
    }
    const checked = checkCall(item.call);
    if (typeof checked === "string") {
      warnings.push(`${describeCall(item.call)}: ${checked}`);
      continue;
    }
    const key = JSON.stringify(item.call.args);
    if (seen.has(`${checked.type}${key}`)) {
      warnings.push(`${describeCall(item.call)}: duplicate of an earlier action; skipped`);
      continue;
    }
    seen.add(`${checked.type}${key}`);
    if (item.call.bare) {
      warnings.push(`${describeCall(item.call)}: unquoted arguments read as ${item.call.args.map((x) => JSON.stringify(x)).join(", ")}`);
    }
    if (actions.length >= maxActions) dropped++;
    else actions.push(checked);
  }
  if (dropped > 0) {
    warnings.push(`${actions.length + dropped} actions proposed; kept the first ${maxActions} (the limit), dropped ${dropped}`);
  }
  return { ok: true, actions, warnings };
}

// ---------------------------------------------------------------------------------------------
// Canonical text

function quote(name: string): string {
  return `"${name.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

export function formatAction(action: RefinementAction): string {
  return action.type === "replace_node"
    ? `replace_node(${quote(action.old)}, ${quote(action.new)})`
    : `${action.type}(${quote(action.subject)}, ${quote(action.relation)}, ${quote(action.object)})`;
}

/**
 * The canonical `<refinement>a|b|c</refinement>` text (the seed's format), with `"` and `\`
 * escaped, so `parseRefinement(formatActions(a))` gives `a` back for any names.
 */
export function formatActions(actions: readonly RefinementAction[]): string {
  return `<refinement>${actions.map(formatAction).join("|")}</refinement>`;
}
