import Link from "next/link";
import type { ReactNode } from "react";
import type { Block, Inline } from "@/lib/docs/parse-markdown";

/**
 * Where a link in a docs file goes on the docs page: another topic (`approvals.md#x`) to its
 * page, the web to itself; a path into the repository (`../lib/x.ts`) has no page here, so it
 * stays text.
 */
export function docHref(href: string): { href: string; isExternal: boolean } | null {
  if (/^https?:\/\//.test(href)) return { href, isExternal: true };
  if (href.startsWith("#")) return { href, isExternal: false };
  const topic = /^(?:\.\/)?([a-z0-9][a-z0-9-]*)\.md(#[\w-]*)?$/.exec(href);
  if (topic) return { href: `/docs/${topic[1]}${topic[2] ?? ""}`, isExternal: false };
  return null;
}

function InlineView({ parts }: { parts: Inline[] }): ReactNode {
  return parts.map((p, i) => {
    switch (p.kind) {
      case "text":
        return p.text;
      case "code":
        return <code key={i}>{p.text}</code>;
      case "strong":
        return <strong key={i}>{p.text}</strong>;
      case "em":
        return <em key={i}>{p.text}</em>;
      case "link": {
        const target = docHref(p.href);
        if (!target) return <span key={i} title={p.href}>{p.text}</span>;
        return target.isExternal ? (
          <a key={i} href={target.href} rel="noreferrer noopener" target="_blank">
            {p.text}
          </a>
        ) : (
          <Link key={i} href={target.href}>
            {p.text}
          </Link>
        );
      }
    }
  });
}

function BlockView({ block }: { block: Block }): ReactNode {
  switch (block.kind) {
    case "heading": {
      // The page's h1 is the file's title; any other top-level heading reads as a section.
      const Tag = `h${Math.max(block.level, 2)}` as "h2";
      return (
        <Tag id={block.id}>
          <InlineView parts={block.text} />
        </Tag>
      );
    }
    case "code":
      return (
        <pre className="doc__code">
          <code>{block.text}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <InlineView parts={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case "table":
      return (
        <div className="doc__table">
          <table>
            {block.head.length > 0 ? (
              <thead>
                <tr>
                  {block.head.map((c, i) => (
                    <th key={i}>
                      <InlineView parts={c} />
                    </th>
                  ))}
                </tr>
              </thead>
            ) : null}
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((c, i) => (
                    <td key={i}>
                      <InlineView parts={c} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "quote":
      return (
        <blockquote>
          <InlineView parts={block.text} />
        </blockquote>
      );
    case "paragraph":
      return (
        <p>
          <InlineView parts={block.text} />
        </p>
      );
  }
}

/** A docs file rendered from its parsed blocks (text only: nothing from the file is HTML). */
export function MarkdownView({ blocks }: { blocks: Block[] }) {
  return (
    <div className="doc">
      {blocks.map((b, i) => (
        <BlockView key={i} block={b} />
      ))}
    </div>
  );
}
