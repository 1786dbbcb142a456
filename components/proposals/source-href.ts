import type { EvidenceItem } from "../api/proposal-types";

/** Where a piece of evidence comes from, as a link to the stored document (file at its line, or the passage). */
export function sourceHref(graph: string, item: EvidenceItem): string | null {
  const source = item.source;
  if (!source) return null;
  const params = new URLSearchParams({ graph, doc: source.docId });
  if (source.line) params.set("line", String(source.line));
  for (const h of item.highlights ?? []) params.append("hl", h);
  return `/review/source?${params.toString()}${source.line ? `#L${source.line}` : ""}`;
}

export function sourceText(item: EvidenceItem): string {
  const s = item.source;
  if (!s) return "";
  if (s.path) return `${s.path}${s.line ? `:${s.line}` : ""}`;
  return s.title ? `${s.title} (${s.docId})` : s.docId;
}
