"use client";

import { useCallback, useState } from "react";
import type { ApproveActionsResult } from "../api/approve-actions";
import { useApproveActions } from "../api/approve-actions";
import type { ApplyResult } from "../api/proposal-types";
import { useSingleFlight } from "../ui/use-single-flight";
import type { ApprovalTarget } from "./approval-types";

export interface ApprovalOutcome {
  target: ApprovalTarget;
  result: ApplyResult;
}

/** An approval that was recorded but did not complete the policy (or could not apply). */
export interface RecordedApproval {
  target: ApprovalTarget;
  result: ApproveActionsResult;
}

/**
 * Approving under the graph's policy: a person's click or key press calls `approve`. The server
 * records the approval and applies only when it completes the policy; any LOW action first opens
 * the confirmation (`lowPrompt`), and only its confirm sends the acceptance with the reason.
 * One request at a time.
 */
export function useApproval() {
  const mutation = useApproveActions();
  // The mutation object is new on every render; its functions are stable.
  const { mutateAsync, reset } = mutation;
  const once = useSingleFlight();
  const [lowPrompt, setLowPrompt] = useState<ApprovalTarget | null>(null);
  const [outcome, setOutcome] = useState<ApprovalOutcome | null>(null);
  const [recorded, setRecorded] = useState<RecordedApproval | null>(null);

  const run = useCallback(
    (target: ApprovalTarget, reason?: string) =>
      once(async () => {
        const result = await mutateAsync({
          proposalId: target.proposalId,
          graph: target.graph,
          actions: target.items.map((i) => i.index),
          seen: target.items.map((i) => i.action),
          ...(reason !== undefined ? { reason, lowConfidence: true } : {}),
        });
        setLowPrompt(null);
        if (result.applied) {
          setRecorded(null);
          setOutcome({ target, result: result.applied });
        } else {
          setOutcome(null);
          setRecorded({ target, result });
        }
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
    recorded,
    clearOutcome: () => {
      setOutcome(null);
      setRecorded(null);
    },
    isPending: mutation.isPending,
    error: mutation.error,
  };
}

export type Approval = ReturnType<typeof useApproval>;
