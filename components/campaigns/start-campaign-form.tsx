"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { startCampaign } from "./campaign-api";

/** Parse pasted JSON Lines ({"question", "answers"?} per line) or one question per plain line. */
export function parseQuestionText(text: string): Array<{ id?: string; question: string; answers?: string[] }> {
  const out: Array<{ id?: string; question: string; answers?: string[] }> = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (line.startsWith("{")) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`line ${i + 1}: invalid JSON`);
      }
      const v = value as { id?: unknown; question?: unknown; answers?: unknown };
      if (typeof v.question !== "string" || !v.question.trim()) throw new Error(`line ${i + 1}: no "question"`);
      const answers = Array.isArray(v.answers) ? v.answers.filter((a): a is string => typeof a === "string") : undefined;
      out.push({ ...(typeof v.id === "string" ? { id: v.id } : {}), question: v.question, ...(answers?.length ? { answers } : {}) });
    } else out.push({ question: line });
  });
  return out;
}

const EMPTY_QUESTIONS = 'The question set is empty: paste at least one question (one per line, or JSON Lines like {"question": "…", "answers": ["…"]}).';

export function StartCampaignForm({ graphs }: { graphs: string[] }) {
  const router = useRouter();
  const [graph, setGraph] = useState(graphs[0] ?? "");
  const [source, setSource] = useState<"queue" | "paste">("queue");
  const [text, setText] = useState("");
  const [provider, setProvider] = useState<"" | "heuristic" | "openai">("");
  const [iterations, setIterations] = useState(3);
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => {
      const questions = source === "paste" ? parseQuestionText(text) : undefined;
      if (questions && questions.length === 0) throw new Error(EMPTY_QUESTIONS);
      return startCampaign({ graph, iterationCap: iterations, ...(provider ? { provider } : {}), ...(questions ? { questions } : { fromQueue: "all" as const }) });
    },
    onSuccess: ({ campaignId }) => router.push(`/campaigns/${encodeURIComponent(campaignId)}`),
    onError: (e) => setProblem(e.message),
  });
  if (graphs.length === 0) return <p className="muted">Import a graph first.</p>;
  return (
    <form
      className="stack card"
      data-testid="start-campaign"
      onSubmit={(e) => {
        e.preventDefault();
        setProblem(null);
        start.mutate();
      }}
    >
      <h2 className="card__title">Start a campaign</h2>
      <div className="campaign-form__row">
        <label>
          Graph{" "}
          <select value={graph} onChange={(e) => setGraph(e.target.value)}>
            {graphs.map((g) => (
              <option key={g}>{g}</option>
            ))}
          </select>
        </label>
        <label>
          Provider{" "}
          <select value={provider} onChange={(e) => setProvider(e.target.value as typeof provider)}>
            <option value="">the configured one (Settings)</option>
            <option value="heuristic">heuristic (rule-based, offline)</option>
            <option value="openai">OpenAI-compatible model</option>
          </select>
        </label>
        <label>
          Iteration cap <input type="number" min={1} max={20} value={iterations} onChange={(e) => setIterations(Number(e.target.value))} />
        </label>
      </div>
      <fieldset className="campaign-form__questions">
        <legend>Questions</legend>
        <label>
          <input type="radio" name="source" checked={source === "queue"} onChange={() => setSource("queue")} /> the graph&apos;s question queue
        </label>
        <label>
          <input type="radio" name="source" checked={source === "paste"} onChange={() => setSource("paste")} /> pasted here (one per line, or JSON Lines with gold answers)
        </label>
        {source === "paste" ? (
          <textarea
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={'Which region is eritrea located in?\n{"question": "Which region is chad located in?", "answers": ["africa"]}'}
            aria-label="Questions"
          />
        ) : null}
      </fieldset>
      <p className="small muted">The campaign works in a sandbox: the live graph changes only when people approve the one proposal it submits.</p>
      {problem ? (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div>
        <button type="submit" className="button" disabled={start.isPending || !graph}>
          {start.isPending ? "Starting…" : "Start campaign"}
        </button>
      </div>
    </form>
  );
}
