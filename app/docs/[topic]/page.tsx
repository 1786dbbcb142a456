import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageActor } from "@/app/_lib/page-actor";
import { MarkdownView } from "@/components/docs/markdown-view";
import { inlineText, parseMarkdown } from "@/lib/docs/parse-markdown";
import { findDocSource } from "../find-doc-topics";
import "../../styles/docs.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface DocTopicPageProps {
  params: Promise<{ topic: string }>;
}

async function load(topic: string) {
  const source = await findDocSource(topic);
  if (source === null) return null;
  const blocks = parseMarkdown(source);
  const first = blocks[0];
  const title = first?.kind === "heading" ? inlineText(first.text) : topic;
  return { title, blocks: first?.kind === "heading" ? blocks.slice(1) : blocks };
}

export async function generateMetadata({ params }: DocTopicPageProps): Promise<Metadata> {
  const doc = await load((await params).topic);
  return { title: doc ? doc.title : "Docs" };
}

/** One docs/ file as a page. */
export default async function DocTopicPage({ params }: DocTopicPageProps) {
  await requirePageActor();
  const { topic } = await params;
  const doc = await load(topic);
  if (!doc) notFound();
  return (
    <article className="stack docs-page docs-page--topic">
      <Link href="/docs" className="muted small">
        ← All docs
      </Link>
      <div className="page-heading">
        <h1>{doc.title}</h1>
        <p className="muted small">
          From <code>docs/{topic}.md</code> in the repository.
        </p>
      </div>
      <div className="card docs-body">
        <MarkdownView blocks={doc.blocks} />
      </div>
    </article>
  );
}
