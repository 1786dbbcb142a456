import type { Metadata } from "next";
import Link from "next/link";
import { requirePageActor } from "@/app/_lib/page-actor";
import { findDocTopics } from "./find-doc-topics";
import { SCREENSHOTS, screenshotSrc } from "./screenshots";
import "../styles/docs.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const metadata: Metadata = { title: "Docs" };

/** Help: the README's screenshots with what each shows, and the topics of docs/. */
export default async function DocsPage() {
  await requirePageActor();
  const topics = await findDocTopics();
  return (
    <div className="stack docs-page">
      <div className="page-heading">
        <h1>Docs</h1>
        <p className="muted">
          How Refinery works, screen by screen, and a page per topic. Runs ask questions of a graph and propose changes; people review them in the queue; approved
          changes become versions that can be compared and undone.
        </p>
      </div>

      <section aria-labelledby="docs-screens" className="stack stack--tight">
        <h2 id="docs-screens" className="section-title">
          The main screens
        </h2>
        <ul className="docs-shots" data-testid="docs-screenshots">
          {SCREENSHOTS.map((s) => (
            <li key={s.name} className="card docs-shot">
              <figure>
                <a href={screenshotSrc(s.name, "desktop")} className="docs-shot__image">
                  {/* Static files with known sizes: a plain img (no image optimiser in this app). */}
                  <img src={screenshotSrc(s.name, "desktop")} alt={`${s.title}, on a desktop screen`} width={1440} height={900} loading="lazy" />
                </a>
                <figcaption>
                  <strong>{s.title}.</strong> {s.caption}{" "}
                  <a href={screenshotSrc(s.name, "phone")} className="docs-shot__phone">
                    On a phone
                  </a>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="docs-topics" className="stack stack--tight">
        <h2 id="docs-topics" className="section-title">
          Topics
        </h2>
        {topics.length === 0 ? (
          <p className="muted">This installation has no docs folder; the topics are in the repository&apos;s docs/ files.</p>
        ) : (
          <ul className="docs-topics" data-testid="docs-topics">
            {topics.map((t) => (
              <li key={t.slug} className="card docs-topic">
                <Link href={`/docs/${t.slug}`} className="docs-topic__title">
                  {t.title}
                </Link>
                <p className="muted small">{t.summary.length > 240 ? `${t.summary.slice(0, 239)}…` : t.summary}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
