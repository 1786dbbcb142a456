/**
 * A quote with entity names marked. The text is split into plain strings and <mark> spans, so
 * whatever the graph or corpus holds is rendered as text, never as markup.
 */
export function splitHighlights(text: string, terms: readonly string[]): { text: string; isMark: boolean }[] {
  const needles = [...new Set(terms.map((t) => t.trim()).filter((t) => t.length >= 2))].map((t) => t.toLowerCase());
  if (needles.length === 0) return [{ text, isMark: false }];
  const lower = text.toLowerCase();
  const parts: { text: string; isMark: boolean }[] = [];
  let from = 0;
  while (from < text.length) {
    // The earliest match wins; at one position the longest ("Client" inside "AsyncClient" loses).
    let at = -1;
    let length = 0;
    for (const needle of needles) {
      const i = lower.indexOf(needle, from);
      if (i !== -1 && (at === -1 || i < at || (i === at && needle.length > length))) {
        at = i;
        length = needle.length;
      }
    }
    if (at === -1) break;
    if (at > from) parts.push({ text: text.slice(from, at), isMark: false });
    parts.push({ text: text.slice(at, at + length), isMark: true });
    from = at + length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), isMark: false });
  return parts;
}

export function HighlightText({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {splitHighlights(text, terms).map((part, i) => (part.isMark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}
