/**
 * The one name resolver: review, apply and retrieval all turn a name written by a person or an
 * LLM into node ids here, so a name that review accepted is the same node apply touches.
 *
 * Tiers (higher score wins; a node keeps its best tier):
 *   qualified `file::label`  105 / 95 / 85  (exact / without `()`·`.` / normalised label)
 *   exact label              100
 *   node id                   90   below an exact label on purpose: graphify gives a file node
 *                                  the id `client` while the class `Client` lives at
 *                                  `client_client`, and preferring ids flooded the reference tool
 *                                  with false ambiguity
 *   label without `()`/`.`    80
 *   normalised label          70 / 65  (NFKC, case, diacritics; then also without `()`/`.`)
 *   alias                     60 / 55  (exact / normalised)
 *   fuzzy                  10..45  token overlap or prefix, suggestions only, never "exact"
 * Ambiguity is a tie at the top score, never a near miss: the tiers are coarse so that a tie
 * means the name really does not say which node.
 */
import type { GraphNode, KnowledgeGraph } from "./model";
import { normalizeLabel, stripCallSuffix, tokenize } from "./normalize";

export type NameMatchKind = "id" | "qualified" | "label" | "normalized" | "alias" | "fuzzy";

export interface NameCandidate {
  id: string;
  label: string;
  /** `file::label` when that names exactly this node, else the id: safe to hand back to the resolver. */
  qualified: string;
  matchedBy: NameMatchKind;
  score: number;
}

export type ResolutionStatus = "exact" | "ambiguous" | "not_found";

export interface Resolution {
  name: string;
  status: ResolutionStatus;
  /** Set only when status is "exact"; for "ambiguous" the ranked candidates are the answer. */
  best?: NameCandidate;
  /**
   * Ranked best first. Every candidate of the top tier is included even beyond `limit` (they
   * are the ambiguity a reviewer must see); other tiers fill up to `limit`. For "not_found"
   * these are fuzzy suggestions.
   */
  candidates: NameCandidate[];
}

export interface ResolveNameOptions {
  graph: KnowledgeGraph;
  name: string;
  /** Maximum candidates beyond the top tier (default 10). */
  limit?: number;
}

const SCORE = {
  qualifiedLabel: 105,
  label: 100,
  qualifiedStripped: 95,
  id: 90,
  qualifiedNormalized: 85,
  stripped: 80,
  normalized: 70,
  normalizedStripped: 65,
  alias: 60,
  aliasNormalized: 55,
} as const;

const FUZZY_MIN = 10;
const FUZZY_MAX = 45;

interface Match {
  node: GraphNode;
  matchedBy: NameMatchKind;
  score: number;
  /** The label (without `()`/`.`) equals the name case-sensitively: the tie-break people expect. */
  caseExact: boolean;
}

export function resolveName({ graph, name, limit = 10 }: ResolveNameOptions): Resolution {
  const wanted = name.trim();
  if (wanted === "") return { name, status: "not_found", candidates: [] };

  const matches = new Map<string, Match>();
  const keep = (m: Match) => {
    const prev = matches.get(m.node.id);
    if (!prev || m.score > prev.score) matches.set(m.node.id, m);
  };

  const byId = graph.getNode(wanted);
  if (byId) keep({ node: byId, matchedBy: "id", score: SCORE.id, caseExact: byId.label === wanted });
  for (const m of labelMatches(graph, wanted)) keep(m);
  for (const m of qualifiedMatches(graph, wanted)) keep(m);

  // Fuzzy only when nothing matched: it is an O(nodes) scan, and beside a real match a
  // near-miss would only be noise.
  if (matches.size === 0) for (const m of fuzzyMatches(graph, wanted)) keep(m);

  const ranked = [...matches.values()].sort((a, b) => compareMatches(graph, a, b));
  const top = ranked[0];
  if (!top) return { name, status: "not_found", candidates: [] };

  const topTier = ranked.filter((m) => m.score === top.score);
  const shown = ranked.slice(0, Math.max(topTier.length, limit));
  const candidates = shown.map(
    (m): NameCandidate => ({
      id: m.node.id,
      label: m.node.label,
      qualified: qualifiedName(graph, m.node.id),
      matchedBy: m.matchedBy,
      score: m.score,
    }),
  );
  if (top.matchedBy === "fuzzy") return { name, status: "not_found", candidates };
  if (topTier.length > 1) return { name, status: "ambiguous", candidates };
  const best = candidates[0];
  return best ? { name, status: "exact", best, candidates } : { name, status: "not_found", candidates };
}

function compareMatches(graph: KnowledgeGraph, a: Match, b: Match): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.caseExact !== b.caseExact) return a.caseExact ? -1 : 1;
  const da = graph.degree(a.node.id);
  const db = graph.degree(b.node.id);
  if (da !== db) return db - da;
  return a.node.id < b.node.id ? -1 : a.node.id > b.node.id ? 1 : 0;
}

/**
 * Nodes whose label or alias matches `name` at some label tier. The graph's normalised-label
 * index is probed with the `()`/`.` variants of the name, so no scan is needed: every label tier
 * implies equality of the normalised forms up to those affixes.
 */
function labelMatches(graph: KnowledgeGraph, name: string): Match[] {
  const norm = normalizeLabel(name);
  const bare = stripCallSuffix(norm);
  const rawBare = stripCallSuffix(name);
  const ids = new Set<string>();
  for (const key of new Set([norm, bare, `${bare}()`, `.${bare}`, `.${bare}()`])) {
    for (const id of graph.idsByNormLabel(key)) ids.add(id);
  }
  const out: Match[] = [];
  for (const id of ids) {
    const node = graph.getNode(id);
    if (!node) continue;
    const caseExact = stripCallSuffix(node.label) === rawBare;
    const label = labelTier(node.label, node.normLabel, name, norm, bare);
    if (label) {
      out.push({ node, caseExact, ...label });
      continue;
    }
    for (const alias of node.aliases) {
      if (alias === name) out.push({ node, caseExact, matchedBy: "alias", score: SCORE.alias });
      else {
        const an = normalizeLabel(alias);
        if (an === norm || stripCallSuffix(an) === bare) {
          out.push({ node, caseExact, matchedBy: "alias", score: SCORE.aliasNormalized });
        }
      }
    }
  }
  return out;
}

function labelTier(
  label: string,
  normLabel: string,
  name: string,
  norm: string,
  bare: string,
): { matchedBy: NameMatchKind; score: number } | null {
  if (label === name) return { matchedBy: "label", score: SCORE.label };
  if (stripCallSuffix(label) === stripCallSuffix(name)) return { matchedBy: "label", score: SCORE.stripped };
  if (normLabel === norm) return { matchedBy: "normalized", score: SCORE.normalized };
  if (stripCallSuffix(normLabel) === bare) return { matchedBy: "normalized", score: SCORE.normalizedStripped };
  return null;
}

/** `file::label` at every `::` (labels such as `std::vector` contain one too). */
function qualifiedMatches(graph: KnowledgeGraph, name: string): Match[] {
  const out: Match[] = [];
  for (let i = name.indexOf("::"); i !== -1; i = name.indexOf("::", i + 1)) {
    const file = name.slice(0, i).trim();
    const label = name.slice(i + 2).trim();
    if (!file || !label) continue;
    for (const m of labelMatches(graph, label)) {
      if (m.matchedBy === "alias" || !m.node.sourceFile || !fileMatches(m.node.sourceFile, file)) continue;
      const score =
        m.score === SCORE.label
          ? SCORE.qualifiedLabel
          : m.score === SCORE.stripped
            ? SCORE.qualifiedStripped
            : SCORE.qualifiedNormalized;
      out.push({ ...m, matchedBy: "qualified", score });
    }
  }
  return out;
}

function normPath(path: string): string {
  return path.replace(/\\/g, "/").replace(/^\.\//, "").toLowerCase();
}

function withoutExtension(path: string): string {
  return path.replace(/\.[^./]+$/, "");
}

/**
 * Whether `file` names `sourceFile`: the whole path or a trailing run of path segments, with or
 * without the extension. graphify paths carry machine-specific prefixes (`worked/…`,
 * `/home/…`), so people and LLMs write a suffix.
 */
export function fileMatches(sourceFile: string, file: string): boolean {
  const sf = normPath(sourceFile);
  const q = normPath(file.trim());
  if (!q) return false;
  if (sf === q || sf.endsWith(`/${q}`)) return true;
  const bare = withoutExtension(sf);
  return bare === q || bare.endsWith(`/${q}`);
}

/**
 * The shortest `path-suffix::label` that the resolver maps back to exactly this node, or the id
 * when none does (same label twice in one file, or no source file).
 */
export function qualifiedName(graph: KnowledgeGraph, id: string): string {
  const node = graph.getNode(id);
  if (!node?.sourceFile) return id;
  const sameLabel: GraphNode[] = [];
  for (const otherId of graph.idsByNormLabel(node.normLabel)) {
    const other = graph.getNode(otherId);
    if (other && other.label === node.label && other.sourceFile) sameLabel.push(other);
  }
  const parts = node.sourceFile.replace(/\\/g, "/").split("/");
  for (let k = 1; k <= parts.length; k++) {
    const suffix = parts.slice(-k).join("/");
    if (!suffix) continue;
    const hits = sameLabel.filter((n) => n.sourceFile !== null && fileMatches(n.sourceFile, suffix));
    if (hits.length === 1 && hits[0]?.id === id) return `${suffix}::${node.label}`;
  }
  return id;
}

/**
 * Words of an identifier or label: camelCase, PascalCase, ACRONYMCase and snake_case split,
 * lower-cased and diacritics stripped (`HTTPTransport` → http, transport; `_build_request` →
 * build, request). Shared with retrieval so both index labels the same way.
 */
export function identifierWords(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2");
  const out: string[] = [];
  for (const token of tokenize(spaced)) {
    for (const part of token.split("_")) if (part) out.push(part);
  }
  return out;
}

function fuzzyMatches(graph: KnowledgeGraph, name: string): Match[] {
  const bare = stripCallSuffix(normalizeLabel(name));
  const words = [...new Set(identifierWords(name).filter((w) => w.length > 2))];
  if (bare.length < 2 && words.length === 0) return [];
  const rawBare = stripCallSuffix(name);
  const out: Match[] = [];
  for (const node of graph.nodes.values()) {
    const n = node.normLabel;
    // stripCallSuffix only where it can change something: this loop visits every node.
    const label = n.endsWith(")") || n.startsWith(".") ? stripCallSuffix(n) : n;
    const prefix =
      (bare.length >= 2 && label.startsWith(bare)) || (label.length >= 3 && bare.startsWith(label));
    let shared = 0;
    for (const w of words) if (label.includes(w)) shared += w.length;
    if (!prefix && shared === 0) continue;
    const overlap = Math.max(prefix ? Math.min(bare.length, label.length) : 0, shared) / Math.max(bare.length, label.length, 1);
    const score = Math.min(FUZZY_MAX, Math.round((FUZZY_MIN + 30 * overlap + (prefix ? 5 : 0)) * 100) / 100);
    out.push({ node, matchedBy: "fuzzy", score, caseExact: stripCallSuffix(node.label) === rawBare });
  }
  return out;
}
