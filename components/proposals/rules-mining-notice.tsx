"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { madeWithoutRules } from "@/lib/review/rules-not-ready";
import { discussionKeys } from "../api/proposal-discussion";
import type { ProposalDetails } from "../api/proposal-types";

/**
 * Said while a pending action's review was made before the base version's graph rules were mined:
 * how far mining is, and that the reviews will be made again by themselves (the page polls; see
 * lib/server/proposals/re-review-after-mining.ts). When they have been, the timeline is refreshed
 * so that its "reviewed again" entries show.
 */
export function RulesMiningNotice({ proposal }: { proposal: ProposalDetails }) {
  const mining = proposal.rulesMining;
  const queryClient = useQueryClient();
  const was = useRef(mining !== null);
  useEffect(() => {
    if (was.current && mining === null) void queryClient.invalidateQueries({ queryKey: discussionKeys.timeline(proposal.id) });
    was.current = mining !== null;
  }, [mining, proposal.id, queryClient]);
  if (!mining) return null;
  const waiting = proposal.actions.filter((a) => a.status === "pending" && madeWithoutRules(a.review)).length;
  const which = `${waiting === 1 ? "1 action was" : `${waiting} actions were`} reviewed before the graph rules of version ${proposal.baseVersion} were mined (no path-rule, signature or functional evidence yet)`;
  if (mining.state === "failed") {
    return (
      <div className="alert alert--warning" role="status" data-testid="rules-mining" data-state="failed">
        <span className="alert__message">
          {which}. Mining them failed{mining.error ? `: ${mining.error}` : ""}, so these reviews stay as they are: weigh their labels knowing the graph's rules were not read.
        </span>
      </div>
    );
  }
  return (
    <div className="alert alert--warning" role="status" aria-live="polite" data-testid="rules-mining" data-state={mining.state}>
      <span className="alert__message">
        {which}.{" "}
        {mining.state === "mining" ? `Mining: ${Math.round(mining.progress * 100)}%. ` : mining.error ? `Mined, but ${mining.error}. ` : "Mined: reviewing them again now. "}
        Their labels update on this page by themselves; approvals given on a label that changes are dismissed.
      </span>
    </div>
  );
}
