/**
 * The audit log made readable: events grouped by day, one line each
 * ("09:14 alice approved insert_edge(…) (1 of 2) · graph httpx"), the actor's kind when it is
 * not a person in a browser, links to what an event concerns, and the action filter's groups.
 * Pure: the page, the CLI and the tests share it.
 */
import type { AuditActorKind, AuditEventView } from "./types";
import { clockTimeIn, dayKeyIn } from "./zoned-time";

export interface AuditDay {
  /** `YYYY-MM-DD` in the display zone. */
  key: string;
  /** "Monday 30 November 2026". */
  label: string;
  events: AuditEventView[];
}

const dayLabelFormat = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" });

export function formatAuditDayLabel(dayKey: string): string {
  // Noon UTC of the key's own date: the label never shifts with the viewer's zone.
  return dayLabelFormat.format(new Date(`${dayKey}T12:00:00Z`)).replace(",", "");
}

export function formatAuditTime(event: Pick<AuditEventView, "at">, timeZone: string): string {
  return clockTimeIn(new Date(event.at), timeZone);
}

/** Consecutive events of one day together, in the order given (newest first from the server). */
export function groupAuditEventsByDay(events: readonly AuditEventView[], timeZone: string): AuditDay[] {
  const days: AuditDay[] = [];
  for (const event of events) {
    const key = dayKeyIn(new Date(event.at), timeZone);
    const last = days.at(-1);
    if (last && last.key === key) last.events.push(event);
    else days.push({ key, label: formatAuditDayLabel(key), events: [event] });
  }
  return days;
}

/** "via token", "CLI", "system"; null for a person signed in with a browser. */
export function actorKindLabel(kind: AuditActorKind): string | null {
  switch (kind) {
    case "token":
      return "via token";
    case "cli":
      return "CLI";
    case "system":
      return "system";
    default:
      return null;
  }
}

/** The actor's name without the kind, which is shown beside it (actorLabel appends " via token"). */
export function actorDisplayName(event: Pick<AuditEventView, "actorKind" | "actorName">): string {
  return event.actorKind === "token" ? event.actorName.replace(/ via token$/, "") : event.actorName;
}

/** Who, with how in parentheses unless a person in a browser or the name says it already ("system"). */
export function formatAuditActor(event: Pick<AuditEventView, "actorKind" | "actorName">): string {
  const kind = actorKindLabel(event.actorKind);
  const name = actorDisplayName(event);
  return kind && kind.toLowerCase() !== name.toLowerCase() ? `${name} (${kind})` : name;
}

/** One readable line: time, who (and how, unless a person in a browser), the sentence, the graph. */
export function formatAuditLine(event: AuditEventView, timeZone: string): string {
  const who = formatAuditActor(event);
  const graph = event.graphName ? ` · graph ${event.graphName}` : "";
  return `${formatAuditTime(event, timeZone)} ${who} ${event.summary}${graph}`;
}

/** A day heading and its lines, days separated by a blank line. */
export function formatAuditText(events: readonly AuditEventView[], timeZone: string): string {
  return groupAuditEventsByDay(events, timeZone)
    .map((day) => [day.label, ...day.events.map((e) => `  ${formatAuditLine(e, timeZone)}`)].join("\n"))
    .join("\n\n");
}

export interface AuditLink {
  label: string;
  href: string;
}

const segment = (value: string) => encodeURIComponent(value);

function stringOf(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * Pages an event concerns: its target, and the proposal, run or version named in its details
 * (an approval names its proposal; an apply names the version it made). No duplicates.
 */
export function auditLinks(event: AuditEventView): AuditLink[] {
  const links: AuditLink[] = [];
  const add = (label: string, href: string) => {
    if (!links.some((l) => l.href === href)) links.push({ label, href });
  };
  const details = event.details ?? {};
  const graph = event.graphName;
  // An action is addressed as `<proposal id>#<0-based index>`; the proposal page anchors it 1-based.
  const action = event.targetType === "action" && event.targetId ? /^(.+)#(\d+)$/.exec(event.targetId) : null;
  const proposal = event.targetType === "proposal" ? event.targetId : (action?.[1] ?? stringOf(details.proposalId));
  const run = event.targetType === "run" ? event.targetId : stringOf(details.runId);
  const version = event.targetType === "version" ? event.targetId : stringOf(details.version);
  if (proposal && action) add(`action ${Number(action[2]) + 1}`, `/proposals/${segment(proposal)}#action-${Number(action[2]) + 1}`);
  else if (proposal) add("proposal", `/proposals/${segment(proposal)}`);
  if (run) add("run", `/runs/${segment(run)}`);
  if (event.targetType === "ask" && event.targetId && graph) add("ask", `/graphs/${segment(graph)}/ask?ask=${segment(event.targetId)}`);
  if (graph && version && /^\d+$/.test(version)) add(`version ${version}`, `/graphs/${segment(graph)}/versions/${version}`);
  if (graph) add(`graph ${graph}`, `/graphs/${segment(graph)}`);
  return links;
}

export interface AuditActionGroup {
  /** The prefix with its dot: `action.` (usable as the action filter). */
  prefix: string;
  label: string;
  actions: { name: string; meaning: string }[];
}

const GROUP_LABELS: Record<string, string> = {
  auth: "Sign-in",
  user: "Accounts",
  token: "API tokens",
  graph: "Graphs",
  question: "Questions",
  run: "Runs",
  ask: "Asks",
  proposal: "Proposals",
  action: "Decisions",
  approval: "Approvals",
  comment: "Comments",
  changeset: "Apply and revert",
  policy: "Policies",
  settings: "Settings",
};

/** The action list (name → meaning) grouped by prefix, in the order the list gives. */
export function groupAuditActions(actions: Readonly<Record<string, string>>): AuditActionGroup[] {
  const groups: AuditActionGroup[] = [];
  for (const [name, meaning] of Object.entries(actions)) {
    const key = name.split(".")[0] ?? name;
    let group = groups.find((g) => g.prefix === `${key}.`);
    if (!group) {
      group = { prefix: `${key}.`, label: GROUP_LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1), actions: [] };
      groups.push(group);
    }
    group.actions.push({ name, meaning });
  }
  return groups;
}
