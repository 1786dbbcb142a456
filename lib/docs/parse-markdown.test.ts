import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inlineText, parseInline, parseMarkdown, summarizeMarkdown } from "./parse-markdown";

const docs = path.resolve(__dirname, "..", "..", "docs");

describe("parseMarkdown", () => {
  it("reads headings, fenced code, lists, tables and inline marks", () => {
    const blocks = parseMarkdown(
      [
        "# Deploying: SQLite or PostgreSQL",
        "",
        "`DATABASE_URL` picks the **database**, see [the README](../README.md).",
        "",
        "| url | database |",
        "|---|---|",
        "| `file:x.db` | SQLite |",
        "",
        "1. first",
        "   continued",
        "2. second",
        "",
        "```bash",
        "npm run build",
        "```",
      ].join("\n"),
    );
    expect(blocks.map((b) => b.kind)).toEqual(["heading", "paragraph", "table", "list", "code"]);
    expect(blocks[0]).toMatchObject({ level: 1, id: "deploying-sqlite-or-postgresql" });
    expect(blocks[1]).toMatchObject({
      text: [
        { kind: "code", text: "DATABASE_URL" },
        { kind: "text", text: " picks the " },
        { kind: "strong", text: "database" },
        { kind: "text", text: ", see " },
        { kind: "link", text: "the README", href: "../README.md" },
        { kind: "text", text: "." },
      ],
    });
    expect(blocks[2]).toMatchObject({ head: [[{ text: "url" }], [{ text: "database" }]], rows: [[[{ kind: "code", text: "file:x.db" }], [{ text: "SQLite" }]]] });
    expect(blocks[3]).toMatchObject({ ordered: true, items: [[{ text: "first continued" }], [{ text: "second" }]] });
    expect(blocks[4]).toEqual({ kind: "code", lang: "bash", text: "npm run build" });
  });

  it("leaves a lone asterisk and snake_case alone", () => {
    expect(inlineText(parseInline("2 * 3 and plan_actions"))).toBe("2 * 3 and plan_actions");
    expect(parseInline("a *word* here")[1]).toEqual({ kind: "em", text: "word" });
  });

  it("every file in docs/ has a title and a first paragraph", () => {
    const files = fs.readdirSync(docs).filter((f) => f.endsWith(".md"));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const { title, summary } = summarizeMarkdown(fs.readFileSync(path.join(docs, file), "utf8"));
      expect(title, file).not.toBe("");
      expect(summary.length, file).toBeGreaterThan(40);
    }
  });
});
