/**
 * The Ask API's shapes as the browser sees them: the server's own types, imported as types only
 * (the ESLint rule lets components take types, nothing else, from lib/server).
 */
export type { AskAnswer, AskPassage, AskToolCall, AskTrace, PlanStep } from "@/lib/ask/types";
export type { Step1Retrieval } from "@/lib/loop/types";
export type { AskDetails, AskRowStatus, AskSummary } from "@/lib/server/asks/asks";
export type { AskAgainResult } from "@/lib/server/asks/ask-again";
export type { LoopSettings } from "@/lib/server/runs/loop-settings";
export type { StepAnswer as RunStepAnswer } from "@/lib/server/runs/step-answer";
