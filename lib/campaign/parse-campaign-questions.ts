/**
 * A campaign's question set from JSON Lines, like the MuSiQue bundle's questions.jsonl:
 * `{"id"?, "question", "answers"?: [...]}` one per line (other fields are ignored). Lines without
 * an id get `q<line>`; ids must be unique. Errors name the file and line.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { parseJsonLines } from "../import/parse-bundle";
import type { CampaignQuestion } from "./types";

const schema = z.object({
  id: z.string().min(1).optional(),
  question: z.string().trim().min(1),
  answers: z.array(z.string()).optional(),
});

export const MAX_CAMPAIGN_QUESTIONS = 1000;

export function parseCampaignQuestions({ name, text }: { name: string; text: string }): CampaignQuestion[] {
  const rows = parseJsonLines(name, text, schema);
  if (rows.length === 0) throw new AppError("INVALID_INPUT", `${name}: no questions`);
  if (rows.length > MAX_CAMPAIGN_QUESTIONS) throw new AppError("TOO_LARGE", `${name}: ${rows.length} questions; a campaign takes at most ${MAX_CAMPAIGN_QUESTIONS}`);
  const seen = new Set<string>();
  return rows.map((r, i) => {
    const id = r.id ?? `q${i + 1}`;
    if (seen.has(id)) throw new AppError("INVALID_INPUT", `${name}: question id ${JSON.stringify(id)} appears twice`, { source: name });
    seen.add(id);
    const answers = (r.answers ?? []).map((a) => a.trim()).filter(Boolean);
    return { id, question: r.question, ...(answers.length ? { answers } : {}) };
  });
}
