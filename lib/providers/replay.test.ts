import { describe, expect, it } from "vitest";
import type { AppError } from "../errors";
import { runHopLoop } from "../loop/run-hop-loop";
import type { ScriptAnswer } from "../loop/test-support";
import { documentLoader, musique, scriptedProvider } from "../loop/test-support";
import type { LlmProvider, LoopTask, RunTrace } from "../loop/types";
import type { ReplayRecording } from "./replay";
import { createReplayProvider, parseReplayRecording, recordingFromTrace } from "./replay";

const QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";

/** A clock that ticks 1 ms per reading: both runs see the same latencies. */
function tickingClock(): () => number {
  let t = 0;
  return () => t++;
}

function runWith(provider: LlmProvider): Promise<RunTrace> {
  const { graph, documents } = musique();
  return runHopLoop({ graph, question: QUESTION, provider, queryId: "q", loadDocuments: documentLoader(graph, documents), now: tickingClock() });
}

async function recordAndReplay(script: Partial<Record<LoopTask, ScriptAnswer[]>>) {
  const original = await runWith(scriptedProvider(script, "qwen3-deeprefine-8b"));
  const recording = parseReplayRecording(JSON.stringify(recordingFromTrace(original)));
  const replayed = await runWith(createReplayProvider({ recording }));
  return { original, recording, replayed };
}

describe("replay provider", () => {
  it("reproduces a recorded run, format retries included", async () => {
    const { original, recording, replayed } = await recordAndReplay({
      judge: ["<judge>No</judge>", "I cannot tell.", "<judge>No</judge>", "<judge>Yes</judge>"],
      abduction: ["<abduction>The KG lacks the first president.</abduction>"],
      refinement: ['<refinement>insert_edge("G. Stanley Hall", "first president of", "American Psychological Association")|bogus("x")</refinement>'],
    });
    expect(original.status).toBe("awaiting_review");
    expect(original.calls).toHaveLength(6);
    expect(recording.model).toBe("qwen3-deeprefine-8b");
    expect(recording.calls.map((c) => [c.task, c.step])).toEqual([
      ["judge", 1],
      ["judge", 2],
      ["judge", 2],
      ["judge", 3],
      ["abduction", null],
      ["refinement", null],
    ]);
    expect(replayed).toEqual(original);
    expect(replayed.actionWarnings).toEqual(['action 2 bogus("x"): unknown action "bogus" (expected insert_edge, delete_edge or replace_node); skipped']);
  });

  it("reproduces a failed run", async () => {
    const { original, replayed } = await recordAndReplay({ judge: ["<judge>No</judge>", new Error("socket hang up")] });
    expect(original.status).toBe("failed");
    expect(replayed).toEqual(original);
    expect(replayed.error).toBe("replay provider failed on the judge call at step 2: socket hang up");
  });

  it("is a provider named replay, with the recording's model", () => {
    const provider = createReplayProvider({ recording: { version: 1, model: "m", calls: [] } });
    expect([provider.name, provider.model, provider.isLlm]).toEqual(["replay", "m", true]);
  });

  it("fails loudly when the recording runs out or the run diverges", async () => {
    const short: ReplayRecording = { version: 1, model: "m", calls: [{ task: "judge", step: 1, text: "<judge>No</judge>" }] };
    const ranOut = await runWith(createReplayProvider({ recording: short }));
    expect(ranOut.status).toBe("failed");
    expect(ranOut.error).toBe(
      'replay provider failed on the judge call at step 2: replay: the recording has no more "judge" answers (it holds 1); the run asked for judge (step 2)',
    );
    expect(ranOut.steps).toHaveLength(1);

    const shifted: ReplayRecording = { version: 1, model: "m", calls: [{ task: "judge", step: 2, text: "<judge>No</judge>" }] };
    const diverged = await runWith(createReplayProvider({ recording: shifted }));
    expect(diverged.error).toContain("replay: judge answer 1 was recorded for step 2 but the run asked for step 1: the run diverged from the recording");

    const noAbduction: ReplayRecording = {
      version: 1,
      model: "m",
      calls: [
        { task: "judge", step: 1, text: "<judge>No</judge>" },
        { task: "judge", step: 2, text: "<judge>Yes</judge>" },
        { task: "refinement", text: "<refinement></refinement>" },
      ],
    };
    const missing = await runWith(createReplayProvider({ recording: noAbduction }));
    expect(missing.error).toContain('replay: the recording has no more "abduction" answers (it holds 0); the run asked for abduction');
  });

  it("parses recordings with clear errors", () => {
    const err = (text: string) => {
      try {
        parseReplayRecording(text, "rec.json");
        return "parsed";
      } catch (e) {
        return `${(e as AppError).code}: ${(e as AppError).message}`;
      }
    };
    expect(parseReplayRecording('{"model": "m", "calls": [{"task": "judge", "step": 1, "text": "<judge>Yes</judge>"}]}')).toEqual({
      version: 1,
      model: "m",
      calls: [{ task: "judge", step: 1, text: "<judge>Yes</judge>" }],
    });
    expect(err("{")).toMatch(/^PARSE_ERROR: rec\.json: invalid JSON/);
    expect(err('{"calls": []}')).toMatch(/^INVALID_INPUT: rec\.json: field "model"/);
    expect(err('{"model": "m", "calls": [{"task": "answer", "text": "x"}]}')).toMatch(/^INVALID_INPUT: rec\.json: field "calls\.0\.task"/);
    expect(err('{"model": "m", "calls": [{"task": "judge", "text": "x", "error": "y"}]}')).toBe(
      'INVALID_INPUT: rec.json: field "calls.0": each call needs exactly one of text or error',
    );
  });
});
