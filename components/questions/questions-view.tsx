"use client";

import { useMemo, useState } from "react";
import { useQuestions } from "../api/find-questions";
import { useRuns } from "../api/find-runs";
import type { RunSummary } from "../api/run-types";
import { ErrorState, LoadingState } from "../ui/states";
import { AskQuestionForm } from "./ask-question-form";
import { useHubNodes } from "../api/find-hub-nodes";
import { displayText } from "@/lib/text/display-text";
import { LoopSettingsForm } from "./loop-settings-form";
import { MemoryImportForm } from "./memory-import-form";
import { QuestionQueue } from "./question-queue";

interface QuestionsViewProps {
  graphName: string;
  sourcePath: string | null;
}

/** Newest run of each question: the runs list arrives newest first. */
function latestRuns(runs: RunSummary[] | undefined): Map<string, RunSummary> {
  const latest = new Map<string, RunSummary>();
  for (const run of runs ?? []) if (!latest.has(run.queryId)) latest.set(run.queryId, run);
  return latest;
}

export function QuestionsView({ graphName, sourcePath }: QuestionsViewProps) {
  // The typed question is shared: "Run all pending" runs it when the queue is empty, like the skill does.
  const [draft, setDraft] = useState("");
  // One request for the whole queue: the filter shows both counts, so it filters here.
  const questions = useQuestions(graphName, "all");
  const runs = useRuns(graphName);
  const latest = useMemo(() => latestRuns(runs.data), [runs.data]);
  // The placeholder is a question about this graph: its first queued one, else its busiest node.
  const hubs = useHubNodes(graphName, 1);
  const hub = hubs.data?.[0];
  const example = questions.data?.[0]?.text ?? (hub ? `What is ${displayText(hub.label, { max: 60 })} linked to, and how?` : null);

  return (
    <div className="questions">
      <div className="questions__forms">
        <section className="card form-card" aria-labelledby="ask-title">
          <h2 id="ask-title">Ask a question</h2>
          <AskQuestionForm graphName={graphName} draft={draft} onDraftChange={setDraft} example={example} />
        </section>
        <section className="card form-card" aria-labelledby="memory-title">
          <h2 id="memory-title">Import graphify memory files</h2>
          <MemoryImportForm graphName={graphName} sourcePath={sourcePath} />
        </section>
        <section className="card form-card loop-settings-card" aria-labelledby="loop-settings-title">
          <h2 id="loop-settings-title">Loop: step 1 retrieval</h2>
          <LoopSettingsForm graphName={graphName} />
        </section>
      </div>
      <section className="card" aria-label="Question queue">
        {questions.isPending ? (
          <LoadingState label="Loading the question queue…" />
        ) : questions.isError ? (
          <ErrorState
            title="Could not load the questions"
            message={questions.error.message}
            action={
              <button type="button" className="button" onClick={() => void questions.refetch()}>
                Try again
              </button>
            }
          />
        ) : (
          <QuestionQueue graphName={graphName} questions={questions.data} latestRuns={latest} draft={draft} />
        )}
      </section>
    </div>
  );
}
