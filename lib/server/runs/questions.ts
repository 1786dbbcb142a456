/**
 * The question queue of a graph: questions deduplicated by query id (first occurrence wins,
 * order kept), pending until a run over them finishes.
 */
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import { parseMemoryFile } from "../../questions/parse-memory-file";
import { queryIdOf } from "../../questions/query-id";
import type { Actor } from "../../auth/permissions";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getGraphRecord } from "../graphs";

export type QuestionSource = "user" | "bundle" | "graphify_memory" | "deeprefine" | "deeprefine_loop";

export interface QuestionItem {
  pk: number;
  queryId: string;
  text: string;
  source: string;
  answers: string[] | null;
  refined: boolean;
  ord: number;
  createdAt: string;
}

type QuestionRow = { pk: number; queryId: string; text: string; source: string; answers: string | null; refined: boolean; ord: number; createdAt: Date };

function toItem(row: QuestionRow): QuestionItem {
  return { ...row, answers: row.answers ? (JSON.parse(row.answers) as string[]) : null, createdAt: row.createdAt.toISOString() };
}

export interface AddQuestionsResult {
  added: QuestionItem[];
  /** Questions already in the queue (same query id): not added again. */
  existing: QuestionItem[];
}

export async function addQuestions(options: {
  graph: string;
  texts: string[];
  source?: QuestionSource;
  /** Who queues them: the `question.add` audit event is written in the same transaction. */
  auditAs?: Actor;
}): Promise<AddQuestionsResult> {
  const graph = await getGraphRecord(options.graph);
  const texts = options.texts.map((t) => t.trim());
  const empty = texts.findIndex((t) => t === "");
  if (empty >= 0) throw new AppError("INVALID_INPUT", `question ${empty + 1} is empty`);
  const tooLong = texts.findIndex((t) => t.length > 4000);
  if (tooLong >= 0) throw new AppError("INVALID_INPUT", `question ${tooLong + 1} is longer than 4,000 characters`);
  const db = getDb();
  const add = () => db.$transaction(async (tx) => {
    const added: QuestionItem[] = [];
    const existing: QuestionItem[] = [];
    const last = await tx.question.findFirst({ where: { graphId: graph.id }, orderBy: { ord: "desc" }, select: { ord: true } });
    let ord = (last?.ord ?? -1) + 1;
    for (const text of texts) {
      const queryId = queryIdOf(text);
      const found = await tx.question.findUnique({ where: { graphId_queryId: { graphId: graph.id, queryId } } });
      if (found) {
        if (!existing.some((e) => e.pk === found.pk)) existing.push(toItem(found));
        continue;
      }
      const row = await tx.question.create({ data: { graphId: graph.id, queryId, text, source: options.source ?? "user", ord: ord++ } });
      added.push(toItem(row));
    }
    if (options.auditAs && added.length > 0) {
      const summary = added.length === 1 ? `queued ${JSON.stringify(added[0]?.text)}` : `queued ${added.length} questions`;
      await recordAudit(options.auditAs, { action: "question.add", summary, graphName: options.graph, targetType: "question", targetId: added[0]?.queryId, details: { queryIds: added.map((q) => q.queryId) } }, tx);
    }
    return { added, existing };
  });
  try {
    return await add();
  } catch (error) {
    // Two requests (or instances) added the same question at once: on PostgreSQL both may pass
    // the lookup, and the unique index refuses the second. Once more, it is simply "existing".
    if ((error as { code?: string }).code === "P2002") return add();
    throw error;
  }
}

export async function findQuestions(options: { graph: string; status?: "pending" | "refined" | "all" }): Promise<QuestionItem[]> {
  const graph = await getGraphRecord(options.graph);
  const status = options.status ?? "all";
  const rows = await getDb().question.findMany({
    where: { graphId: graph.id, ...(status === "all" ? {} : { refined: status === "refined" }) },
    orderBy: { ord: "asc" },
  });
  return rows.map(toItem);
}

export async function getQuestion(options: { graph: string; queryId: string }): Promise<QuestionItem & { graphId: string }> {
  const graph = await getGraphRecord(options.graph);
  const row = await getDb().question.findUnique({ where: { graphId_queryId: { graphId: graph.id, queryId: options.queryId } } });
  if (!row) throw new AppError("NOT_FOUND", `no question ${options.queryId} in graph ${JSON.stringify(options.graph)}`);
  return { ...toItem(row), graphId: graph.id };
}

/**
 * Import graphify memory files (`query_*.md`) from a folder: a project folder (its
 * `graphify-out/memory`), a `graphify-out` folder, or the memory folder itself.
 */
export async function syncMemoryFiles(options: { graph: string; dir: string }): Promise<AddQuestionsResult & { files: number; unreadable: string[] }> {
  const base = path.resolve(options.dir);
  const candidates = [path.join(base, "graphify-out", "memory"), path.join(base, "memory"), base];
  const dir = candidates.find((d) => fs.existsSync(d) && fs.statSync(d).isDirectory());
  if (!dir) throw new AppError("NOT_FOUND", `${base}: no such folder`);
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^query_.*\.md$/.test(f))
    .sort();
  const texts: string[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    const question = parseMemoryFile(fs.readFileSync(path.join(dir, file), "utf8"));
    if (question) texts.push(question);
    else unreadable.push(file);
  }
  const result = texts.length > 0 ? await addQuestions({ graph: options.graph, texts, source: "graphify_memory" }) : { added: [], existing: [] };
  return { ...result, files: files.length, unreadable };
}
