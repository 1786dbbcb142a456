/**
 * The small part of Markdown the files in docs/ use, as data the docs page renders with React
 * (never as HTML: no markup from a file reaches the page unescaped). Blocks: headings, fenced
 * code, lists, tables (kept as rows of cells), quotes and paragraphs; inline: `code`, **bold**,
 * *emphasis* and [links](url). Anything else stays as text.
 */

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "em"; text: string }
  | { kind: "link"; text: string; href: string };

export type Block =
  | { kind: "heading"; level: number; text: Inline[]; id: string }
  | { kind: "code"; text: string; lang: string }
  | { kind: "list"; ordered: boolean; items: Inline[][] }
  | { kind: "table"; head: Inline[][]; rows: Inline[][][] }
  | { kind: "quote"; text: Inline[] }
  | { kind: "paragraph"; text: Inline[] };

const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)|(?<![\w*])\*(?!\s)(.+?)\*(?!\w)/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index;
    if (at > last) out.push({ kind: "text", text: text.slice(last, at) });
    if (m[1] !== undefined) out.push({ kind: "code", text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: "strong", text: m[2] });
    else if (m[3] !== undefined && m[4] !== undefined) out.push({ kind: "link", text: m[3], href: m[4] });
    else if (m[5] !== undefined) out.push({ kind: "em", text: m[5] });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** The plain text of inline parts (for a heading's anchor, a summary). */
export function inlineText(parts: Inline[]): string {
  return parts.map((p) => p.text).join("");
}

/** An anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
}

const LIST_ITEM = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/;

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  const isBlank = (line: string | undefined) => line === undefined || line.trim() === "";
  const startsBlock = (line: string) => /^(#{1,6}\s|```|>\s?|\|)/.test(line) || LIST_ITEM.test(line);
  while (i < lines.length) {
    const line = lines[i] as string;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const text = parseInline(heading[2] ?? "");
      blocks.push({ kind: "heading", level: (heading[1] ?? "#").length, text, id: slugify(inlineText(text)) });
      i++;
      continue;
    }
    const fence = /^```\s*(\S*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i] as string)) body.push(lines[i++] as string);
      i++; // the closing fence (or the end of the file)
      blocks.push({ kind: "code", text: body.join("\n"), lang: fence[1] ?? "" });
      continue;
    }
    if (line.startsWith("|")) {
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] as string).startsWith("|")) rows.push(cells(lines[i++] as string));
      const [head = [], separator, ...rest] = rows;
      const hasHead = separator !== undefined && separator.every((c) => /^:?-{3,}:?$/.test(c));
      blocks.push({ kind: "table", head: hasHead ? head.map(parseInline) : [], rows: (hasHead ? rest : rows).map((r) => r.map(parseInline)) });
      continue;
    }
    if (/^>\s?/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^>\s?/.test(lines[i] as string)) body.push((lines[i++] as string).replace(/^>\s?/, ""));
      blocks.push({ kind: "quote", text: parseInline(body.join(" ")) });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i] as string;
        const next = LIST_ITEM.exec(current);
        if (next && (next[2] !== undefined) === ordered) items.push(next[3] ?? "");
        else if (!isBlank(current) && /^\s+/.test(current) && items.length > 0) items[items.length - 1] += ` ${current.trim()}`;
        else break;
        i++;
      }
      blocks.push({ kind: "list", ordered, items: items.map(parseInline) });
      continue;
    }
    const body: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && !(body.length > 0 && startsBlock(lines[i] as string))) body.push((lines[i++] as string).trim());
    blocks.push({ kind: "paragraph", text: parseInline(body.join(" ")) });
  }
  return blocks;
}

/** The first heading's text and the first paragraph's, for a topic list. */
export function summarizeMarkdown(source: string): { title: string; summary: string } {
  const blocks = parseMarkdown(source);
  const heading = blocks.find((b) => b.kind === "heading");
  const paragraph = blocks.find((b) => b.kind === "paragraph");
  return { title: heading ? inlineText(heading.text) : "", summary: paragraph ? inlineText(paragraph.text) : "" };
}
