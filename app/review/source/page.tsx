import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { HighlightText } from "@/components/proposals/highlight-text";
import { isAppError } from "@/lib/errors";
import { findDocuments, getGraphRecord } from "@/lib/server/graphs/graph-store";
import "../../styles/review-source.css";
import { requirePageActor } from "@/app/_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const metadata: Metadata = { title: "Evidence source" };

const query = z.object({
  graph: z.string().min(1).max(200),
  doc: z.string().min(1).max(2000),
  line: z.coerce.number().int().min(1).optional(),
  hl: z.array(z.string().max(500)).max(20).default([]),
});

interface SourcePageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * The document behind a piece of evidence, as the graph stored it at import: a source file
 * with the quoted line marked (anchor #L<n>), or a passage with the entity names marked. Only
 * the graph's own stored documents are readable here, never the disk.
 */
export default async function SourcePage({ searchParams }: SourcePageProps) {
  await requirePageActor();
  const raw = await searchParams;
  const parsed = query.safeParse({ ...raw, hl: raw.hl === undefined ? [] : [raw.hl].flat() });
  if (!parsed.success) notFound();
  const { graph, doc, line, hl } = parsed.data;
  let graphId: string;
  try {
    graphId = (await getGraphRecord(graph)).id;
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const [document] = await findDocuments(graphId, [doc]);
  if (!document) notFound();
  const lines = document.text.split(/\r?\n/);
  const isFile = document.kind === "file";
  return (
    <div className="stack stack--tight source-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/review">Review queue</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/graphs/${encodeURIComponent(graph)}`}>{graph}</Link>
        <span aria-hidden="true">/</span>
        <span>evidence source</span>
      </nav>
      <h1 className="mono source-page__title">
        {document.path ?? document.title ?? document.docId}
        {line ? `:${line}` : ""}
      </h1>
      <p className="muted small">
        {isFile ? `${lines.length} lines, as stored when the graph was imported.` : "A passage of the graph’s corpus."} Names the review
        matched are marked.
      </p>
      {isFile ? (
        <div className="card code source-page__code" data-testid="source-document">
          {lines.map((text, i) => (
            <div key={i} id={`L${i + 1}`} className={i + 1 === line ? "code__line is-focus" : "code__line"} aria-current={i + 1 === line ? "true" : undefined}>
              <span className="code__number">{i + 1}</span>
              <code className="code__text">{i + 1 === line ? <HighlightText text={text} terms={hl} /> : text || " "}</code>
            </div>
          ))}
        </div>
      ) : (
        <article className="card passage source-page__passage" data-testid="source-document">
          {document.title ? <h2>{document.title}</h2> : null}
          <p>
            <HighlightText text={document.text} terms={hl} />
          </p>
        </article>
      )}
    </div>
  );
}
