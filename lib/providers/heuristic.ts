/**
 * The `heuristic` provider: deterministic, offline, rule-based, and not an LLM. It ignores the
 * prompt messages and answers each task from the structured facts in `request.context`, in the
 * tag format of the DeepRefine prompts, every answer opening with a one-line note that says
 * what it is (parsers find the tag anywhere in the text).
 *
 * - judge: `judgeAnswerable` (heuristic/judge.ts): the question's entities are in the triples
 *   and connected there by a relation that matches the question's words.
 * - abduction: `abduceErrors` (heuristic/abduce.ts): missing, unretrieved and disconnected
 *   entities; near-duplicate nodes, ambiguous names, conflicts; duplicate and repeated edges.
 * - refinement: `proposeRefinements` (heuristic/refine.ts): inserts only from passages that
 *   state them, merges of near-duplicates that are plausibly one thing (heuristic/merge-evidence.ts),
 *   and duplicate clean-up only (a delete of an edge stored several times keeps one copy); on
 *   code graphs, inserts the source code states and deletes of extracted edges it contradicts
 *   (heuristic/code-evidence-edits.ts).
 * Question entities are found by `findQuestionEntities` (heuristic/question-entities.ts).
 */
import { AppError } from "../errors";
import type { CompletionRequest, CompletionResult, LlmProvider, RefinementAction, TaskContext } from "../loop/types";
import { abduceErrors } from "./heuristic/abduce";
import { judgeAnswerable } from "./heuristic/judge";
import { planRefinements } from "./heuristic/refine";

export {
  abduceErrors,
  type AbductionFindings,
  type ApartPair,
  type AbductionOptions,
  collectAbductionFindings,
  findCloseNames,
  findDuplicateCandidates,
  findDuplicateEdges,
  findDuplicatePairs,
  isFunctionalRelation,
} from "./heuristic/abduce";
export { findNearDuplicates, nameFor, type NearDuplicate } from "./heuristic/graph-index";
export { judgeAnswerable, type JudgeOptions, type JudgeVerdict } from "./heuristic/judge";
export { findQuestionEntities, type QuestionEntities, type QuestionMention } from "./heuristic/question-entities";
export { compareKinds, judgeMerge, type MergeJudgement, nameMatchOf } from "./heuristic/merge-evidence";
export { planRefinements, proposeRefinements, type RefinementOptions, type Refinements } from "./heuristic/refine";
export { connectingPhrase } from "./heuristic/text";

export const HEURISTIC_MODEL = "heuristic-v1";
export const HEURISTIC_NOTE = "[heuristic provider: rule-based, not an LLM]";

export interface HeuristicProviderOptions {
  /** Most insert_edge actions per refinement, within the run's maxActions (default 3). */
  maxInserts?: number;
}

/** `"…"` with `"` and `\` escaped by a backslash, as the action grammar reads them. */
export function quoteActionArgument(value: string): string {
  return `"${value.replace(/[\r\n]+/g, " ").replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function formatAction(action: RefinementAction): string {
  switch (action.type) {
    case "insert_edge":
    case "delete_edge":
      return `${action.type}(${quoteActionArgument(action.subject)}, ${quoteActionArgument(action.relation)}, ${quoteActionArgument(action.object)})`;
    case "replace_node":
      return `replace_node(${quoteActionArgument(action.old)}, ${quoteActionArgument(action.new)})`;
  }
}

export function formatRefinement(actions: readonly RefinementAction[]): string {
  return `<refinement>${actions.map(formatAction).join("|")}</refinement>`;
}

/** A free-text line outside the tags: no angle brackets, so it cannot open or close a tag. */
function plainLine(text: string): string {
  return text.replace(/[<>]/g, (c) => (c === "<" ? "‹" : "›")).replace(/\s+/g, " ").trim();
}

/** The provider's answer to one task, note line first. Pure: same context, same text. */
export function answerHeuristically(context: TaskContext, options: HeuristicProviderOptions = {}): string {
  switch (context.task) {
    case "judge": {
      const verdict = judgeAnswerable(context);
      return `${HEURISTIC_NOTE} ${plainLine(verdict.reason)}\n<judge>${verdict.answerable ? "Yes" : "No"}</judge>`;
    }
    case "abduction": {
      const { text } = abduceErrors(context);
      return `${HEURISTIC_NOTE}\n<abduction>${text}</abduction>`;
    }
    case "refinement": {
      const { actions, notes } = planRefinements({ ...context, maxInserts: options.maxInserts });
      const summary = actions.length === 0 ? "no evidence-backed edit found" : `${actions.length} evidence-backed edit${actions.length === 1 ? "" : "s"}`;
      const why = actions.flatMap((a) => {
        const note = notes.get(a);
        return note ? [`- ${plainLine(formatAction(a))}: ${plainLine(note)}\n`] : [];
      });
      return `${HEURISTIC_NOTE} ${summary}\n${why.join("")}${formatRefinement(actions)}`;
    }
  }
}

export function createHeuristicProvider(options: HeuristicProviderOptions = {}): LlmProvider {
  return {
    name: "heuristic",
    model: HEURISTIC_MODEL,
    isLlm: false,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      request.signal?.throwIfAborted();
      if (request.task !== request.context.task) {
        throw new AppError("INVALID_INPUT", `task "${request.task}" does not match its context ("${request.context.task}")`);
      }
      return { text: answerHeuristically(request.context, options), model: HEURISTIC_MODEL };
    },
  };
}
