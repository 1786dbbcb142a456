"use client";

import { useEffect, useRef } from "react";
import type { NodeSource } from "../api/types";
import { displayText, neutraliseBidi } from "@/lib/text/display-text";

/** Past this a label is no useful search term (and a 100k-character one would cost a scan per passage). */
const MAX_HIGHLIGHT = 200;

/** Split `text` around case-insensitive occurrences of `term`, for <mark> (rendered as text). */
function highlight(text: string, term: string): (string | { mark: string })[] {
  const needle = term.replace(/^\.|\(\)$/g, "").trim();
  if (needle.length < 2 || needle.length > MAX_HIGHLIGHT) return [text];
  const lower = text.toLowerCase();
  const target = needle.toLowerCase();
  const parts: (string | { mark: string })[] = [];
  let from = 0;
  for (let i = lower.indexOf(target); i !== -1; i = lower.indexOf(target, from)) {
    if (i > from) parts.push(text.slice(from, i));
    parts.push({ mark: text.slice(i, i + target.length) });
    from = i + target.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

export function SourceView({ source, label }: { source: NodeSource; label: string }) {
  const codeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Centre the highlighted line inside the code box without scrolling the page itself.
    const box = codeRef.current;
    const focus = box?.querySelector<HTMLElement>(".code__line.is-focus");
    if (box && focus) box.scrollTop = focus.offsetTop - box.clientHeight / 2 + focus.clientHeight / 2;
  }, [source]);

  if (source.kind === "none") return <p className="muted small">{source.reason}.</p>;

  if (source.kind === "passages") {
    return (
      <div className="passages" data-testid="source-passages">
        {source.passages.map((p) => (
          <article key={p.docId} className="passage">
            <h4>
              {displayText(p.title ?? p.docId)} <span className="mono muted small">{displayText(p.docId)}</span>
            </h4>
            <p>
              {highlight(p.text, label).map((part, i) =>
                typeof part === "string" ? part : <mark key={i}>{part.mark}</mark>,
              )}
            </p>
          </article>
        ))}
      </div>
    );
  }

  const focusLine = source.lines.find((l) => l.isFocus)?.number;
  const where = `${source.path ?? source.docId}${focusLine ? `:${focusLine}` : ""}`;
  return (
    <div className="source" data-testid="source-file">
      <div className="source__head">
        <span className="mono" title={source.docId}>
          {where}
        </span>
        <span className="muted small">{source.totalLines} lines</span>
      </div>
      <div className="code" ref={codeRef}>
        {source.lines.map((line) => (
          <div
            key={line.number}
            className={line.isFocus ? "code__line is-focus" : "code__line"}
            data-line={line.number}
            aria-current={line.isFocus && line.number === focusLine ? "true" : undefined}
          >
            <span className="code__number">{line.number}</span>
            {/* Bidi controls in code reorder what a reader sees ("Trojan Source"): shown as markers. */}
            <code className="code__text">{neutraliseBidi(line.text) || " "}</code>
          </div>
        ))}
      </div>
    </div>
  );
}
