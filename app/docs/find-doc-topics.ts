/**
 * The topics of the docs page: the Markdown files in the repository's docs/ folder, read when a
 * page asks (they are the same files the README links to, so the page never goes stale). A
 * deployment without the folder shows the screenshots and no topics.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { summarizeMarkdown } from "@/lib/docs/parse-markdown";

export interface DocTopic {
  /** The file name without `.md`: the page's address, /docs/<slug>. */
  slug: string;
  file: string;
  title: string;
  summary: string;
}

const DOCS_DIR = path.join(process.cwd(), "docs");
const SLUG = /^[a-z0-9][a-z0-9-]*$/;

export async function findDocTopics(): Promise<DocTopic[]> {
  const files = await fs.readdir(DOCS_DIR).catch(() => [] as string[]);
  const topics = await Promise.all(
    files
      .filter((f) => f.endsWith(".md") && SLUG.test(f.slice(0, -3)))
      .sort()
      .map(async (file) => ({ slug: file.slice(0, -3), file: `docs/${file}`, ...summarizeMarkdown(await fs.readFile(path.join(DOCS_DIR, file), "utf8")) })),
  );
  return topics;
}

/** One topic's Markdown, or null when there is no such file (the slug is checked: no path escapes docs/). */
export async function findDocSource(slug: string): Promise<string | null> {
  if (!SLUG.test(slug)) return null;
  return fs.readFile(path.join(DOCS_DIR, `${slug}.md`), "utf8").catch(() => null);
}
