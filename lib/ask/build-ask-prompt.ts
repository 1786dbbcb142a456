/**
 * The Graph-RFT prompt (seed 002), worded as the seed's template: reason inside <think> by
 * Descartes' principles, write the <plan> of SearchKG sub-problems and logic functions, then
 * execute it with the retrieval tools, one call per turn, and give the <answer>.
 *
 * Deviations from the seed, each because our executor needs it: the seed's typos in tags
 * (`<think> and <think>`, `<relation_informations>`, `<web_search>, r,/web_search`) are written
 * as the tags the parser accepts; the model is told to stop after each tool call (the executor
 * appends the result and asks for the next turn), and that `Ans_i` may stand for an earlier
 * sub-problem's answer set in a tool call.
 */
import type { ChatMessage } from "../loop/types";

export const ASK_SYSTEM_PROMPT = `Given the question, you must conduct reasoning step by step with a priority logical relationship in accordance with Descartes' Principles inside <think> and </think>, which enables the system to start from the most basic sub-problems that do not rely on any prior information. As each sub-problem is solved, its answer will serve as the background basis for subsequent retrieval, thereby guiding the handling of more dependent sub-problems step by step. After thinking the whole reasoning process, you must give the plan process inside <plan> and </plan>, which encompass each step's problem and the logic functions of them, one per line. The functions are as follows:

Sub-problem search function:
Ans1 = SearchKG(t=target_type | h=topic_entity, r=relation_type of h and t) describes, given the topic entity and relation of the topic entity and target type in a sub-problem, that you will use the KG retrieval tool to find the answer. If the sub-problem needs a predefined sub-problem's answer, use Ans2 = SearchKG(t=target_type | h=Ans1, r=relation_type of h and t) to plan the sequential relationship of sub-problems.

Sub-problem logic functions:
Ans3 = Intersect(Ans1, Ans2, ...) describes the intersection of the answers of the sub-problems.
Ans3 = Union(Ans1, Ans2, ...) describes the union of the answers of the sub-problems.
Ans3 = Negation(Ans1, Ans2, ...) represents removing all elements from the answer of the first sub-problem (the main set) that match Ans2, ..., and returns a new set that does not contain them.

After planning the whole process, you start with the first step. If you need to search in the KG when SearchKG exists, you must first call <relation_search> h, r </relation_search>, and it will return the top 15 relevant relations of h for you to select from based on the sub-problem within <relation_information> and </relation_information>. If there is no relevant relation, you can call a web search engine by <web_search> query </web_search>. After getting the relation, you must second call a neighbor search engine by <neighbor_search> h, r </neighbor_search> and it will search the neighbors of the entity with the specified relation in the KG between <neighbor_information> and </neighbor_information>. In a tool call, h may be an entity name or Ans1 (the answer set of an earlier sub-problem), and r must be one of the relations returned by relation_search. If there is no neighbor information, you can call a web search engine by <web_search> query </web_search>, and it will return the top searched results between <web_information> and </web_information>.

Make exactly one tool call per turn and then stop writing: the result will be given to you. You can search based on the plan process; if you find no further external knowledge is needed, you can directly pass the answer inside <answer> and </answer>: the answer entities' names exactly as the KG writes them, separated by "; ", best first.`;

export interface BuildAskPromptOptions {
  question: string;
}

/** The first two messages of an ask: the protocol, then the question. */
export function buildAskPrompt({ question }: BuildAskPromptOptions): ChatMessage[] {
  return [
    { role: "system", content: ASK_SYSTEM_PROMPT },
    { role: "user", content: `Question: ${question.trim()}` },
  ];
}

/** The corrective message after output the parser rejected: what was wrong and what is expected. */
export function buildAskCorrection({ problem }: { problem: string }): string {
  return `Your last reply could not be used: ${problem}. Reply again following the protocol: if you have not written it yet, <think>…</think> and <plan>…</plan>; then exactly one of <relation_search> h, r </relation_search>, <neighbor_search> h, r </neighbor_search>, <web_search> query </web_search>, or the final <answer>…</answer>.`;
}
