/**
 * The search keys of node rows, for retrieval in SQL on PostgreSQL (sql-retrieval.ts): the
 * lookups the in-memory retrieval makes over every node label, as indexed rows of `NodeKey`.
 *
 * Kinds (each the exact key an in-memory index uses, so a lookup finds exactly its nodes):
 *   l  the normalised label           idsByNormLabel; substring search (idf, seeds) by trigram
 *   a  a normalised alias             idsByNormLabel
 *   k  label or alias word tokens     the mention index of findQuestionEntities (`byKey`)
 *   p  label tokens, ≥ 2 of them      queryGraph's exact multi-word phrases
 *   w  camel/snake label words ≥ 4    queryGraph's "question word begins with a label word"
 *   f  lower-cased source file        queryGraph's file hits, by trigram
 *
 * Keys belong to a Node row (`nodePk`), and a Node row is never edited, only closed when a
 * version replaces it: a key is live exactly when its row is, so keys are written once per row
 * and never maintained. Rows without keys (a new import, a commit) get them on first use of a
 * version (`ensureNodeKeys`), under an advisory lock so two app instances do not both write them.
 */
import type { GraphNode } from "../../graph/model";
import { identifierWords } from "../../graph/resolve-name";
import { normalizeLabel, tokenize } from "../../graph/normalize";
import { MAX_NAME_WORDS } from "../../providers/heuristic/graph-index";
import { wordTokens } from "../../providers/heuristic/text";
import type { SqlValue } from "../db/sql";
import { getSql } from "../db/sql";
import { nodeFromColumns } from "./graph-rows";

export type NodeKeyKind = "l" | "a" | "k" | "p" | "w" | "f";

/** queryGraph looks up phrases of at most this many words, and label words of at least this many letters. */
export const MAX_PHRASE_WORDS = 12;
export const MIN_LABEL_WORD = 4;

/** Every key of a node, deduplicated per kind. */
export function nodeKeysOf(node: GraphNode): { kind: NodeKeyKind; key: string }[] {
  const out: { kind: NodeKeyKind; key: string }[] = [];
  const seen = new Set<string>();
  const add = (kind: NodeKeyKind, key: string) => {
    const id = `${kind}\u0000${key}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ kind, key });
  };
  add("l", node.normLabel.replace(/\n/g, " "));
  for (const alias of node.aliases) add("a", normalizeLabel(alias));
  for (const text of [node.label, ...node.aliases]) {
    const tokens = wordTokens(text);
    if (tokens.length > 0 && tokens.length <= MAX_NAME_WORDS) add("k", tokens.map((t) => t.norm).join(" "));
  }
  const phrase = tokenize(node.label);
  if (phrase.length > 1 && phrase.length <= MAX_PHRASE_WORDS) add("p", phrase.join(" "));
  for (const w of identifierWords(node.label)) if (w.length >= MIN_LABEL_WORD) add("w", w);
  if (node.sourceFile) add("f", node.sourceFile.toLowerCase().replace(/\n/g, " "));
  return out;
}

const PAGE_ROWS = 5_000;
const ensured = new Map<string, Promise<void>>();

/**
 * Write the keys of the graph's Node rows that have none yet (rows are numbered in insertion
 * order, so these are the rows after the last one with keys). Once per graph version and process.
 */
export function ensureNodeKeys(graphId: string, version: number): Promise<void> {
  const memo = `${graphId}:${version}`;
  let pending = ensured.get(memo);
  if (!pending) {
    pending = writeMissingKeys(graphId).catch((error: unknown) => {
      ensured.delete(memo);
      throw error;
    });
    if (ensured.size > 256) ensured.clear();
    ensured.set(memo, pending);
  }
  return pending;
}

async function writeMissingKeys(graphId: string): Promise<void> {
  const sql = getSql();
  if (sql.dialect !== "postgres") throw new Error("node keys are kept on PostgreSQL only");
  await sql.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext(?))`, [`refinery-node-keys:${graphId}`]);
    const last = await tx.get<{ pk: number | null }>(`SELECT MAX("nodePk") AS "pk" FROM "NodeKey" WHERE "graphId" = ?`, [graphId]);
    let after = Number(last?.pk ?? 0);
    let written = 0;
    for (;;) {
      const rows = await tx.queryRows(
        `SELECT "pk", "nodeId", "label", "normLabel", "ord", "data" FROM "Node" WHERE "graphId" = ? AND "pk" > ? ORDER BY "pk" LIMIT ${PAGE_ROWS}`,
        [graphId, after],
      );
      if (rows.length === 0) break;
      const keys: SqlValue[][] = [];
      for (const r of rows) {
        const node = nodeFromColumns(r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null);
        for (const { kind, key } of nodeKeysOf(node)) keys.push([graphId, Number(r[0]), kind, key]);
      }
      await tx.insertMany("NodeKey", ["graphId", "nodePk", "kind", "key"], keys);
      written += keys.length;
      after = Number((rows[rows.length - 1] as unknown[])[0]);
      if (rows.length < PAGE_ROWS) break;
    }
    // A new import's keys: the planner needs their statistics before autovacuum gets to them.
    if (written >= 10_000) await tx.execute(`ANALYZE "NodeKey"`);
  });
}

/** Forget which versions were ensured (tests that recreate databases). */
export function forgetEnsuredNodeKeys(): void {
  ensured.clear();
}
