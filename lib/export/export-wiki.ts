/**
 * KnowledgeGraph → a markdown wiki in the shape of graphify's `graphify export wiki`:
 *
 *   index.md                 title, version, totals, communities by size, hub nodes,
 *                            relation counts, confidence audit (EXTRACTED/INFERRED/AMBIGUOUS)
 *   communities/<slug>.md    one per community: size, key concepts, cross-community links,
 *                            source files, members, confidence audit
 *   nodes/<slug>.md          one per hub node: identity, source, connections by relation
 *
 * Graphs without communities (triple files) are grouped by connected component instead, and the
 * index says so. Nodes without a community in a graph that has communities form one
 * "No community" group.
 *
 * Pure and deterministic: the same graph gives the same bytes (explicit sort orders with
 * code-unit comparison, no locale, no clock). Every label goes through `escapeMarkdown`, so a
 * label holding `|`, `*`, `[`, `]`, backticks, newlines or `<script>` cannot break a table or
 * a link and no raw HTML is emitted. Slugs are `[a-z0-9-]` only, unique per folder. Output is
 * bounded for huge graphs: at most `communityLimit` community pages and fixed caps per section,
 * each cut announced with "and N more".
 */
import type { Community, GraphEdge, GraphNode, KnowledgeGraph } from "../graph/model";
import { qualifiedName } from "../graph/resolve-name";
import { plural } from "../text/plural";

export interface BuildWikiOptions {
  graph: KnowledgeGraph;
  /** Shown as the index heading. */
  title: string;
  /** Graph version (e.g. the changeset number), shown under the title when given. */
  version?: string | number;
  /** Number of source documents the graph was built from, shown in the totals when given. */
  documents?: number;
  /** How many hub nodes get a page (default 20). */
  hubLimit?: number;
  /** How many communities (largest first) get a page (default 300). */
  communityLimit?: number;
  /**
   * Whether a source file's own node (label = the file's name, e.g. `client.py`) may be a hub.
   * Default false, as in graphify's report: file nodes are hubs by construction (`contains`).
   */
  hubsIncludeFiles?: boolean;
}

export interface WikiFile {
  /** Relative path with `/` separators: `index.md`, `communities/<slug>.md`, `nodes/<slug>.md`. */
  path: string;
  content: string;
}

export interface Wiki {
  files: WikiFile[];
}

export const DEFAULT_HUB_LIMIT = 20;
export const DEFAULT_COMMUNITY_LIMIT = 300;

const KEY_CONCEPTS = 15;
const MEMBERS_LIMIT = 200;
const CROSS_LIMIT = 30;
const CROSS_EXAMPLES = 3;
const SOURCE_FILES_LIMIT = 40;
const RELATIONS_LIMIT = 100;
const CONNECTIONS_PER_LIST = 25;
const AMBIGUOUS_LIST = 20;
const LABEL_MAX = 160;
const SLUG_MAX = 60;
const AUDIT_LEVELS = ["EXTRACTED", "INFERRED", "AMBIGUOUS"] as const;
const NO_CONFIDENCE = "(none)";

// ---------------------------------------------------------------------------------------------
// Text safety

/**
 * Label text → inline markdown that renders as exactly that text: one line, no raw HTML
 * (`<`, `>`, `&` become entities), markdown punctuation backslash-escaped (table pipes
 * included), an intra-word `_` left alone (it can never start emphasis), and a leading
 * list/heading marker neutralised. Long labels are cut at 160 characters with "…".
 */
export function escapeMarkdown(text: string): string {
  const chars = [...sanitize(text)];
  const clipped = chars.length > LABEL_MAX ? [...chars.slice(0, LABEL_MAX - 1), "…"] : chars;
  let out = "";
  for (let i = 0; i < clipped.length; i++) {
    const c = clipped[i] as string;
    switch (c) {
      case "&":
        out += "&amp;";
        break;
      case "<":
        out += "&lt;";
        break;
      case ">":
        out += "&gt;";
        break;
      case "_": {
        const intraWord = isAlnum(clipped[i - 1]) && isAlnum(clipped[i + 1]);
        out += intraWord ? "_" : "\\_";
        break;
      }
      case "\\":
      case "`":
      case "*":
      case "[":
      case "]":
      case "|":
      case "~":
      case "#":
        out += `\\${c}`;
        break;
      default:
        out += c;
    }
  }
  // A line that starts with `-`, `+`, `=` or `1.` would turn into a list or a heading.
  if (/^[-+=]/.test(out)) return `\\${out}`;
  return out.replace(/^(\d+)([.)])/, "$1\\$2");
}

/** One line of printable text: control characters and line breaks become spaces, bidi overrides go. */
function sanitize(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]/gu, " ")
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && /^[\p{L}\p{N}]$/u.test(c);
}

/** Deterministic, filesystem-safe base slug: ASCII lower-case letters, digits and `-`, never empty. */
export function wikiSlug(text: string, fallback = "page"): string {
  const slug = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[øæœßđłþ]/g, (c) => TRANSLITERATE[c] ?? c)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
  return slug === "" ? fallback : slug;
}

/** Latin letters that do not decompose into a base letter and a mark. */
const TRANSLITERATE: Record<string, string> = { ø: "o", æ: "ae", œ: "oe", ß: "ss", đ: "d", ł: "l", þ: "th" };

/** Names Windows will not create whatever the extension: treated as taken. */
const RESERVED_SLUGS = ["con", "prn", "aux", "nul", ...range(1, 9).flatMap((n) => [`com${n}`, `lpt${n}`]), "index"];

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

/**
 * Hands out unique slugs in call order: the first free slug among the texts' slugs, else the
 * first one suffixed `-2`, `-3`, …
 */
class SlugAllocator {
  private readonly used = new Set<string>(RESERVED_SLUGS);

  take(texts: string[], fallback: string): string {
    const slugs = texts.filter((t) => t.trim() !== "").map((t) => wikiSlug(t, fallback));
    const free = slugs.find((s) => !this.used.has(s));
    if (free !== undefined) {
      this.used.add(free);
      return free;
    }
    const base = slugs[0] ?? fallback;
    let slug = base;
    for (let n = 2; this.used.has(slug); n++) slug = `${base}-${n}`;
    this.used.add(slug);
    return slug;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "0.0%" : `${((100 * part) / whole).toFixed(1)}%`;
}

function row(cells: (string | number)[]): string {
  return `| ${cells.map(String).join(" | ")} |`;
}

// ---------------------------------------------------------------------------------------------
// Groups (communities, or connected components when the graph has none)

type GroupKind = "community" | "component" | "unassigned";

interface Group {
  key: string;
  kind: GroupKind;
  value: Community;
  /** Plain text name; escape before writing. */
  name: string;
  members: GraphNode[];
  slug: string | null;
  internalEdges: number;
  crossing: Map<string, CrossLink>;
  confidence: Map<string, number>;
  ambiguous: GraphEdge[];
}

interface CrossLink {
  other: Group;
  count: number;
  /** Best examples so far, highest score first. */
  examples: { edge: GraphEdge; score: number }[];
}

function communityKey(value: Community): string {
  return value === null ? "none" : typeof value === "number" ? `n:${value}` : `s:${value}`;
}

function newGroup(key: string, kind: GroupKind, value: Community, name: string): Group {
  return { key, kind, value, name, members: [], slug: null, internalEdges: 0, crossing: new Map(), confidence: new Map(), ambiguous: [] };
}

function communityName(value: Community): string {
  if (typeof value === "number") return `Community ${value}`;
  if (value === null || sanitize(value) === "") return "Community (unnamed)";
  return value;
}

function buildGroups(graph: KnowledgeGraph): { groups: Group[]; groupOf: Map<string, Group>; byComponent: boolean } {
  const groupOf = new Map<string, Group>();
  const byKey = new Map<string, Group>();
  let hasCommunities = false;
  for (const node of graph.nodes.values()) if (node.community !== null) hasCommunities = true;

  if (hasCommunities) {
    for (const node of graph.nodes.values()) {
      const key = communityKey(node.community);
      let group = byKey.get(key);
      if (!group) {
        group =
          node.community === null
            ? newGroup(key, "unassigned", null, "No community")
            : newGroup(key, "community", node.community, communityName(node.community));
        byKey.set(key, group);
      }
      group.members.push(node);
      groupOf.set(node.id, group);
    }
  } else {
    // Weakly connected components by union-find, numbered by size then first appearance.
    const index = new Map<string, number>();
    const ids: string[] = [];
    for (const id of graph.nodes.keys()) {
      index.set(id, ids.length);
      ids.push(id);
    }
    const parent = ids.map((_, i) => i);
    const find = (i: number): number => {
      let r = i;
      while (parent[r] !== r) r = parent[r] as number;
      while (parent[i] !== r) {
        const next = parent[i] as number;
        parent[i] = r;
        i = next;
      }
      return r;
    };
    for (const e of graph.edges.values()) {
      const a = find(index.get(e.source) as number);
      const b = find(index.get(e.target) as number);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
    const byRoot = new Map<number, GraphNode[]>();
    ids.forEach((id, i) => {
      const root = find(i);
      let list = byRoot.get(root);
      if (!list) byRoot.set(root, (list = []));
      list.push(graph.nodes.get(id) as GraphNode);
    });
    const components = [...byRoot.values()].sort((a, b) => b.length - a.length); // stable: first appearance
    components.forEach((members, i) => {
      const group = newGroup(`c:${i + 1}`, "component", null, `Component ${i + 1}`);
      group.members = members;
      for (const node of members) groupOf.set(node.id, group);
      byKey.set(group.key, group);
    });
  }

  const groups = [...byKey.values()].sort(compareGroups);
  return { groups, groupOf, byComponent: !hasCommunities };
}

function compareGroups(a: Group, b: Group): number {
  if (a.members.length !== b.members.length) return b.members.length - a.members.length;
  const rank = (g: Group) => (g.kind === "unassigned" ? 2 : typeof g.value === "string" ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a.value === "number" && typeof b.value === "number") return a.value - b.value;
  return cmp(a.key, b.key);
}

// ---------------------------------------------------------------------------------------------
// Statistics

function confidenceOf(edge: GraphEdge): string {
  const c = edge.attrs.confidence;
  return typeof c === "string" && sanitize(c) !== "" ? sanitize(c) : NO_CONFIDENCE;
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

interface Stats {
  relations: Map<string, number>;
  confidence: Map<string, number>;
}

function collectStats(graph: KnowledgeGraph, groupOf: Map<string, Group>, degree: (id: string) => number): Stats {
  const relations = new Map<string, number>();
  const confidence = new Map<string, number>();
  for (const edge of graph.edges.values()) {
    bump(relations, edge.relation);
    const conf = confidenceOf(edge);
    bump(confidence, conf);
    const gs = groupOf.get(edge.source);
    const gt = groupOf.get(edge.target);
    if (!gs || !gt) continue;
    bump(gs.confidence, conf);
    if (conf === "AMBIGUOUS" && gs.ambiguous.length < AMBIGUOUS_LIST) gs.ambiguous.push(edge);
    if (gs === gt) {
      gs.internalEdges++;
      continue;
    }
    bump(gt.confidence, conf);
    if (conf === "AMBIGUOUS" && gt.ambiguous.length < AMBIGUOUS_LIST) gt.ambiguous.push(edge);
    const score = degree(edge.source) + degree(edge.target);
    addCrossing(gs, gt, edge, score);
    addCrossing(gt, gs, edge, score);
  }
  return { relations, confidence };
}

function addCrossing(from: Group, to: Group, edge: GraphEdge, score: number): void {
  let link = from.crossing.get(to.key);
  if (!link) from.crossing.set(to.key, (link = { other: to, count: 0, examples: [] }));
  link.count++;
  const ex = link.examples;
  // Keep the top examples by score; an equal score keeps the earlier edge.
  if (ex.length < CROSS_EXAMPLES || score > (ex[ex.length - 1] as { score: number }).score) {
    let i = ex.length;
    while (i > 0 && (ex[i - 1] as { score: number }).score < score) i--;
    ex.splice(i, 0, { edge, score });
    if (ex.length > CROSS_EXAMPLES) ex.pop();
  }
}

function sortedCounts(map: Map<string, number>): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
}

/** A source file's own node: its label is the file's name (`client.py` for `…/client.py`). */
function isFileNode(node: GraphNode): boolean {
  if (!node.sourceFile) return false;
  const base = node.sourceFile.replace(/\\/g, "/").split("/").pop();
  return base === node.label;
}

// ---------------------------------------------------------------------------------------------
// Rendering

function limit(value: number | undefined, fallback: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return Math.max(0, Math.floor(value));
}

export function buildWiki(options: BuildWikiOptions): Wiki {
  const { graph } = options;
  const hubLimit = limit(options.hubLimit, DEFAULT_HUB_LIMIT);
  const communityLimit = limit(options.communityLimit, DEFAULT_COMMUNITY_LIMIT);

  const degrees = new Map<string, number>();
  for (const id of graph.nodes.keys()) degrees.set(id, graph.degree(id));
  const degree = (id: string) => degrees.get(id) ?? 0;
  const byDegree = (a: GraphNode, b: GraphNode) => degree(b.id) - degree(a.id) || cmp(a.label, b.label) || cmp(a.id, b.id);

  const { groups, groupOf, byComponent } = buildGroups(graph);
  const stats = collectStats(graph, groupOf, degree);

  const paged = groups.slice(0, communityLimit);
  const groupSlugs = new SlugAllocator();
  for (const g of paged) g.slug = groupSlugs.take([g.name], g.kind === "component" ? "component" : "community");

  const hubs = [...graph.nodes.values()]
    .filter((n) => degree(n.id) > 0 && (options.hubsIncludeFiles === true || !isFileNode(n)))
    .sort(byDegree)
    .slice(0, hubLimit);
  const nodeSlugs = new SlugAllocator();
  const hubSlug = new Map<string, string>();
  for (const n of hubs) hubSlug.set(n.id, nodeSlugs.take([n.label, qualifiedName(graph, n.id), n.id], "node"));

  const ctx: Ctx = { graph, degree, byDegree, groupOf, hubSlug };
  const files: WikiFile[] = [
    { path: "index.md", content: renderIndex(options, ctx, { groups, paged, hubs, stats, byComponent, communityLimit, hubLimit }) },
  ];
  for (const g of paged) files.push({ path: `communities/${g.slug}.md`, content: renderGroup(ctx, g) });
  for (const n of hubs) files.push({ path: `nodes/${hubSlug.get(n.id)}.md`, content: renderNode(ctx, n) });
  return { files };
}

interface Ctx {
  graph: KnowledgeGraph;
  degree: (id: string) => number;
  byDegree: (a: GraphNode, b: GraphNode) => number;
  groupOf: Map<string, Group>;
  hubSlug: Map<string, string>;
}

/** The folder of the page that holds a link: `root` for index.md. */
type Folder = "root" | "communities" | "nodes";

function href(from: Folder, to: "communities" | "nodes", slug: string): string {
  if (from === "root") return `${to}/${slug}.md`;
  return from === to ? `${slug}.md` : `../${to}/${slug}.md`;
}

function indexHref(from: Folder): string {
  return from === "root" ? "index.md" : "../index.md";
}

function groupLink(g: Group | undefined, from: Folder): string {
  if (!g) return "";
  const name = escapeMarkdown(g.name);
  return g.slug === null ? name : `[${name}](${href(from, "communities", g.slug)})`;
}

function nodeText(node: GraphNode): string {
  return escapeMarkdown(sanitize(node.label) === "" ? node.id : node.label);
}

/** The node's label, linked to its page when it has one (never to the page it is on). */
function nodeLink(ctx: Ctx, node: GraphNode, from: Folder, self?: string): string {
  const slug = ctx.hubSlug.get(node.id);
  return slug === undefined || node.id === self ? nodeText(node) : `[${nodeText(node)}](${href(from, "nodes", slug)})`;
}

function sourceText(node: GraphNode): string {
  if (!node.sourceFile) return "";
  return escapeMarkdown(node.sourceLocation ? `${node.sourceFile}:${node.sourceLocation}` : node.sourceFile);
}

function tripleText(ctx: Ctx, edge: GraphEdge, from: Folder, self?: string): string {
  const s = ctx.graph.getNode(edge.source);
  const t = ctx.graph.getNode(edge.target);
  const sText = s ? nodeLink(ctx, s, from, self) : escapeMarkdown(edge.source);
  const tText = t ? nodeLink(ctx, t, from, self) : escapeMarkdown(edge.target);
  return `${sText} —${escapeMarkdown(edge.relation)}→ ${tText}`;
}

function more(shown: number, total: number, what: string): string[] {
  return total > shown ? [`- … and ${total - shown} more ${what}`] : [];
}

function auditTable(counts: Map<string, number>, total: number): string[] {
  const lines = [row(["Confidence", "Edges", "Share"]), "| --- | ---: | ---: |"];
  for (const level of AUDIT_LEVELS) lines.push(row([level, counts.get(level) ?? 0, percent(counts.get(level) ?? 0, total)]));
  const others = sortedCounts(counts).filter(([k]) => !(AUDIT_LEVELS as readonly string[]).includes(k));
  for (const [k, n] of others) lines.push(row([escapeMarkdown(k), n, percent(n, total)]));
  return lines;
}

interface IndexParts {
  groups: Group[];
  paged: Group[];
  hubs: GraphNode[];
  stats: Stats;
  byComponent: boolean;
  communityLimit: number;
  hubLimit: number;
}

function renderIndex(options: BuildWikiOptions, ctx: Ctx, parts: IndexParts): string {
  const { graph } = ctx;
  const { groups, paged, hubs, stats, byComponent } = parts;
  const unit = byComponent ? "Component" : "Community";
  const realCommunities = groups.filter((g) => g.kind === "community").length;
  const out: string[] = [`# ${escapeMarkdown(options.title) || "Knowledge graph"}`, ""];
  if (options.version !== undefined) out.push(`Version: ${escapeMarkdown(String(options.version))}`, "");
  out.push("Generated by Refinery from the knowledge graph. Edges are shown in stored direction, subject —relation→ object.", "");

  out.push("## Totals", "", row(["", "Count"]), "| --- | ---: |");
  out.push(row(["Nodes", graph.nodes.size]), row(["Edges", graph.edges.size]), row(["Communities", realCommunities]));
  if (byComponent) out.push(row(["Connected components", groups.length]));
  if (options.documents !== undefined) out.push(row(["Documents", options.documents]));
  out.push(row(["Relations", stats.relations.size]), "");

  out.push(`## ${byComponent ? "Connected components" : "Communities"}`, "");
  if (graph.nodes.size === 0) out.push("The graph is empty.", "");
  else {
    if (byComponent) {
      out.push("This graph has no community assignments, so nodes are grouped by connected component instead.", "");
    }
    out.push(row([unit, "Nodes", "Edges inside", "Edges out", "Key concepts"]), "| --- | ---: | ---: | ---: | --- |");
    for (const g of paged) {
      const crossing = [...g.crossing.values()].reduce((s, l) => s + l.count, 0);
      const top = [...g.members].sort(ctx.byDegree).slice(0, 3).map(nodeText).join(", ");
      out.push(row([groupLink(g, "root"), g.members.length, g.internalEdges, crossing, top]));
    }
    const rest = groups.slice(paged.length);
    if (rest.length > 0) {
      const nodes = rest.reduce((s, g) => s + g.members.length, 0);
      const largest = rest[0]?.members.length ?? 0;
      out.push(
        "",
        `Only the ${plural(paged.length, unit.toLowerCase(), byComponent ? "components" : "communities")} with the most nodes have a page; ` +
          `${rest.length} more (${plural(nodes, "node")} in all, at most ${largest} each) are not listed.`,
      );
    }
    out.push("");
  }

  out.push("## Hub nodes", "");
  if (hubs.length === 0) out.push("No hub nodes.", "");
  else {
    out.push(
      `The ${plural(hubs.length, "most connected node")}${options.hubsIncludeFiles ? "" : " (a source file's own node is not counted)"}.`,
      "",
      row(["Node", "Degree", unit, "Source"]),
      "| --- | ---: | --- | --- |",
    );
    for (const n of hubs) out.push(row([nodeLink(ctx, n, "root"), ctx.degree(n.id), groupLink(ctx.groupOf.get(n.id), "root"), sourceText(n)]));
    out.push("");
  }

  out.push("## Relations", "");
  const relations = sortedCounts(stats.relations);
  if (relations.length === 0) out.push("No edges.", "");
  else {
    out.push(row(["Relation", "Edges", "Share"]), "| --- | ---: | ---: |");
    for (const [rel, n] of relations.slice(0, RELATIONS_LIMIT)) out.push(row([escapeMarkdown(rel), n, percent(n, graph.edges.size)]));
    if (relations.length > RELATIONS_LIMIT) out.push("", `… and ${relations.length - RELATIONS_LIMIT} more relations.`);
    out.push("");
  }

  out.push("## Confidence audit", "", ...auditTable(stats.confidence, graph.edges.size), "");
  return out.join("\n");
}

function renderGroup(ctx: Ctx, g: Group): string {
  const n = g.members.length;
  const crossTotal = [...g.crossing.values()].reduce((s, l) => s + l.count, 0);
  const possible = (n * (n - 1)) / 2;
  const out: string[] = [`# ${escapeMarkdown(g.name)}`, "", `[← Index](${indexHref("communities")})`, ""];
  out.push(
    `- Nodes: ${n}`,
    `- Edges inside: ${g.internalEdges}`,
    `- Edges to other ${g.kind === "component" ? "groups" : "communities"}: ${crossTotal}`,
    `- Cohesion (edges inside / node pairs): ${possible === 0 ? "0.00" : (g.internalEdges / possible).toFixed(2)}`,
    "",
  );

  const sorted = [...g.members].sort(ctx.byDegree);
  out.push("## Key concepts", "", row(["Node", "Degree", "Source"]), "| --- | ---: | --- |");
  for (const m of sorted.slice(0, KEY_CONCEPTS)) out.push(row([nodeLink(ctx, m, "communities"), ctx.degree(m.id), sourceText(m)]));
  out.push("");

  out.push("## Cross-community links", "");
  const links = [...g.crossing.values()].sort((a, b) => b.count - a.count || compareGroups(a.other, b.other));
  if (links.length === 0) out.push(`No edges leave this ${g.kind === "component" ? "component" : "community"}.`, "");
  else {
    out.push(row(["Community", "Edges", "Examples"]), "| --- | ---: | --- |");
    for (const l of links.slice(0, CROSS_LIMIT)) {
      const examples = l.examples.map((x) => tripleText(ctx, x.edge, "communities")).join("; ");
      out.push(row([groupLink(l.other, "communities"), l.count, examples]));
    }
    if (links.length > CROSS_LIMIT) out.push("", `… and ${links.length - CROSS_LIMIT} more communities.`);
    out.push("");
  }

  out.push("## Source files", "");
  const filesCount = new Map<string, number>();
  let noFile = 0;
  for (const m of g.members) {
    if (m.sourceFile) bump(filesCount, m.sourceFile);
    else noFile++;
  }
  const sourceFiles = sortedCounts(filesCount);
  if (sourceFiles.length === 0) out.push("No node here names a source file.", "");
  else {
    out.push(row(["File", "Nodes"]), "| --- | ---: |");
    for (const [file, count] of sourceFiles.slice(0, SOURCE_FILES_LIMIT)) out.push(row([escapeMarkdown(file), count]));
    if (sourceFiles.length > SOURCE_FILES_LIMIT) out.push("", `… and ${sourceFiles.length - SOURCE_FILES_LIMIT} more files.`);
    if (noFile > 0) out.push("", `${plural(noFile, "node")} without a source file.`);
    out.push("");
  }

  out.push("## Members", "");
  const byLabel = [...g.members].sort((a, b) => cmp(a.label, b.label) || cmp(a.id, b.id));
  out.push(byLabel.slice(0, MEMBERS_LIMIT).map((m) => nodeLink(ctx, m, "communities")).join(", ") + (n > MEMBERS_LIMIT ? ` … and ${n - MEMBERS_LIMIT} more.` : ""), "");

  const incident = g.internalEdges + crossTotal;
  out.push("## Confidence audit", "", `Edges touching this ${g.kind === "component" ? "component" : "community"}: ${incident}.`, "");
  out.push(...auditTable(g.confidence, incident), "");
  if (g.ambiguous.length > 0) {
    const total = g.confidence.get("AMBIGUOUS") ?? 0;
    out.push("Ambiguous edges to check:", "");
    for (const e of g.ambiguous) out.push(`- ${tripleText(ctx, e, "communities")}`);
    out.push(...more(g.ambiguous.length, total, "ambiguous edges"), "");
  }
  return out.join("\n");
}

function renderNode(ctx: Ctx, node: GraphNode): string {
  const { graph } = ctx;
  const group = ctx.groupOf.get(node.id);
  const out: string[] = [`# ${nodeText(node)}`, "", `[← Index](${indexHref("nodes")}) · ${groupLink(group, "nodes")}`, ""];
  const outgoing = graph.outEdges(node.id);
  const incoming = graph.inEdges(node.id).filter((e) => e.source !== node.id); // a self-loop is listed once
  out.push(row(["Field", "Value"]), "| --- | --- |");
  out.push(row(["Id", escapeMarkdown(node.id)]), row(["Qualified name", escapeMarkdown(qualifiedName(graph, node.id))]));
  if (group) out.push(row([group.kind === "component" ? "Component" : "Community", groupLink(group, "nodes")]));
  if (node.sourceFile) out.push(row(["Source", sourceText(node)]));
  if (node.fileType) out.push(row(["File type", escapeMarkdown(node.fileType)]));
  if (node.aliases.length > 0) out.push(row(["Aliases", node.aliases.map(escapeMarkdown).join(", ")]));
  out.push(row(["Degree", `${ctx.degree(node.id)} (${outgoing.length} outgoing, ${incoming.length} incoming)`]), "");

  const byRelation = new Map<string, { out: GraphEdge[]; in: GraphEdge[] }>();
  const slot = (rel: string) => {
    let s = byRelation.get(rel);
    if (!s) byRelation.set(rel, (s = { out: [], in: [] }));
    return s;
  };
  for (const e of outgoing) slot(e.relation).out.push(e);
  for (const e of incoming) slot(e.relation).in.push(e);
  const relations = [...byRelation.entries()].sort(
    (a, b) => b[1].out.length + b[1].in.length - (a[1].out.length + a[1].in.length) || cmp(a[0], b[0]),
  );

  out.push("## Connections", "");
  if (relations.length === 0) out.push("No connections.", "");
  const other = (e: GraphEdge) => graph.getNode(e.source === node.id ? e.target : e.source);
  const byNeighbour = (a: GraphEdge, b: GraphEdge) => {
    const na = other(a);
    const nb = other(b);
    return na && nb ? ctx.byDegree(na, nb) : 0;
  };
  for (const [rel, { out: outs, in: ins }] of relations) {
    out.push(`### ${escapeMarkdown(rel)} (${outs.length + ins.length})`, "");
    for (const [heading, list] of [
      ["Outgoing", outs],
      ["Incoming", ins],
    ] as const) {
      if (list.length === 0) continue;
      out.push(`${heading}:`, "");
      const shown = [...list].sort(byNeighbour).slice(0, CONNECTIONS_PER_LIST);
      for (const e of shown) {
        const conf = confidenceOf(e);
        const neighbour = other(e);
        const neighbourGroup = neighbour ? ctx.groupOf.get(neighbour.id) : undefined;
        const where = neighbourGroup && neighbourGroup !== group ? ` · ${groupLink(neighbourGroup, "nodes")}` : "";
        out.push(`- ${tripleText(ctx, e, "nodes", node.id)}${conf === NO_CONFIDENCE ? "" : ` · ${escapeMarkdown(conf)}`}${where}`);
      }
      out.push(...more(shown.length, list.length, `${heading.toLowerCase()} ${escapeMarkdown(rel)} edges`), "");
    }
  }
  return out.join("\n");
}
