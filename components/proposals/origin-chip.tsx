import type { ProposalOrigin } from "../api/proposal-types";

/** What the origin chip needs of a proposal (or of a queue row, which copies these fields). */
export interface OriginOf {
  origin: ProposalOrigin;
  agentName: string | null;
  agentModel: string | null;
  submittedByName: string | null;
}

export const ORIGIN_LABELS: Record<ProposalOrigin, string> = { person: "Person", agent: "Agent", cli: "Command line", campaign: "Campaign" };

/** The chip's words: the kind, then who (the agent and model it said it was, or the person). */
export function originText(p: OriginOf): string {
  if (p.origin === "agent") {
    const who = [p.agentName, p.agentModel].filter(Boolean).join(" · ");
    return who ? `Agent · ${who}` : "Agent";
  }
  return ORIGIN_LABELS[p.origin];
}

/** The longer sentence in the tooltip: whose token it came through, and that the names are the agent's own claim. */
export function originTitle(p: OriginOf): string {
  const by = p.submittedByName ? ` by ${p.submittedByName}` : "";
  switch (p.origin) {
    case "agent":
      return `Submitted${by} through an API token (an agent or a script)${p.agentName || p.agentModel ? `; the agent says it is ${[p.agentName, p.agentModel].filter(Boolean).join(", ")}` : ""}. Its owner counts as the submitter.`;
    case "person":
      return `Submitted or run${by} in the browser`;
    case "cli":
      return "From the command line (a refinement file or a local run)";
    case "campaign":
      return `Proposed by a campaign${by}`;
  }
}

/** Where a proposal came from, on a queue row and on the proposal page. */
export function OriginChip({ of }: { of: OriginOf }) {
  return (
    <span className={`origin-chip origin-chip--${of.origin}`} title={originTitle(of)} data-testid="origin-chip" data-origin={of.origin}>
      {originText(of)}
    </span>
  );
}
