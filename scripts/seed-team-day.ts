/**
 * `npm run demo:team-day`: a realistic team day on the demo graph, played through the real
 * server functions (accounts, sign-in, tokens, runs, proposals, approvals under the policy,
 * vetoes, comments, stale-approval dismissal, policy change) and, where the audit is written by
 * the route itself (queued questions, revert, sign-out), the route handler with real
 * credentials. It needs a fresh database, because it creates the first admin:
 *
 *   DATABASE_URL=file:/tmp/team-day.db npm run demo:team-day [-- --day 2026-11-30]
 *
 * The audit log is what this is for, so its events are stamped on a working day's clock
 * (default: yesterday, in this machine's zone); the rows they describe keep their real times.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Actor } from "../lib/auth/permissions";
import { DEFAULT_APPROVAL_POLICY } from "../lib/auth/approval-policy";
import { addDays, dayKeyIn, startOfDayIn } from "../lib/audit/zoned-time";
import type { RefinementAction } from "../lib/loop/types";
import { approveActions } from "../lib/server/approvals/approvals";
import { rejectActions, withdrawDecision } from "../lib/server/approvals/approvals-veto";
import { createApiToken } from "../lib/server/auth/create-api-token";
import { createFirstAdmin } from "../lib/server/auth/create-first-admin";
import { createUser } from "../lib/server/auth/create-user";
import { getTokenActor } from "../lib/server/auth/get-token-actor";
import { signIn } from "../lib/server/auth/sign-in";
import type { SignedIn } from "../lib/server/auth/sign-in";
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from "../lib/server/auth/session-cookies";
import { createComment } from "../lib/server/approvals/comments";
import { getDb } from "../lib/server/db/db";
import { getGraphRecord } from "../lib/server/graphs/graph-store";
import { importGraphFromPath } from "../lib/server/graphs/import-graph";
import { updateApprovalPolicy } from "../lib/server/policies/policies";
import { createProposal, reviewForGraph } from "../lib/server/proposals/proposals";
import { recordImport } from "../lib/server/graphs/record-import";
import { startRun } from "../lib/server/runs/runs";
import { POST as addQuestionsRoute } from "../app/api/graphs/[name]/questions/route";
import { POST as revertRoute } from "../app/api/graphs/[name]/versions/[version]/revert/route";
import { POST as logoutRoute } from "../app/api/auth/logout/route";

const root = path.resolve(import.meta.dirname, "..");
export const TEAM_DAY_GRAPH = "httpx-demo";
const PASSWORD = "team-day demo password";

export interface SeedTeamDayOptions {
  /** `YYYY-MM-DD`; default yesterday in `timeZone`. */
  day?: string;
  timeZone?: string;
  log?: (line: string) => void;
}

export interface SeedTeamDayResult {
  day: string;
  timeZone: string;
  events: number;
  proposalId: string;
}

/** The agent's proposal: two HIGH, a MEDIUM and two LOW actions on the demo graph (labels by the real review). */
const AGENT_ACTIONS: RefinementAction[] = [
  { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" },
  { type: "delete_edge", subject: "Timeout", relation: "uses", object: "URL" },
  { type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" },
  { type: "insert_edge", subject: "Client", relation: "calls", object: "RetryPolicy" },
  { type: "replace_node", old: "Timeout", new: "TimeoutConfig" },
];

const QUESTIONS = ["What does Client inherit from?", "Which exceptions can HTTPTransport raise?", "How does DigestAuth build the Authorization header?"];

function browserHeaders(session: SignedIn, ip: string): Record<string, string> {
  return {
    cookie: `${SESSION_COOKIE}=${session.cookies.secret}; ${CSRF_COOKIE}=${session.cookies.csrfToken}`,
    [CSRF_HEADER]: session.cookies.csrfToken,
    "x-forwarded-for": ip,
    "content-type": "application/json",
  };
}

async function expectOk(response: Response, what: string): Promise<void> {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${await response.text()}`);
}

export async function seedTeamDay(options: SeedTeamDayOptions = {}): Promise<SeedTeamDayResult> {
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const day = options.day ?? addDays(dayKeyIn(new Date(), timeZone), -1);
  const log = options.log ?? (() => undefined);
  const db = getDb();
  if ((await db.user.count()) > 0 || (await db.auditEvent.count()) > 0) {
    throw new Error("the team day needs a fresh database (it creates the first admin): set DATABASE_URL to a new file");
  }
  const dayStart = startOfDayIn(day, timeZone).getTime();
  let stamped = 0;
  /** Put the events written since the last call at this time of the day, a few seconds apart. */
  const at = async (clock: string, what: string) => {
    const [hours, minutes] = clock.split(":").map(Number);
    const base = dayStart + ((hours ?? 0) * 60 + (minutes ?? 0)) * 60_000;
    const fresh = await db.auditEvent.findMany({ where: { id: { gt: stamped } }, orderBy: { id: "asc" }, select: { id: true } });
    for (const [i, row] of fresh.entries()) await db.auditEvent.update({ where: { id: row.id }, data: { at: new Date(base + i * 4_000) } });
    stamped = fresh.at(-1)?.id ?? stamped;
    log(`${clock}  ${what}${fresh.length === 0 ? "  (no audit event!)" : ""}`);
  };

  // 08:50 set-up: the first admin, the demo graph, the team, the agent's token.
  await createFirstAdmin({ username: "ada", displayName: "Ada Lovelace", password: PASSWORD, ip: "10.0.0.10" });
  await at("08:50", "ada creates the first admin account");
  const ada = await signIn({ username: "ada", password: PASSWORD, ip: "10.0.0.10" });
  await at("08:51", "ada signs in");
  const report = await importGraphFromPath({ path: path.join(root, "demo", "httpx"), name: TEAM_DAY_GRAPH, actor: ada.actor });
  await recordImport(ada.actor, report);
  await at("08:53", `ada imports ${TEAM_DAY_GRAPH}`);
  await createUser({ actor: ada.actor, username: "rita", displayName: "Rita Moreno", password: PASSWORD, role: "reviewer", ip: "10.0.0.10" });
  await createUser({ actor: ada.actor, username: "sam", displayName: "Sam Okafor", password: PASSWORD, role: "reviewer", ip: "10.0.0.10" });
  await createUser({ actor: ada.actor, username: "vera", displayName: "Vera Lind", password: PASSWORD, role: "viewer", ip: "10.0.0.10" });
  await at("08:56", "ada creates rita and sam (reviewers) and vera (viewer)");
  const { secret } = await createApiToken({ actor: ada.actor, name: "triage-agent", scope: "propose", ip: "10.0.0.10" });
  await at("08:58", "ada creates a propose token for the triage agent");
  const agent: Actor | null = await getTokenActor({ secret });
  if (!agent) throw new Error("the new token does not authenticate");

  // 09:00 the team arrives; vera mistypes her password once.
  const rita = await signIn({ username: "rita", password: PASSWORD, ip: "10.0.0.21" });
  await at("09:02", "rita signs in");
  await signIn({ username: "vera", password: "tea-day demo pasword", ip: "10.0.0.33" }).catch(() => undefined);
  await at("09:04", "vera fails to sign in");
  await signIn({ username: "vera", password: PASSWORD, ip: "10.0.0.33" });
  await at("09:05", "vera signs in");
  const sam = await signIn({ username: "sam", password: PASSWORD, ip: "10.0.0.22" });
  await at("09:08", "sam signs in");

  // 09:10 the agent queues questions and runs them (heuristic provider: offline, not an LLM).
  const agentHeaders = { authorization: `Bearer ${secret}`, "content-type": "application/json", "x-forwarded-for": "10.0.0.99" };
  const queued = await addQuestionsRoute(new Request(`http://localhost/api/graphs/${TEAM_DAY_GRAPH}/questions`, { method: "POST", headers: agentHeaders, body: JSON.stringify({ questions: QUESTIONS }) }), {
    params: Promise.resolve({ name: TEAM_DAY_GRAPH }),
  });
  await expectOk(queued, "queue questions");
  await at("09:10", "the agent queues three questions");
  for (const [i, question] of QUESTIONS.slice(0, 2).entries()) {
    const started = await startRun({ graph: TEAM_DAY_GRAPH, question, provider: "heuristic", actor: agent });
    await started.done;
    await at(`09:1${2 + i * 3}`, `the agent runs "${question}"`);
  }

  // 09:30 the agent submits a refinement proposal.
  const record = await getGraphRecord(TEAM_DAY_GRAPH);
  const reviews = await reviewForGraph({ graph: TEAM_DAY_GRAPH, actions: AGENT_ACTIONS });
  const proposalId = await createProposal({
    graph: TEAM_DAY_GRAPH,
    baseVersion: record.currentVersion,
    source: "api",
    question: "How does Client send a request, and with which timeout?",
    actions: AGENT_ACTIONS,
    reviews,
    submittedBy: agent,
  });
  await at("09:30", `the agent submits proposal ${proposalId} (${reviews.map((r) => r.confidence).join(", ")})`);

  // Morning review.
  await createComment({ proposalId, actionIndex: 3, actor: rita.actor, body: "There is no RetryPolicy class in the code. Where does this come from?" });
  await at("09:41", "rita asks about action 4");
  await approveActions({ proposalId, actionIndexes: [0], actor: rita.actor });
  await at("09:44", "rita approves action 1 (HIGH): applied");
  await approveActions({ proposalId, actionIndexes: [4], actor: rita.actor, reason: "Timeout is a configuration object; the new name says so", lowConfidenceConfirmed: true });
  await at("09:52", "rita approves action 5 (LOW), 1 of 2");
  await rejectActions({ proposalId, actionIndexes: [3], actor: sam.actor, reason: "no RetryPolicy in httpx: looks invented" });
  await at("10:05", "sam vetoes action 4");
  await createComment({ proposalId, actionIndex: 3, actor: agent, body: "Retries happen in HTTPTransport.handle_request; RetryPolicy names that loop as a concept." });
  await at("10:18", "the agent answers on action 4");
  await withdrawDecision({ proposalId, actionIndex: 3, actor: sam.actor });
  await at("10:31", "sam withdraws his veto");
  await approveActions({ proposalId, actionIndexes: [1], actor: sam.actor });
  await at("11:10", "sam approves action 2 (HIGH): applied; rita's approval of action 5 is dismissed as stale");

  // After lunch: policy change, a LOW needing two people, a rejection, a revert.
  await updateApprovalPolicy({ graph: TEAM_DAY_GRAPH, actor: ada.actor, policy: { ...DEFAULT_APPROVAL_POLICY, requiredMedium: 2 } });
  await at("13:05", "ada: MEDIUM now needs two approvals");
  await approveActions({ proposalId, actionIndexes: [3], actor: rita.actor, reason: "agreed with Sam: names the retry loop in transports", lowConfidenceConfirmed: true });
  await at("13:40", "rita approves action 4 (LOW), 1 of 2");
  const second = await approveActions({ proposalId, actionIndexes: [3], actor: sam.actor, reason: "ok as a concept node; revisit if it confuses people", lowConfidenceConfirmed: true });
  await at("13:52", "sam approves action 4 (LOW), 2 of 2: applied");
  await rejectActions({ proposalId, actionIndexes: [2], actor: sam.actor, reason: "Client already inherits BaseClient (EDGE_EXISTS)" });
  await at("14:20", "sam rejects action 3 (MEDIUM)");
  const version = second.applied?.version;
  if (version === undefined) throw new Error("the second LOW approval did not apply");
  const reverted = await revertRoute(new Request(`http://localhost/api/graphs/${TEAM_DAY_GRAPH}/versions/${version}/revert`, { method: "POST", headers: browserHeaders(ada, "10.0.0.10"), body: "{}" }), {
    params: Promise.resolve({ name: TEAM_DAY_GRAPH, version: String(version) }),
  });
  await expectOk(reverted, "revert");
  await at("15:10", `ada reverts version ${version} after the review meeting`);
  const out = await logoutRoute(new Request("http://localhost/api/auth/logout", { method: "POST", headers: browserHeaders(rita, "10.0.0.21"), body: "{}" }));
  await expectOk(out, "sign out");
  await at("17:32", "rita signs out");

  return { day, timeZone, events: await db.auditEvent.count(), proposalId };
}

async function main(): Promise<void> {
  const dayFlag = process.argv.indexOf("--day");
  const day = dayFlag >= 0 ? process.argv[dayFlag + 1] : undefined;
  if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error("--day takes YYYY-MM-DD");
  process.chdir(root);
  const result = await seedTeamDay({ day, log: (line) => console.log(line) });
  console.log(`\n${result.events} audit events on ${result.day} (${result.timeZone}). Sign in as ada, rita, sam or vera with the password "${PASSWORD}".`);
  console.log("See them at /audit (npm run build && npm start with the same DATABASE_URL) or with: npx refinery audit --since " + result.day);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`team day: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
