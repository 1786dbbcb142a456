/**
 * Language-aware code checks for graphify's relations (reference.md §2): does the source show
 * `subject --relation--> object`? Python and TypeScript/JavaScript, chosen by file extension.
 *
 *   calls                `name(` in the subject's body
 *   imports/imports_from `import x`, `from x import y`, `import {y} from "./x"`, `require("./x")`
 *   inherits             `class A(B)`, `class A extends B`, `implements B`, `interface A extends B`
 *   contains/method      the object defined inside the subject's body (`def`, `class`, `function`,
 *                        method syntax, `const name =`)
 *   uses/references      the object's identifier anywhere in the body
 *
 * The subject's body is found from its `source_location`: Python from the `def`/`class` line to
 * the next line at the same or lower indent (multi-line signatures and docstrings handled), TS/JS
 * by brace matching; a file node's body is the whole file. Comments and Python docstrings are
 * blanked first, so prose that mentions a name is not taken for code that uses it.
 *
 * The checks read only the documents they are handed: never the disk.
 */
import type { GraphEdge, GraphNode } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { parseSourceLocation } from "../import/corpus";
import { bareIdentifier, documentLines, unqualified } from "./text-evidence";

export type CodeLanguage = "python" | "script";
export type CodeRelationKind = "calls" | "imports" | "inherits" | "contains" | "uses";

export function codeLanguage(path: string): CodeLanguage | null {
  if (/\.pyi?$/i.test(path)) return "python";
  if (/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i.test(path)) return "script";
  return null;
}

/** graphify's relations and the synonyms models write for them, onto the check that tests each. */
const KIND_OF: Record<string, CodeRelationKind> = {
  calls: "calls",
  call: "calls",
  invokes: "calls",
  invoke: "calls",
  instantiates: "calls",
  imports: "imports",
  import: "imports",
  imports_from: "imports",
  import_from: "imports",
  requires: "imports",
  inherits: "inherits",
  inherits_from: "inherits",
  extends: "inherits",
  implements: "inherits",
  subclass_of: "inherits",
  subclasses: "inherits",
  derives_from: "inherits",
  contains: "contains",
  method: "contains",
  has_method: "contains",
  defines: "contains",
  declares: "contains",
  uses: "uses",
  use: "uses",
  references: "uses",
  refers_to: "uses",
  depends_on: "uses",
};

export function codeRelationKind(relation: string): CodeRelationKind | null {
  return KIND_OF[relation.trim().toLowerCase().replace(/[\s-]+/g, "_")] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Code view: comments and docstrings blanked, line numbers kept

const viewCache = new WeakMap<CorpusDocument, string[]>();

/** The document's lines with comments (and Python docstrings / TS block comments) blanked. */
export function codeView(doc: CorpusDocument, language: CodeLanguage): string[] {
  let view = viewCache.get(doc);
  if (!view) viewCache.set(doc, (view = stripComments(documentLines(doc), language)));
  return view;
}

export function stripComments(lines: readonly string[], language: CodeLanguage): string[] {
  const out: string[] = [];
  let block: string | null = null; // the closing delimiter of a multi-line string/comment we are in
  for (const line of lines) {
    let kept = "";
    let i = 0;
    while (i < line.length) {
      if (block) {
        const end = line.indexOf(block, i);
        if (end === -1) {
          i = line.length;
          break;
        }
        i = end + block.length;
        block = null;
        continue;
      }
      const c = line[i] as string;
      if (language === "python" && (line.startsWith('"""', i) || line.startsWith("'''", i))) {
        // Triple-quoted strings are docstrings or long text: prose, not code.
        block = line.slice(i, i + 3);
        i += 3;
        continue;
      }
      if (language === "script" && line.startsWith("/*", i)) {
        block = "*/";
        i += 2;
        continue;
      }
      if ((language === "python" && c === "#") || (language === "script" && line.startsWith("//", i))) break;
      if (c === '"' || c === "'" || (language === "script" && c === "`")) {
        // Keep string literals (import paths live in them), skipping over their content.
        const end = stringEnd(line, i);
        kept += line.slice(i, end);
        i = end;
        continue;
      }
      kept += c;
      i++;
    }
    out.push(kept);
  }
  return out;
}

function stringEnd(line: string, start: number): number {
  const quote = line[start];
  let i = start + 1;
  while (i < line.length) {
    const c = line[i];
    if (c === "\\") i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return line.length;
}

/** The line without string literals' content, for bracket counting. */
function withoutStrings(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(line, i);
      out += '""';
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** 1-based inclusive line range. */
export interface LineRange {
  start: number;
  end: number;
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)?.[0].replace(/\t/g, "    ").length ?? 0;
}

function bracketDelta(line: string): number {
  let d = 0;
  for (const c of withoutStrings(line)) {
    if (c === "(" || c === "[" || c === "{") d++;
    else if (c === ")" || c === "]" || c === "}") d--;
  }
  return d;
}

/** A Python def/class body: the header (its brackets closed) and every deeper-indented line after it. */
function pythonRange(view: readonly string[], start: number): LineRange {
  const first = view[start - 1] ?? "";
  const indent = indentOf(first);
  let depth = 0;
  let i = start - 1;
  // The header: up to the line where the brackets close (multi-line signatures end with `):`
  // at the def's own indent, which must not end the body).
  for (; i < view.length; i++) {
    depth += bracketDelta(view[i] ?? "");
    if (depth <= 0) break;
  }
  let end = Math.min(i + 1, view.length);
  depth = 0;
  for (let j = i + 1; j < view.length; j++) {
    const line = view[j] ?? "";
    if (line.trim() === "") continue;
    if (depth <= 0 && indentOf(line) <= indent) break;
    depth += bracketDelta(line);
    end = j + 1;
  }
  return { start, end };
}

/** A TS/JS body: from the first `{` outside parentheses to its match; an expression body ends at `;`. */
function scriptRange(view: readonly string[], start: number): LineRange {
  let paren = 0;
  let brace = 0;
  let opened = false;
  for (let i = start - 1; i < view.length && i < start - 1 + 5000; i++) {
    const line = withoutStrings(view[i] ?? "");
    for (const c of line) {
      if (c === "(" || c === "[") paren++;
      else if (c === ")" || c === "]") paren--;
      else if (c === "{") {
        if (paren === 0 || opened) {
          opened = true;
          brace++;
        }
      } else if (c === "}") {
        if (opened) {
          brace--;
          if (brace === 0) return { start, end: i + 1 };
        }
      } else if (c === ";" && !opened && paren === 0) return { start, end: i + 1 };
    }
  }
  return { start, end: opened ? view.length : start };
}

export function definitionRange({
  view,
  line,
  language,
}: {
  view: readonly string[];
  line: number;
  language: CodeLanguage;
}): LineRange {
  return language === "python" ? pythonRange(view, line) : scriptRange(view, line);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const TS_MODIFIERS = "(?:(?:export|default|public|private|protected|static|async|readonly|override|abstract|declare|get|set)\\s+)*";

/** A line that defines `name` (def/class/function/method/const…). */
function definitionPattern(name: string, language: CodeLanguage): RegExp {
  const n = escapeRe(name);
  return language === "python"
    ? new RegExp(`^\\s*(?:async\\s+)?(?:def|class)\\s+${n}\\b`)
    : new RegExp(
        `^\\s*${TS_MODIFIERS}(?:(?:function\\*?|class|interface|type|enum|const|let|var|namespace)\\s+${n}(?![\\w$])` +
          // method syntax: `name(args): Type {` (a call statement has no trailing `{`)
          `|#?${n}\\s*(?:<[^>]*>)?\\s*\\([^;]*\\)\\s*(?::[^;{}=]+)?\\{\\s*$` +
          // property/variable holding a function: `name = (…) =>`, `name: function`
          `|#?${n}\\s*[:=]\\s*(?:async\\s*)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|[\\w$]+\\s*=>))`,
      );
}

/** Module-level assignment of a name (a Python constant, a TS export) also defines it. */
function topLevelAssignment(name: string, language: CodeLanguage): RegExp {
  const n = escapeRe(name);
  return language === "python" ? new RegExp(`^${n}\\s*(?::[^=]+)?=(?!=)`) : new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+${n}\\b`);
}

/**
 * Where a node's definition starts: its `source_location` when that line names it, else the
 * nearest line that defines it (locations drift when files change after the graph was built).
 */
function definitionLine(view: readonly string[], node: GraphNode, language: CodeLanguage): number | null {
  const ident = bareIdentifier(node.label);
  const at = parseSourceLocation(node.sourceLocation)?.start ?? null;
  if (at !== null && at >= 1 && at <= view.length && (view[at - 1] ?? "").includes(ident)) return at;
  const re = definitionPattern(ident, language);
  let best: number | null = null;
  for (let i = 0; i < view.length; i++) {
    if (!re.test(view[i] ?? "")) continue;
    if (best === null || (at !== null && Math.abs(i + 1 - at) < Math.abs(best - at))) best = i + 1;
    if (at === null) break;
  }
  return best;
}

/** A graphify file node: its label is its file's name. */
export function isFileNode(node: GraphNode): boolean {
  if (!node.sourceFile) return false;
  const base = node.sourceFile.replace(/\\/g, "/").split("/").pop() ?? "";
  return base === node.label;
}

// ---------------------------------------------------------------------------------------------
// Checks

export interface CodeHit {
  line: number;
  text: string;
  /** What the line shows, e.g. "calls _build_request(". */
  note: string;
}

/** Longer lines are minified or generated code: skipped, so the patterns stay linear in practice. */
const MAX_LINE = 2000;

function scan(view: readonly string[], range: LineRange, test: (line: string, no: number) => string | null): CodeHit | null {
  for (let no = range.start; no <= range.end; no++) {
    const line = view[no - 1] ?? "";
    if (line.length > MAX_LINE) continue;
    const note = test(line, no);
    if (note !== null) return { line: no, text: "", note };
  }
  return null;
}

function identifierRe(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`);
}

/** Python import statements of a range, joined across parenthesised continuation lines. */
function pythonImports(view: readonly string[], range: LineRange): Array<{ line: number; modules: string[]; names: string[] }> {
  const out: Array<{ line: number; modules: string[]; names: string[] }> = [];
  for (let no = range.start; no <= range.end; no++) {
    let text = view[no - 1] ?? "";
    const start = no;
    if (!/^\s*(?:from|import)\s/.test(text)) continue;
    while ((bracketDelta(text) > 0 || /\\\s*$/.test(text)) && no < range.end) text = `${text.replace(/\\\s*$/, " ")} ${view[no++] ?? ""}`;
    const from = /^\s*from\s+([\w.]+)\s+import\s+(.+)$/.exec(text);
    const names = (list: string) =>
      list
        .replace(/[()]/g, " ")
        .split(",")
        .flatMap((p) => p.trim().split(/\s+as\s+/))
        .map((p) => p.trim())
        .filter(Boolean);
    if (from) out.push({ line: start, modules: [from[1] ?? ""], names: names(from[2] ?? "") });
    else {
      const imp = /^\s*import\s+(.+)$/.exec(text);
      if (imp) out.push({ line: start, modules: names(imp[1] ?? ""), names: [] });
    }
  }
  return out;
}

/** TS/JS import, export-from, require() and import() statements of a range. */
function scriptImports(view: readonly string[], range: LineRange): Array<{ line: number; modules: string[]; names: string[] }> {
  const out: Array<{ line: number; modules: string[]; names: string[] }> = [];
  for (let no = range.start; no <= range.end; no++) {
    const start = no;
    let text = view[no - 1] ?? "";
    const dynamic = [...text.matchAll(/\b(?:require|import)\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1] ?? "");
    if (dynamic.length) out.push({ line: start, modules: dynamic, names: [] });
    if (!/^\s*(?:import|export)\b/.test(text)) continue;
    // A multi-line `import {\n a,\n b\n} from "x"` ends at its `from "…"` (or a bare `import "x"`).
    while (!/(?:\bfrom\s*|^\s*import\s*)["'`][^"'`]+["'`]/.test(text) && no < range.end && no - start < 50) text = `${text} ${view[no++] ?? ""}`;
    const m = /^\s*(?:import|export)\s*(?:type\s+)?([\s\S]*?)\s*(?:\bfrom\s*)?["'`]([^"'`]+)["'`]/.exec(text);
    if (!m) continue;
    const clause = (m[1] ?? "").replace(/[{}*]/g, " ");
    const names = clause
      .split(/[\s,]+/)
      .filter((w) => w && w !== "as" && w !== "type" && w !== "from");
    out.push({ line: start, modules: [m[2] ?? ""], names });
  }
  return out;
}

/** Whether a module reference (`a.b.c`, `./models`, `../lib/models.js`, `@x/y`) names `target`. */
function moduleNames(module: string, target: string): boolean {
  if (module === target) return true;
  const last = module.replace(/\\/g, "/").split(/[/.]/).filter((p) => p && p !== "index" && !/^(js|ts|tsx|jsx|mjs|cjs|py)$/.test(p)).pop();
  return last === target;
}

export interface CheckTarget {
  /** The subject's bare identifier (for inherits). */
  subject: string;
  /** The object's bare identifier. */
  object: string;
  /** The object is a module (file node): imports compare module paths only. */
  objectIsModule: boolean;
}

/** Whether one line shows the relation (used for a range scan and for an existing edge's location). */
function lineShows(kind: CodeRelationKind, language: CodeLanguage, t: CheckTarget, line: string): string | null {
  const obj = escapeRe(t.object);
  switch (kind) {
    case "calls": {
      if (!new RegExp(`(?<![\\w$])${obj}\\s*\\(`).test(line)) return null;
      if (definitionPattern(t.object, language).test(line)) return null; // `def name(` defines, not calls
      return `calls ${t.object}(`;
    }
    case "uses":
      return identifierRe(t.object).test(line) ? `names ${t.object}` : null;
    case "contains":
      return definitionPattern(t.object, language).test(line) ? `defines ${t.object}` : null;
    case "inherits": {
      const subj = escapeRe(t.subject);
      if (language === "python") {
        const m = new RegExp(`^\\s*class\\s+${subj}\\s*\\(([^)]*)\\)`).exec(line);
        const bases = (m?.[1] ?? "").split(",").map((b) => b.trim().replace(/\[.*$/, "").split(".").pop() ?? "");
        return m && bases.includes(t.object) ? `class ${t.subject}(… ${t.object} …)` : null;
      }
      const m = new RegExp(`\\b(?:class|interface)\\s+${subj}\\b[^{]*?\\b(extends|implements)\\b([^{]*)`).exec(line);
      if (!m) return null;
      const heads = (m[0] ?? "").replace(/<[^<>]*>/g, "").split(/\bextends\b|\bimplements\b|,/).slice(1);
      const names = heads.map((h) => h.trim().split(/\s+/)[0]?.split(".").pop() ?? "");
      return names.includes(t.object) ? `${t.subject} ${m[1] ?? "extends"} ${t.object}` : null;
    }
    case "imports":
      return null; // statements span lines: handled by importHit
  }
}

function importHit(language: CodeLanguage, t: CheckTarget, view: readonly string[], range: LineRange): CodeHit | null {
  const statements = language === "python" ? pythonImports(view, range) : scriptImports(view, range);
  for (const s of statements) {
    if (s.modules.some((m) => moduleNames(m, t.object))) return { line: s.line, text: "", note: `imports module ${t.object}` };
    if (!t.objectIsModule && s.names.includes(t.object)) return { line: s.line, text: "", note: `imports ${t.object}` };
  }
  return null;
}

export type CodeCheck =
  | { status: "confirmed"; kind: CodeRelationKind; doc: CorpusDocument; hit: CodeHit; where: "body" | "edge"; range: LineRange | null }
  | { status: "absent"; kind: CodeRelationKind; doc: CorpusDocument; range: LineRange }
  | { status: "unchecked"; why: string };

/**
 * Checks `subject --relation--> object` in the subject's source. `pairEdges` (existing edges
 * between the two nodes, any relation, either direction) point at lines worth checking first:
 * graphify records where it saw the pair. "absent" means the subject's body was found and read
 * and does not show the relation: a contradiction for an edge that claims it.
 */
export function checkCodeRelation({
  documents,
  relation,
  subject,
  object,
  objectName,
  pairEdges = [],
}: {
  documents: ReadonlyMap<string, CorpusDocument>;
  relation: string;
  subject: GraphNode;
  object: GraphNode | null;
  objectName: string;
  pairEdges?: readonly GraphEdge[];
}): CodeCheck {
  const kind = codeRelationKind(relation);
  if (!kind) return { status: "unchecked", why: `no code check for the relation "${relation}"` };
  if (!subject.sourceFile) return { status: "unchecked", why: "the subject has no source file" };
  const doc = documents.get(subject.sourceFile);
  if (!doc) return { status: "unchecked", why: `the source ${subject.sourceFile} was not provided` };
  const language = codeLanguage(doc.path ?? doc.docId);
  if (!language) return { status: "unchecked", why: `${doc.path ?? doc.docId} is not Python or TypeScript/JavaScript` };
  const objectIdent = bareIdentifier(object ? object.label : unqualified(objectName));
  if (!/^[A-Za-z_$][\w$]*$/.test(objectIdent)) return { status: "unchecked", why: `"${objectIdent}" is not an identifier` };
  const target: CheckTarget = {
    subject: bareIdentifier(subject.label),
    object: objectIdent,
    objectIsModule: object ? isFileNode(object) : false,
  };
  const view = codeView(doc, language);
  const lines = documentLines(doc);
  const withText = (hit: CodeHit): CodeHit => ({ ...hit, text: (lines[hit.line - 1] ?? "").trim() });

  let range: LineRange | null = null;
  if (isFileNode(subject)) range = { start: 1, end: view.length };
  else {
    const at = definitionLine(view, subject, language);
    if (at !== null) range = definitionRange({ view, line: at, language });
  }

  // 1. Where graphify saw the pair.
  for (const e of pairEdges) {
    const file = typeof e.attrs.source_file === "string" ? e.attrs.source_file : null;
    const loc = parseSourceLocation(typeof e.attrs.source_location === "string" ? e.attrs.source_location : null);
    if (!file || !loc || file !== subject.sourceFile) continue;
    if (range && (loc.start < range.start || loc.start > range.end)) continue;
    const edgeRange = { start: loc.start, end: Math.min(loc.end, view.length) };
    const hit =
      kind === "imports" ? importHit(language, target, view, edgeRange) : scan(view, edgeRange, (l) => lineShows(kind, language, target, l));
    if (hit) return { status: "confirmed", kind, doc, hit: withText(hit), where: "edge", range };
  }
  if (!range) return { status: "unchecked", why: `the definition of ${target.subject} was not found in ${doc.path ?? doc.docId}` };

  // 2. The subject's body. Inheritance is stated on the definition line itself (or the file's
  // class line for the subject); definitions of the object skip the subject's own header.
  let hit: CodeHit | null;
  if (kind === "imports") hit = importHit(language, target, view, range);
  else if (kind === "inherits") {
    hit = scan(view, { start: range.start, end: Math.min(range.end, range.start + 5) }, (l) => lineShows(kind, language, target, l));
  } else {
    const body = kind === "contains" ? { start: range.start + 1, end: range.end } : range;
    hit = scan(view, body, (l) => lineShows(kind, language, target, l));
  }
  if (hit) return { status: "confirmed", kind, doc, hit: withText(hit), where: "body", range };
  if (kind === "contains" && isFileNode(subject)) {
    const assign = scan(view, range, (l) => (topLevelAssignment(target.object, language).test(l) ? `defines ${target.object}` : null));
    if (assign) return { status: "confirmed", kind, doc, hit: withText(assign), where: "body", range };
  }
  return { status: "absent", kind, doc, range };
}

// ---------------------------------------------------------------------------------------------
// Definitions

export interface CodeDefinition {
  doc: CorpusDocument;
  /** 1-based line of the `def` / `class` / `function` … that defines the node. */
  line: number;
  /** That line, trimmed, verbatim. */
  text: string;
}

/**
 * The line of source code that defines a node (a function, class, method, constant), read from
 * its own source file; null for file nodes, nodes without a readable source, and names that are
 * not identifiers. Two nodes with two definitions are two things: the review of a merge reads it.
 */
export function findCodeDefinition({ documents, node }: { documents: ReadonlyMap<string, CorpusDocument>; node: GraphNode }): CodeDefinition | null {
  if (!node.sourceFile || isFileNode(node)) return null;
  const doc = documents.get(node.sourceFile);
  if (!doc) return null;
  const language = codeLanguage(doc.path ?? doc.docId);
  if (!language) return null;
  const ident = bareIdentifier(node.label);
  if (!/^[A-Za-z_$][\w$]*$/.test(ident)) return null;
  const view = codeView(doc, language);
  const line = definitionLine(view, node, language);
  if (line === null) return null;
  const shown = view[line - 1] ?? "";
  // definitionLine accepts the source_location line when it merely names the identifier; a
  // definition must also look like one.
  if (!definitionPattern(ident, language).test(shown) && !topLevelAssignment(ident, language).test(shown)) return null;
  return { doc, line, text: (documentLines(doc)[line - 1] ?? "").trim() };
}
