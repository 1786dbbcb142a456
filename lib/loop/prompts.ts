/**
 * The three prompts of the hop loop, worded exactly as in seed 000 (and the DeepRefine-Skill's
 * agent_prompts.py it copies): each is a system message with the task and its output tag, and a
 * user message with the filled-in fields. Also the text the prompts embed: the triple list, the
 * interaction history and the "original text" behind a subgraph.
 */
import type { GraphEdge, KnowledgeGraph, Triple } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { documentIdsOf, parseSourceLocation } from "../import/corpus";
import type { ChatMessage, StepRecord } from "./types";

export const JUDGE_SYSTEM_PROMPT = `As an advanced judgement assistant, your task is to judge whether the given question is answerable based on the provided KG context.

Evaluate whether the given question is answerable based on the provided KG context. Output your judgment in the following format:
<judge>Yes</judge> or <judge>No</judge>

**Important:** You must think carefully about the question and the KG context before making your judgment. And output your judgment result directly in the specified format.`;

export const ABDUCTION_SYSTEM_PROMPT = `As an advanced error abduction assistant, your task is to analyze the error reasons based on the given interaction history.

Analyze the reasons of the unanswerable questions based on the given interaction history from the incompleteness, incorrectness, and redundancy perspectives. Output your analysis in the following format:
<abduction>...</abduction>

**Important:** You must think carefully about the interaction history before making your analysis. And output your analysis result directly in the specified format.`;

/** The seed says "within 10 actions"; the number follows `maxActions` so the prompt never contradicts the parser's limit. */
export function refinementSystemPrompt(maxActions = 10): string {
  return `As an advanced knowledge graph refinement assistant, your task is to generate a series of actions (**within ${maxActions} actions**) to refine the given KG to make it more suitable for answering the given question.

Based on the given KG and the analysed error reasons, refine the given KG to make it more easily for retrieval and answering the given question. You have the following three types of actions to conduct:

- insert_edge(subject, relation, object): Insert a new edge into the KG to complete the missing information.
- delete_edge(subject, relation, object): Delete an edge from the KG to remove the redundant information or conflicting information.
- replace_node(old_entity, new_entity): Replace an entity in the KG to correct the errors or deal with disambiguation.

Output a series of actions (**within ${maxActions} actions**) in the following format:
<refinement>insert_edge("...", "...", "...")|delete_edge("...", "...", "...")|replace_node("...", "...")|...</refinement>

**Important:** You must think carefully about the given KG and the analysed error reasons before making your refinement. DO NOT DELETE ANY IRRELEVANT TRIPLES FROM THE ORIGINAL KG. TRY TO KEEP THE ORIGINAL KG AS MUCH AS POSSIBLE. DO NOT GENERATE TOO MANY ACTIONS. And output your refinement result directly in the specified format.`;
}

type TripleText = Pick<Triple, "subject" | "relation" | "object">;

/**
 * The seed's `triples_string`: one `(subject, relation, object)` per line, in retrieval order.
 * An empty subgraph says so rather than leaving the field blank (as the research code does).
 */
export function formatTriples(triples: readonly TripleText[]): string {
  if (triples.length === 0) return "(no triples)";
  return triples.map((t) => `(${t.subject}, ${t.relation}, ${t.object})`).join("\n");
}

/** Python `repr()` of a string: the history format is DeepRefine's `str(list_of_dicts)`. */
function pyStr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === q) out += `\\${q}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch < " " || ch === "\x7f") out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + q;
}

function pySubgraph(triples: readonly TripleText[]): string {
  return `[${triples
    .map((t) => `{'subject': ${pyStr(t.subject)}, 'relation': ${pyStr(t.relation)}, 'object': ${pyStr(t.object)}}`)
    .join(", ")}]`;
}

export type HistoryStep = Pick<StepRecord, "query" | "numHops" | "triples" | "answerable">;

/**
 * The interaction history exactly as DeepRefine's `_error_abduction` prints it:
 * `Step1:\n['Query': …, 'Subgraph_hop': …, 'Subgraph_content': [{'subject': …}], 'Answerable': True]`,
 * steps separated by a blank line and numbered from 1 within the given window (as the skill does
 * for the last HISTORY_HORIZON steps).
 */
export function formatHistory(steps: readonly HistoryStep[]): string {
  return steps
    .map(
      (s, i) =>
        `Step${i + 1}:\n['Query': ${s.query}, 'Subgraph_hop': ${s.numHops}, 'Subgraph_content': ${pySubgraph(s.triples)}, 'Answerable': ${s.answerable ? "True" : "False"}]`,
    )
    .join("\n\n");
}

export function buildJudgePrompt({ question, triples }: { question: string; triples: readonly TripleText[] }): ChatMessage[] {
  return [
    { role: "system", content: JUDGE_SYSTEM_PROMPT },
    { role: "user", content: `Question: ${question}\nKnowledge Graph (KG) context: ${formatTriples(triples)}` },
  ];
}

/** `history` is the window the model should see: the caller takes the last `historyHorizon` steps. */
export function buildAbductionPrompt({ history }: { history: readonly HistoryStep[] }): ChatMessage[] {
  return [
    { role: "system", content: ABDUCTION_SYSTEM_PROMPT },
    { role: "user", content: `Interaction history: ${formatHistory(history)}` },
  ];
}

export function buildRefinementPrompt({
  question,
  triples,
  abduction,
  originalText,
  maxActions = 10,
}: {
  question: string;
  triples: readonly TripleText[];
  abduction: string;
  originalText: string;
  maxActions?: number;
}): ChatMessage[] {
  return [
    { role: "system", content: refinementSystemPrompt(maxActions) },
    {
      role: "user",
      content: `Original Text: ${originalText.trim() || "(no source text available)"}\nKG: ${formatTriples(triples)}\nQuestion: ${question}\nError reasons: ${abduction}`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Original text

/** About 3,000 tokens: room for ten MuSiQue passages or a dozen code windows. */
export const ORIGINAL_TEXT_MAX_CHARS = 12_000;
/** Lines shown before / after a `source_location`: graphify points at a definition's first line. */
const LINES_BEFORE = 2;
const LINES_AFTER = 12;
/** A long `L10-L400` range is cut to this many lines: the head of a definition says what it is. */
const MAX_WINDOW_LINES = 40;
/** A block cut to fit the budget is kept only if at least this much of it fits. */
const MIN_PARTIAL_CHARS = 200;

/** Graph edges behind a triple: by ids in stored direction, same relation (parallel edges all count). */
function edgesForTriple(graph: KnowledgeGraph, t: Triple): GraphEdge[] {
  return graph.outEdges(t.subject_id).filter((e) => e.target === t.object_id && e.relation === t.relation);
}

interface Evidence {
  docId: string;
  location: string | null;
}

/** Each triple's evidence in priority order: its edges' sources first, then its endpoints'. */
function evidenceOf(graph: KnowledgeGraph, triples: readonly Triple[]): Evidence[] {
  const out: Evidence[] = [];
  for (const t of triples) {
    for (const e of edgesForTriple(graph, t)) {
      const loc = e.attrs.source_location;
      for (const docId of documentIdsOf(e)) out.push({ docId, location: typeof loc === "string" ? loc : null });
    }
    for (const id of [t.subject_id, t.object_id]) {
      const node = graph.getNode(id);
      if (node) for (const docId of documentIdsOf(node)) out.push({ docId, location: node.sourceLocation });
    }
  }
  return out;
}

/** Document ids behind a subgraph (edges' passages/files, then nodes'), deduplicated, in order: what `loadDocuments` must fetch. */
export function documentIdsForTriples({ graph, triples }: { graph: KnowledgeGraph; triples: readonly Triple[] }): string[] {
  return [...new Set(evidenceOf(graph, triples).map((e) => e.docId))];
}

function mergeWindows(windows: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w[0] <= last[1] + 1) last[1] = Math.max(last[1], w[1]);
    else out.push([w[0], w[1]]);
  }
  return out;
}

/**
 * The refinement prompt's "Original Text": the corpus passages (title + text) or source-file line
 * windows (each line `file:line: text`, around each node's and edge's `source_location`) behind
 * the subgraph, each passage once and overlapping windows merged, most relevant triple's sources
 * first, within `maxChars` (the last block that does not fit is cut, if enough of it fits).
 */
export function buildOriginalText({
  triples,
  graph,
  documents,
  maxChars = ORIGINAL_TEXT_MAX_CHARS,
}: {
  triples: readonly Triple[];
  graph: KnowledgeGraph;
  documents: readonly CorpusDocument[];
  maxChars?: number;
}): string {
  const byId = new Map(documents.map((d) => [d.docId, d]));
  const order: CorpusDocument[] = [];
  const windows = new Map<string, Array<[number, number]>>();
  for (const ev of evidenceOf(graph, triples)) {
    const doc = byId.get(ev.docId);
    if (!doc) continue;
    let list = windows.get(doc.docId);
    if (!list) {
      windows.set(doc.docId, (list = []));
      order.push(doc);
    }
    if (doc.kind === "file") {
      // No location (a file node, or a record without one): the file's head says what it is.
      const loc = parseSourceLocation(ev.location) ?? { start: 1, end: 1 };
      const end = Math.min(loc.end, loc.start + MAX_WINDOW_LINES - 1);
      list.push([Math.max(1, loc.start - LINES_BEFORE), end + LINES_AFTER]);
    }
  }

  const blocks: string[] = [];
  for (const doc of order) {
    if (doc.kind === "passage") {
      blocks.push(doc.title ? `${doc.title}\n${doc.text.trim()}` : doc.text.trim());
      continue;
    }
    const lines = doc.text.split("\n");
    const name = doc.path ?? doc.docId;
    for (const [a, b] of mergeWindows(windows.get(doc.docId) ?? [])) {
      const out: string[] = [];
      for (let n = a; n <= Math.min(b, lines.length); n++) out.push(`${name}:${n}: ${(lines[n - 1] ?? "").replace(/\r$/, "")}`);
      if (out.length > 0) blocks.push(out.join("\n"));
    }
  }

  let text = "";
  for (const block of blocks) {
    const sep = text ? "\n\n" : "";
    if (text.length + sep.length + block.length <= maxChars) {
      text += sep + block;
      continue;
    }
    const room = maxChars - text.length - sep.length - 1;
    if (room >= MIN_PARTIAL_CHARS) text += `${sep}${block.slice(0, room)}…`;
    break;
  }
  return text;
}
