import Link from "next/link";
import type { ApprovalMode } from "@/lib/auth/approval-policy";
import type { QueueRow } from "./queue-rows";

function policyHref(graph: string): string {
  return `/graphs/${encodeURIComponent(graph)}/policy`;
}

function PolicyLinks({ graphs }: { graphs: string[] }) {
  if (graphs.length === 1 && graphs[0]) {
    return (
      <Link href={policyHref(graphs[0])} prefetch={false} data-testid="queue-mode-policy">
        Policy
      </Link>
    );
  }
  return (
    <>
      Policy of{" "}
      {graphs.map((g, i) => (
        <span key={g}>
          {i > 0 ? ", " : null}
          <Link href={policyHref(g)} prefetch={false} data-testid="queue-mode-policy">
            {g}
          </Link>
        </span>
      ))}
    </>
  );
}

/**
 * Which approval rules apply, said once above the queue: solo (fewer than two people may
 * approve: your own runs are yours to approve, one approval applies, LOW still asks why) or team
 * (the graph's policy as saved). Graphs are grouped by mode, each linked to its Policy tab.
 * `rows`: the pending rows of the graphs in view (the graph filter narrows it to one).
 */
export function QueueMode({ rows }: { rows: QueueRow[] }) {
  const byMode = new Map<ApprovalMode, Set<string>>();
  for (const r of rows) {
    const set = byMode.get(r.mode) ?? new Set<string>();
    set.add(r.graph);
    byMode.set(r.mode, set);
  }
  const solo = [...(byMode.get("solo") ?? [])].sort();
  const team = [...(byMode.get("team") ?? [])].sort();
  const several = solo.length > 0 && team.length > 0;
  const dutiesOff = new Set(rows.filter((r) => r.mode === "team" && !r.policy.separateDuties).map((r) => r.graph));
  if (solo.length === 0 && team.length === 0) return null;
  return (
    <div className="notice queue-mode" role="note" data-testid="queue-mode" data-mode={several ? "mixed" : solo.length > 0 ? "solo" : "team"}>
      {solo.length > 0 ? (
        <p data-testid="queue-mode-solo">
          <strong>Solo mode{several ? ` on ${solo.join(", ")}` : ""}:</strong> you can approve your own runs — a second reviewer turns on team rules. One
          approval applies; LOW still needs a written reason. <PolicyLinks graphs={solo} />
        </p>
      ) : null}
      {team.length > 0 ? (
        <p data-testid="queue-mode-team">
          <strong>Team rules{several ? ` on ${team.join(", ")}` : ""}:</strong> each action needs the approvals its graph&apos;s policy asks for
          {dutiesOff.size === 0
            ? ", from people other than whoever started its run or submitted it"
            : dutiesOff.size === team.length
              ? " (separation of duties is off: people may approve their own runs)"
              : ` (separation of duties is off on ${[...dutiesOff].sort().join(", ")})`}
          . <PolicyLinks graphs={team} />
        </p>
      ) : null}
    </div>
  );
}
