/**
 * Runs owned by "another process", written straight into the e2e database the way
 * lib/server/runs/runs.ts writes them (the CLI shares the database with the server). The heuristic
 * provider finishes a run in well under a second, too fast to watch; a run written here stays
 * "running" until the test says otherwise, so the page's live path can be observed step by step.
 * The server's events route reads the same rows, which is exactly what it does for CLI runs.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

const here = path.dirname(fileURLToPath(import.meta.url));
// Same file as playwright.config.ts gives the web server.
const databaseFile = path.join(here, ".tmp", "e2e.db");

export interface FakeQuestion {
  pk: number;
  queryId: string;
  text: string;
}

/** Prisma's SQLite DateTime text. */
function now(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}

export function openDb(): Database.Database {
  const db = new Database(databaseFile);
  db.pragma("busy_timeout = 5000");
  return db;
}

export function findQuestion(db: Database.Database, graph: string, ord: number): FakeQuestion {
  const row = db
    .prepare('SELECT q.pk AS pk, q.queryId AS queryId, q.text AS text FROM "Question" q JOIN "Graph" g ON g.id = q.graphId WHERE g.name = ? AND q.ord = ?')
    .get(graph, ord) as FakeQuestion | undefined;
  if (!row) throw new Error(`no question ${ord} in ${graph}`);
  return row;
}

export function insertRunningRun(db: Database.Database, options: { graph: string; question: FakeQuestion; config: unknown; id: string }): void {
  const graph = db.prepare('SELECT id FROM "Graph" WHERE name = ?').get(options.graph) as { id: string };
  db.prepare(
    `INSERT INTO "Run" (id, graphId, questionPk, queryId, question, graphVersion, provider, model, isLlm, config, status, createdAt, heartbeatAt, owner)
     VALUES (?, ?, ?, ?, ?, 1, 'heuristic', 'heuristic-v1', 0, ?, 'running', ?, ?, 'e2e@another-host')`,
  ).run(options.id, graph.id, options.question.pk, options.question.queryId, options.question.text, JSON.stringify(options.config), now(), now());
}

export function insertStep(db: Database.Database, runId: string, step: { step: number; answerable: boolean }): void {
  db.prepare('INSERT INTO "RunStep" (runId, step, data, answerable, createdAt) VALUES (?, ?, ?, ?, ?)').run(
    runId,
    step.step,
    JSON.stringify(step),
    step.answerable ? 1 : 0,
    now(),
  );
}

export function finishRun(
  db: Database.Database,
  runId: string,
  outcome: { status: string; earlyExit?: boolean; abduction?: string; actions?: unknown[]; warnings?: string[]; refinementRaw?: string },
): void {
  db.prepare(
    `UPDATE "Run" SET status = ?, earlyExit = ?, abduction = ?, abductionRaw = ?, refinementRaw = ?, actions = ?, actionWarnings = ?, finishedAt = ? WHERE id = ?`,
  ).run(
    outcome.status,
    outcome.earlyExit ? 1 : 0,
    outcome.abduction ?? null,
    outcome.abduction ? `<abduction>${outcome.abduction}</abduction>` : null,
    outcome.refinementRaw ?? null,
    JSON.stringify(outcome.actions ?? []),
    JSON.stringify(outcome.warnings ?? []),
    now(),
    runId,
  );
}
