/**
 * The races of issue 12 item 1, each on its own freshly imported graph: requests fired at once
 * over HTTP, then the stored rows counted directly in the database the server writes to.
 * Each scenario returns a one-line summary or throws saying which invariant broke.
 */
import { DEFAULT_APPROVAL_POLICY } from "../lib/auth/approval-policy";
import type { RefinementAction } from "../lib/loop/types";
import { getDb } from "../lib/server/db/db";
import { loadGraph } from "../lib/server/graphs/graph-store";
import type { Answer, Client, Session } from "./http-client";
import { expectStatus } from "./http-client";

export interface RaceContext {
  client: Client;
  people: { ada: Session; rita: Session; remy: Session; mal: Session };
  graph: string;
}

export interface Scenario {
  name: string;
  run(ctx: RaceContext): Promise<string>;
}

const HIGH_CALL: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
/** What an edit swaps in: a different change nobody approved. */
const SWAPPED: RefinementAction = { type: "delete_edge", subject: "Limits", relation: "uses", object: "Headers" };
const REASON = "checked against the source files";
const TRIALS = 10;

async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  return work();
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

async function propose(ctx: RaceContext, actions: RefinementAction[]): Promise<string> {
  const res = expectStatus(await ctx.client.call<{ id: string }>(ctx.people.ada, "POST", "/api/proposals", { graph: ctx.graph, actions }), 201, "submitting a proposal");
  return res.body.id;
}

async function setPolicy(ctx: RaceContext, change: Partial<typeof DEFAULT_APPROVAL_POLICY>): Promise<void> {
  expectStatus(await ctx.client.call(ctx.people.ada, "PUT", `/api/graphs/${encodeURIComponent(ctx.graph)}/policy`, { ...DEFAULT_APPROVAL_POLICY, ...change }), 200, "setting the policy");
}

const approve = (ctx: RaceContext, who: Session, id: string, extra: Record<string, unknown> = {}) =>
  ctx.client.call<{ applied: { version: number } | null; applyError: { message: string } | null }>(who, "POST", `/api/proposals/${id}/approve`, {
    actions: [0],
    lowConfidence: true,
    reason: REASON,
    ...extra,
  });

function statusCounts(answers: Answer[]): string {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n}×${s}`).join(", ");
}

/** `count` pairs of nodes whose labels no other node has, no node in two pairs. */
async function disjointPairs(graph: string, count: number): Promise<[string, string][]> {
  const { graph: g } = await loadGraph(graph);
  const byLabel = new Map<string, number>();
  for (const n of g.nodes.values()) byLabel.set(n.label, (byLabel.get(n.label) ?? 0) + 1);
  const unique = [...g.nodes.values()].filter((n) => byLabel.get(n.label) === 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n.label));
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < unique.length && pairs.length < count; i += 2) {
    const a = unique[i];
    const b = unique[i + 1];
    if (a && b) pairs.push([a.label, b.label]);
  }
  if (pairs.length < count) throw new Error(`graph ${graph} has fewer than ${count} disjoint pairs of uniquely named nodes`);
  return pairs;
}

async function actionRow(id: string) {
  return getDb().proposalAction.findUniqueOrThrow({ where: { proposalId_index: { proposalId: id, index: 0 } }, select: { id: true, status: true, action: true, appliedIn: true } });
}

const editVersusApprove: Scenario = {
  name: "edit-vs-approve",
  async run(ctx) {
    let applied = 0;
    let edited = 0;
    // One approval applies (these invented links review LOW), so the approval races the edit to the commit.
    await setPolicy(ctx, { requiredLow: 1 });
    // A new edge per trial: one applied in an earlier trial would make the next a no-op.
    const pairs = await disjointPairs(ctx.graph, TRIALS);
    for (let trial = 0; trial < TRIALS; trial++) {
      const [subject, object] = pairs[trial] as [string, string];
      const original: RefinementAction = { type: "insert_edge", subject, relation: "calls", object };
      const id = await propose(ctx, [original]);
      // Staggered by a few milliseconds, one way or the other, so some trials hit the window
      // between the approval's read and its write (an edit re-reviews first, so it is slower).
      const lag = (trial * 13) % 60;
      await Promise.all([
        later(trial % 2 === 0 ? lag : 0, () => approve(ctx, ctx.people.rita, id, { seen: [original] })),
        later(trial % 2 === 0 ? 0 : lag, () => ctx.client.call(ctx.people.mal, "PUT", `/api/proposals/${id}/actions/0`, { action: SWAPPED })),
      ]);
      const row = await actionRow(id);
      const text = JSON.parse(row.action) as RefinementAction;
      if (row.status === "applied") {
        applied++;
        check(JSON.stringify(text) === JSON.stringify(original), `trial ${trial + 1}: the edited text was applied on an approval of the old text`);
        const changeset = await getDb().changeset.findFirstOrThrow({ where: { proposalId: id, kind: "apply" }, select: { ops: true } });
        check(!changeset.ops.includes('"Limits"'), `trial ${trial + 1}: the applied version contains the edit nobody approved`);
      } else {
        edited++;
        check(row.status === "pending" && JSON.stringify(text) === JSON.stringify(SWAPPED), `trial ${trial + 1}: action is ${row.status} with ${row.action}`);
        const live = await getDb().approval.count({ where: { actionId: row.id, kind: "approve", withdrawnAt: null, dismissedAt: null } });
        check(live === 0, `trial ${trial + 1}: ${live} approval(s) of the old text still count for the edited action`);
      }
    }
    return `${TRIALS} trials: ${applied} applied as approved, ${edited} edited first (approval refused or dismissed)`;
  },
};

const completeAtOnce: Scenario = {
  name: "complete-at-once",
  async run(ctx) {
    // One approval completes each (LOW needs one here), none touches what another changes.
    await setPolicy(ctx, { requiredLow: 1, requiredMedium: 1, requiredHigh: 1 });
    const pairs = await disjointPairs(ctx.graph, 8);
    const ids: string[] = [];
    for (const [subject, object] of pairs) ids.push(await propose(ctx, [{ type: "insert_edge", subject, relation: "calls", object }]));
    const before = (await getDb().graph.findUniqueOrThrow({ where: { name: ctx.graph }, select: { currentVersion: true } })).currentVersion;
    const answers = await Promise.all(ids.map((id, i) => approve(ctx, i % 2 === 0 ? ctx.people.rita : ctx.people.remy, id)));
    for (const [i, a] of answers.entries()) {
      check(a.status === 200, `approval ${i + 1} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
      check(a.body.applyError === null && a.body.applied !== null, `approval ${i + 1} was not applied: ${a.body.applyError?.message ?? "no version"}`);
    }
    const rows = await getDb().proposalAction.findMany({ where: { proposalId: { in: ids } }, select: { status: true } });
    const appliedCount = rows.filter((r) => r.status === "applied").length;
    check(appliedCount === ids.length, `${appliedCount} of ${ids.length} applied`);
    const after = (await getDb().graph.findUniqueOrThrow({ where: { name: ctx.graph }, select: { currentVersion: true } })).currentVersion;
    check(after === before + ids.length, `the graph moved from ${before} to ${after}, expected ${before + ids.length}`);
    const events = await getDb().auditEvent.count({ where: { action: "changeset.apply", graphName: ctx.graph } });
    check(events === ids.length, `${events} changeset.apply events for ${ids.length} versions`);
    return `${ids.length} approvals at once → ${appliedCount} applied, versions ${before}→${after}, ${events} apply events`;
  },
};

const duplicateApprovals: Scenario = {
  name: "twenty-approvals",
  async run(ctx) {
    await setPolicy(ctx, { requiredHigh: 3 });
    const id = await propose(ctx, [HIGH_CALL]);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => approve(ctx, i % 2 === 0 ? ctx.people.rita : ctx.people.remy, id)));
    const rows = await getDb().approval.count({ where: { proposalId: id } });
    const events = await getDb().auditEvent.count({ where: { action: "action.approve", targetId: `${id}#0` } });
    check(rows === 2, `${rows} approval rows, expected 2 (answers: ${statusCounts(answers)})`);
    check(events === 2, `${events} action.approve events, expected 2`);
    check(answers.filter((a) => a.status === 200).length === 2, `answers: ${statusCounts(answers)}, expected 2×200`);
    return `20 clicks by 2 people → ${rows} approval rows, ${events} audit events (${statusCounts(answers)})`;
  },
};

const vetoVersusApprove: Scenario = {
  name: "veto-vs-approve",
  async run(ctx) {
    await setPolicy(ctx, { requiredHigh: 2 });
    let bothActive = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const id = await propose(ctx, [HIGH_CALL]);
      await Promise.all([approve(ctx, ctx.people.rita, id), ctx.client.call(ctx.people.remy, "POST", `/api/proposals/${id}/reject`, { actions: [0], reason: REASON })]);
      const live = await getDb().approval.findMany({ where: { proposalId: id, withdrawnAt: null, dismissedAt: null }, select: { kind: true } });
      if (live.some((l) => l.kind === "approve") && live.some((l) => l.kind === "reject")) bothActive++;
      const row = await actionRow(id);
      check(row.status === "rejected", `trial ${trial + 1}: the vetoed action is ${row.status}`);
    }
    check(bothActive === 0, `${bothActive} of ${TRIALS} trials left a veto and an approval both active`);
    return `${TRIALS} trials: never both active`;
  },
};

const noDeadEnd: Scenario = {
  name: "no-dead-end",
  async run(ctx) {
    // A name several nodes share: two people approving at once must not leave "2 of 2, waiting".
    const { graph } = await loadGraph(ctx.graph);
    const count = new Map<string, number>();
    for (const n of graph.nodes.values()) count.set(n.label, (count.get(n.label) ?? 0) + 1);
    const shared = [...count].find(([, n]) => n > 1)?.[0];
    if (!shared) throw new Error(`graph ${ctx.graph} has no label shared by two nodes`);
    const id = await propose(ctx, [{ type: "insert_edge", subject: shared, relation: "calls", object: "Client" }]);
    const answers = await Promise.all([approve(ctx, ctx.people.rita, id), approve(ctx, ctx.people.remy, id)]);
    for (const a of answers) check(a.status === 409 && a.body.error?.refusal === "CANNOT_APPLY" && a.body.error.cause === "AMBIGUOUS_NAME", `answered ${a.status} ${JSON.stringify(a.body.error ?? a.body).slice(0, 200)}`);
    const rows = await getDb().approval.count({ where: { proposalId: id } });
    check(rows === 0, `${rows} approval(s) recorded for an action that cannot apply`);
    return `2 approvals of an ambiguous action → ${statusCounts(answers)} CANNOT_APPLY/AMBIGUOUS_NAME, ${rows} rows`;
  },
};

export const SCENARIOS: Scenario[] = [editVersusApprove, completeAtOnce, duplicateApprovals, vetoVersusApprove, noDeadEnd];
