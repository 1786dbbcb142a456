/**
 * Set-up for the review spec: the graph, a real run of a question, and proposals written by the
 * server's own review code (e2e/seed-proposals.ts, in a child process on the e2e database).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { e2eDatabaseUrl } from "./database";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
// Same file as playwright.config.ts gives the web server.

export const artifacts = path.join(here, "artifacts");
export const httpxProject = path.resolve(root, "..", "shared", "data", "graphify", "httpx");
export const HOSTILE = "<img src=x onerror=alert(1)>";

export type Action =
  | { type: "insert_edge" | "delete_edge"; subject: string; relation: string; object: string }
  | { type: "replace_node"; old: string; new: string };

export function note(type: string, description: string): void {
  test.info().annotations.push({ type, description });
  console.log(`${type}: ${description}`);
}

/** Browser dialogs (an injected alert would open one) and page errors, collected for the end of a test. */
export function watchPage(page: Page): { dialogs: string[]; errors: string[] } {
  const seen = { dialogs: [] as string[], errors: [] as string[] };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") seen.errors.push(message.text());
  });
  return seen;
}

function runSeed(spec: unknown): { ids: string[]; versions: (number | null)[] } {
  const out = execFileSync(path.join(root, "node_modules", ".bin", "tsx"), [path.join(here, "seed-proposals.ts")], {
    cwd: root,
    input: JSON.stringify(spec),
    env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.toString("utf8")) as { ids: string[]; versions: (number | null)[] };
}

export function seedProposals(graph: string, proposals: { question?: string; runId?: string; actions: Action[] }[]): string[] {
  return runSeed({ graph, proposals }).ids;
}

/**
 * Set-up for specs about version history: proposals committed at once through the internal
 * commit path (see e2e/seed-proposals.ts). Approval itself is tested in review.spec and team.spec.
 */
export function seedAppliedProposal(graph: string, question: string, actions: Action[]): { proposal: string; version: number } {
  const { ids, versions } = runSeed({ graph, apply: true, proposals: [{ question, actions }] });
  return { proposal: ids[0] ?? "", version: versions[0] ?? 0 };
}

export async function graphState(request: APIRequestContext, graph: string): Promise<{ version: number; nodes: number; edges: number }> {
  const response = await request.get(`/api/graphs/${encodeURIComponent(graph)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const { version, nodes, edges } = (await response.json()) as { version: number; nodes: number; edges: number };
  return { version, nodes, edges };
}

/** A real heuristic run of the question: steps and an abduction for the proposal page to show. */
export async function runQuestion(request: APIRequestContext, graph: string, question: string): Promise<string> {
  const started = await request.post(`/api/graphs/${encodeURIComponent(graph)}/runs`, { data: { question } });
  expect(started.status(), await started.text()).toBe(202);
  const { runId } = (await started.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .not.toBe("running");
  return runId;
}

/** 10 varied actions between the graph's hubs: inserts, deletes of stored edges, renames. */
export function bulkActions(labels: string[], round: number): Action[] {
  const pick = (i: number) => labels[(round * 7 + i * 3) % labels.length] ?? "Client";
  // Every action distinct across rounds: the queue merges copies of one action into one row.
  return Array.from({ length: 10 }, (_, i): Action => {
    if (i % 5 === 3) return { type: "delete_edge", subject: pick(i), relation: `calls_${round}`, object: pick(i + 1) };
    if (i % 5 === 4) return { type: "replace_node", old: pick(i), new: `${pick(i)} (renamed ${round}.${i})` };
    return { type: "insert_edge", subject: pick(i), relation: i % 2 === 0 ? `uses_${round}_${i}` : `relates_to_${round}_${i}`, object: pick(i + 5) };
  });
}

/** Navigation timing of the current page, when React had attached its handlers (`data-hydrated`), and the first input. */
export async function pageTiming(page: Page): Promise<string> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const hydrated = document.querySelector<HTMLElement>("[data-hydrated]")?.dataset.hydrated ?? "?";
    const kb = Math.round(nav.transferSize / 1024);
    // The first key press or click, as the browser timed it: when it happened and when its handlers had run.
    const input = performance.getEntriesByType("first-input")[0] as PerformanceEventTiming | undefined;
    const timed = (window as unknown as { inputTimings?: { name: string; start: number; handled: number }[] }).inputTimings?.[0];
    const first = timed
      ? `, first ${timed.name} at ${Math.round(timed.start)} ms handled by ${Math.round(timed.handled)} ms`
      : input
        ? `, first ${input.name} at ${Math.round(input.startTime)} ms handled by ${Math.round(input.processingEnd)} ms (took under 16 ms)`
        : "";
    return `first byte ${Math.round(nav.responseStart)} ms, HTML done ${Math.round(nav.responseEnd)} ms (${kb} kB), DOM ready ${Math.round(nav.domContentLoadedEventEnd)} ms, hydrated ${hydrated} ms, ${document.getElementsByTagName("*").length} elements${first}`;
  });
}

/** Record the browser's own timing of key presses and clicks (Event Timing API), from the next navigation on. */
export async function recordInputTiming(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { inputTimings: { name: string; start: number; handled: number }[] };
    w.inputTimings = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEventTiming[]) {
        if (e.name === "click" || e.name === "keydown") w.inputTimings.push({ name: e.name, start: e.startTime, handled: e.processingEnd });
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
}

/**
 * When the first key press or click of the page had been handled (ms after navigation start):
 * the Event Timing entry when the browser recorded one (it only records inputs that took 16 ms
 * or more), else the first-input entry (which only covers the pointerdown of a click).
 */
export async function firstInputHandled(page: Page): Promise<number> {
  return page.evaluate(() => {
    const timed = (window as unknown as { inputTimings?: { handled: number }[] }).inputTimings?.[0];
    if (timed) return Math.round(timed.handled);
    const input = performance.getEntriesByType("first-input")[0] as PerformanceEventTiming | undefined;
    return input ? Math.round(input.processingEnd) : Number.NaN;
  });
}
