/**
 * `deeprefine review` output on top of Refinery's review (lib/review): the skill's JSON shape
 * `{action, confidence, evidence: [str], warnings: [str], suggested_replacement}` plus our
 * richer fields, and a markdown report in the skill's layout (`[HIGH] action`, Evidence,
 * Warning, Suggested replacement) that also says why each label was given.
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import { parseRefinement } from "../loop/parse-output";
import type { LoadedTrace } from "../loop/deeprefine-files";
import type { RefinementAction } from "../loop/types";
import type { ReviewInput, UnparseableAction } from "../review/review-actions";
import type { ActionReview, EvidenceItem, ReviewWarning } from "../review/types";

/** Far above the prompt's 10: the file is the agent's, and every action in it must be shown. */
const MAX_FILE_ACTIONS = 1000;

export type RefinementInputs =
  | {
      ok: true;
      /** Parsed actions first, then the entries that did not parse (reviewed LOW / UNPARSEABLE). */
      inputs: ReviewInput[];
      actions: RefinementAction[];
      unparseable: UnparseableAction[];
      /** Parser notes that do not drop an action (ignored prose, unquoted arguments, duplicates). */
      notes: string[];
    }
  | { ok: false; error: string };

/**
 * The refinement file's actions as review inputs. An action the parser had to skip is kept as
 * an unparseable entry, so it shows up LOW (the skill's "does not parse → LOW") instead of
 * silently disappearing; an exact duplicate is only a note.
 */
export function refinementInputs(text: string): RefinementInputs {
  const parsed = parseRefinement(text, { maxActions: MAX_FILE_ACTIONS });
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const unparseable: UnparseableAction[] = [];
  const notes: string[] = [];
  for (const w of parsed.warnings) {
    if (/; skipped$/.test(w) && !/duplicate of an earlier action; skipped$/.test(w)) {
      const m = /^(action \d+ [\s\S]*?): ([^:]*; skipped)$/.exec(w);
      unparseable.push({ raw: m?.[1] ?? w, error: m?.[2] ?? w });
    } else {
      notes.push(w);
    }
  }
  return { ok: true, inputs: [...parsed.actions, ...unparseable], actions: parsed.actions, unparseable, notes };
}

/**
 * The trace's last-step subgraph with graph ids, for the review's "outside the retrieved
 * subgraph" check. A triple names its ends by label (or by id when Refinery wrote it); a label
 * several nodes share is settled by the edge itself. Triples that are not edges are left out.
 */
export function retrievedTriples(graph: KnowledgeGraph, trace: LoadedTrace): Triple[] {
  const last = trace.steps.at(-1)?.triples ?? [];
  const out: Triple[] = [];
  for (const t of last) {
    if (!t.subject || !t.relation || !t.object) continue;
    const subjects = t.subject_id !== null ? [t.subject_id] : idsWithLabel(graph, t.subject);
    const objects = new Set(t.object_id !== null ? [t.object_id] : idsWithLabel(graph, t.object));
    const edge = subjects.flatMap((s) => graph.outEdges(s)).find((e) => objects.has(e.target) && e.relation === t.relation);
    if (edge) out.push(graph.toTriple(edge));
  }
  return out;
}

function idsWithLabel(graph: KnowledgeGraph, label: string): string[] {
  const ids: string[] = [];
  for (const node of graph.nodes.values()) if (node.label === label) ids.push(node.id);
  if (ids.length === 0 && graph.getNode(label)) ids.push(label);
  return ids;
}

function location(e: EvidenceItem): string {
  if (!e.source) return "";
  const where = e.source.path ?? e.source.docId;
  return e.source.line ? `${where}:${e.source.line}` : where;
}

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** One evidence line: summary, where (file:line) and the verbatim quote. */
export function evidenceText(e: EvidenceItem): string {
  const where = location(e);
  const placed = where && !e.summary.includes(where) ? `${e.summary} (${where})` : e.summary;
  return e.quote ? `${placed} — quote: "${clip(e.quote)}"` : placed;
}

export function warningText(w: ReviewWarning): string {
  const shown = (w.candidates ?? []).slice(0, 5).map((c) => c.qualified);
  const missing = shown.filter((q) => !w.message.includes(q));
  return `${w.code}: ${w.message}${missing.length > 0 ? ` (candidates: ${shown.join("; ")})` : ""}`;
}

export interface SkillReviewJson {
  /** The skill's fields. */
  action: string;
  confidence: ActionReview["confidence"];
  evidence: string[];
  warnings: string[];
  suggested_replacement: string | null;
  /** Refinery's: position in the file's actions, the rules that fired, structured detail. */
  index: number;
  /** Plausibility 0–1 and the signals behind it (issue #10). */
  score: number | null;
  signals: NonNullable<ActionReview["signals"]>;
  reasons: string[];
  evidence_details: EvidenceItem[];
  warning_details: ReviewWarning[];
  suggestions: ActionReview["suggestions"];
  resolved: ActionReview["resolved"];
}

export function skillReviewJson(review: ActionReview): SkillReviewJson {
  return {
    action: review.text,
    confidence: review.confidence,
    evidence: review.evidence.map(evidenceText),
    warnings: review.warnings.map(warningText),
    suggested_replacement: review.suggestions[0]?.text ?? null,
    index: review.index,
    score: review.score ?? null,
    signals: review.signals ?? [],
    reasons: review.reasons,
    evidence_details: review.evidence,
    warning_details: review.warnings,
    suggestions: review.suggestions,
    resolved: review.resolved,
  };
}

const EVIDENCE_SHOWN = 6;
const SUGGESTIONS_SHOWN = 3;

/** The report: the skill's layout, plus "Why" (the label's reasons) and ranked suggestions. */
export function renderReviewMarkdown(reviews: readonly ActionReview[], { notes = [] }: { notes?: readonly string[] } = {}): string {
  const counts = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const r of reviews) counts[r.confidence]++;
  const lines = [
    `DeepRefine proposed ${reviews.length} refinement action(s): ${counts.HIGH} HIGH, ${counts.MEDIUM} MEDIUM, ${counts.LOW} LOW.`,
    "",
  ];
  for (const r of reviews) {
    lines.push(`[${r.confidence}] ${r.text}`);
    const why = r.reasons.at(-1);
    if (why) lines.push(`Why: ${why}`);
    if (r.evidence.length > 0) {
      lines.push("Evidence:");
      for (const e of r.evidence.slice(0, EVIDENCE_SHOWN)) lines.push(`- ${evidenceText(e)}`);
      if (r.evidence.length > EVIDENCE_SHOWN) lines.push(`- … and ${r.evidence.length - EVIDENCE_SHOWN} more (--json shows all)`);
    }
    if (r.warnings.length > 0) {
      lines.push("Warning:");
      for (const w of r.warnings) lines.push(`- ${warningText(w)}`);
    }
    if (r.suggestions.length > 0) {
      lines.push("Suggested replacement:");
      for (const s of r.suggestions.slice(0, SUGGESTIONS_SHOWN)) lines.push(`- ${s.text} (${s.reason})`);
    }
    lines.push("");
  }
  if (notes.length > 0) {
    lines.push("Parser notes:");
    for (const n of notes) lines.push(`- ${n}`);
    lines.push("");
  }
  if (counts.LOW > 0) lines.push("LOW-confidence actions need an explicit acceptance of the risk: --allow-low-confidence.");
  lines.push("Apply only after review: deeprefine apply --refresh-wiki --trace-file <trace> --refinement-file <actions>");
  return `${lines.join("\n").trimEnd()}\n`;
}
