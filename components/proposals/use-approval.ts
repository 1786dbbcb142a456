"use client";

import { useCallback, useState } from "react";
import { useApplyProposal } from "../api/apply-proposal";
import type { ApplyResult } from "../api/proposal-types";
import { useSingleFlight } from "../ui/use-single-flight";
import type { ApprovalTarget } from "./approval-types";

export interface ApprovalOutcome {
  target: ApprovalTarget;
  result: ApplyResult;
}

/**
 * Approving, the only path by which a proposal reaches the graph: a person's click or key
 * press calls `approve`. HIGH and MEDIUM apply at once; any LOW action first opens the
 * confirmation (`lowPrompt`), and only its confirm sends the acceptance. One request at a time.
 */
export function useApproval() {
  const apply = useApplyProposal();
  // The mutation object is new on every render; its functions are stable.
  const { mutateAsync, reset } = apply;
  const once = useSingleFlight();
  const [lowPrompt, setLowPrompt] = useState<ApprovalTarget | null>(null);
  const [outcome, setOutcome] = useState<ApprovalOutcome | null>(null);

  const run = useCallback(
    (target: ApprovalTarget, lowConfidenceReason?: string) =>
      once(async () => {
        const result = await mutateAsync({
          proposalId: target.proposalId,
          graph: target.graph,
          actions: target.items.map((i) => i.index),
          lowConfidenceReason,
        });
        setLowPrompt(null);
        setOutcome({ target, result });
      }),
    [mutateAsync, once],
  );

  const approve = useCallback(
    (target: ApprovalTarget) => {
      if (target.items.length === 0) return;
      reset();
      if (target.items.some((i) => i.confidence === "LOW")) setLowPrompt(target);
      else run(target);
    },
    [reset, run],
  );

  return {
    approve,
    lowPrompt,
    confirmLow: (reason: string) => {
      if (lowPrompt) run(lowPrompt, reason);
    },
    cancelLow: () => {
      setLowPrompt(null);
      reset();
    },
    outcome,
    clearOutcome: () => setOutcome(null),
    isPending: apply.isPending,
    error: apply.error,
  };
}

export type Approval = ReturnType<typeof useApproval>;
