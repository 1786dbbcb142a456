/**
 * `web_search` over the graph's own corpus first (passages of a bundle, source files of a
 * graphify project), then a configured real web search when the corpus has nothing.
 *
 * The corpus index is a real full-text index (MiniSearch, BM25+), built once per graph and
 * corpus and cached: documents are cut into chunks (a passage is one chunk; long files are cut
 * at blank lines, ~1,200 characters) so that a hit points at a place, and each hit is quoted by
 * its best sentences (those holding the most query terms), verbatim, with the document id.
 */
import MiniSearch from "minisearch";
import { findAncestor } from "../graph/derived-cache";
import type { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import type { CorpusDocument } from "../import/corpus";
import { isStopword } from "../providers/heuristic/text";
import type { AskPassage, WebSearch } from "./types";

export const CORPUS_RESULT_LIMIT = 5;
const CHUNK_CHARS = 1200;
const QUOTE_SENTENCES = 2;
const QUOTE_MAX_CHARS = 500;

interface Chunk {
  id: string;
  docId: string;
  title: string;
  text: string;
}

export interface CorpusIndex {
  readonly signature: string;
  readonly size: number;
  search(query: string, limit?: number): AskPassage[];
}

const cache = new WeakMap<KnowledgeGraph, CorpusIndex>();

function signatureOf(documents: readonly CorpusDocument[]): string {
  let chars = 0;
  for (const d of documents) chars += d.text.length;
  return `${documents.length}/${chars}/${documents[0]?.docId ?? ""}/${documents[documents.length - 1]?.docId ?? ""}`;
}

/** Words of a query or document as the index keeps them: normalised, stopwords out. */
function processTerm(term: string): string | null {
  const t = normalizeLabel(term);
  if (t.length < 2 && !/\d/.test(t)) return null;
  return isStopword(t) ? null : t;
}

function chunksOf(doc: CorpusDocument): Chunk[] {
  const title = doc.title ?? "";
  if (doc.text.length <= CHUNK_CHARS) return [{ id: `${doc.docId}#0`, docId: doc.docId, title, text: doc.text }];
  const out: Chunk[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) out.push({ id: `${doc.docId}#${out.length}`, docId: doc.docId, title, text: current });
    current = "";
  };
  for (const part of doc.text.split(/(\n\s*\n)/)) {
    if (current.length + part.length > CHUNK_CHARS && current.length > 0) flush();
    if (part.length > CHUNK_CHARS) {
      for (let i = 0; i < part.length; i += CHUNK_CHARS) {
        current = part.slice(i, i + CHUNK_CHARS);
        flush();
      }
    } else current += part;
  }
  flush();
  return out;
}

/** Sentences of prose (a capital or digit after `.!?`; an initial like "G." does not end one), lines of code. */
export function splitSentences(text: string): string[] {
  const lines = text.split(/\n+/);
  const out: string[] = [];
  for (const line of lines) {
    for (const s of line.split(/(?<!\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Gen|Col|Lt|Rev|vs|No|Vol|Inc|Ltd|Co)\.)(?<=[\p{Ll}\p{N})"'’”][.!?])\s+(?=[\p{Lu}\p{N}"'“(])/u)) if (s.trim()) out.push(s.trim());
  }
  return out;
}

function quoteOf(text: string, terms: ReadonlySet<string>): string {
  const sentences = splitSentences(text);
  const scored = sentences.map((s, i) => {
    let hits = 0;
    const seen = new Set<string>();
    for (const w of s.split(/[^\p{L}\p{N}]+/u)) {
      const t = processTerm(w);
      if (t && terms.has(t) && !seen.has(t)) {
        seen.add(t);
        hits++;
      }
    }
    return { s, i, hits };
  });
  const best = [...scored].sort((a, b) => b.hits - a.hits || a.i - b.i).slice(0, QUOTE_SENTENCES).filter((x) => x.hits > 0);
  const chosen = (best.length ? best : scored.slice(0, 1)).sort((a, b) => a.i - b.i).map((x) => x.s);
  const quote = chosen.join(" … ");
  return quote.length > QUOTE_MAX_CHARS ? `${quote.slice(0, QUOTE_MAX_CHARS)}…` : quote;
}

function buildIndex(documents: readonly CorpusDocument[], signature: string): CorpusIndex {
  const chunks = documents.flatMap(chunksOf);
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const titles = new Map(documents.map((d) => [d.docId, d.title]));
  const mini = new MiniSearch<Chunk>({
    fields: ["title", "text"],
    idField: "id",
    processTerm,
    searchOptions: {
      boost: { title: 2 },
      // Long words tolerate a typo; short ones must match exactly (fuzzy short words are noise).
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
      combineWith: "OR",
    },
  });
  mini.addAll(chunks);
  return {
    signature,
    size: chunks.length,
    search(query, limit = CORPUS_RESULT_LIMIT) {
      const results = mini.search(query);
      const terms = new Set<string>();
      for (const w of query.split(/[^\p{L}\p{N}]+/u)) {
        const t = processTerm(w);
        if (t) terms.add(t);
      }
      const out: AskPassage[] = [];
      const perDoc = new Set<string>();
      for (const r of results) {
        const chunk = byId.get(String(r.id));
        if (!chunk || perDoc.has(chunk.docId)) continue;
        perDoc.add(chunk.docId);
        for (const t of r.terms) terms.add(t);
        out.push({ docId: chunk.docId, title: titles.get(chunk.docId) ?? null, quote: quoteOf(chunk.text, terms), score: Math.round(r.score * 1000) / 1000, origin: "corpus" });
        if (out.length >= limit) break;
      }
      return out;
    },
  };
}

/** The corpus index of a graph, built on first use and rebuilt when the documents change. */
export function getCorpusIndex({ graph, documents }: { graph: KnowledgeGraph; documents: readonly CorpusDocument[] }): CorpusIndex {
  const signature = signatureOf(documents);
  const hit = cache.get(graph);
  if (hit && hit.signature === signature) return hit;
  // A version advanced from one indexed with the same documents shares its index: it reads the documents only.
  const ancestor = findAncestor(graph, (g) => cache.get(g)?.signature === signature)?.previous;
  const built = (ancestor && cache.get(ancestor)) || buildIndex(documents, signature);
  cache.set(graph, built);
  return built;
}

export interface SearchTextOptions {
  graph: KnowledgeGraph;
  query: string;
  documents?: readonly CorpusDocument[];
  webSearch?: WebSearch;
  limit?: number;
  signal?: AbortSignal;
}

/** Corpus first; the web only when the corpus has no hit (or there is no corpus). */
export async function searchText({ graph, query, documents, webSearch, limit = CORPUS_RESULT_LIMIT, signal }: SearchTextOptions): Promise<AskPassage[]> {
  if (documents && documents.length > 0) {
    const hits = getCorpusIndex({ graph, documents }).search(query, limit);
    if (hits.length > 0) return hits;
  }
  if (!webSearch) return [];
  const results = await webSearch.search(query, { limit, ...(signal ? { signal } : {}) });
  return results.slice(0, limit).map((r, i) => ({ docId: r.url, url: r.url, title: r.title, quote: r.snippet, score: Math.round((1 / (i + 1)) * 1000) / 1000, origin: "web" as const }));
}

/** The text inside <web_information>. */
export function formatPassages(passages: readonly AskPassage[]): string {
  if (passages.length === 0) return "No results.";
  return passages.map((p, i) => `[${i + 1}] (${p.docId}${p.title ? `: ${p.title}` : ""}) ${p.quote}`).join("\n");
}
