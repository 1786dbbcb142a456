/**
 * The review queue with 5,000 pending actions (issue #17 item 5), in Chromium: 500 proposals of
 * 10 actions, reviewed by the server's own review code and stored as a run or a file import
 * would store them (e2e/seed-proposals.ts). The spec drives the queue as a reviewer would —
 * open it, wait for the older proposals, filter, select, approve, show every row and scroll to
 * the end — and prints how long each step took, as Playwright saw it and as the browser timed
 * it (Event Timing: from the input to the next paint; long tasks on the main thread).
 * Behaviour is asserted; the times are printed (`note`), never asserted: these machines are
 * shared and noisy. Screenshots go to e2e/artifacts/queue-scale/.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { artifacts, bulkActions, httpxProject, note, pageTiming, seedProposals, watchPage } from "./review-helpers";

const GRAPH = "httpx-scale";
const PROPOSALS = 500;
const PER_PROPOSAL = 10;
const TOTAL = PROPOSALS * PER_PROPOSAL;
const shots = path.join(artifacts, "queue-scale");

/** Every input the browser timed (Event Timing, 16 ms and over) and every long task, from the next navigation on. */
async function recordMainThread(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { scaleInputs: { name: string; start: number; duration: number; processing: number }[]; scaleLongTasks: { start: number; duration: number }[] };
    w.scaleInputs = [];
    w.scaleLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEventTiming[]) {
        if (["click", "keydown", "input", "change", "pointerup"].includes(e.name)) {
          w.scaleInputs.push({ name: e.name, start: e.startTime, duration: e.duration, processing: e.processingEnd - e.processingStart });
        }
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.scaleLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  });
}

/** The slowest input (start → next paint) and the long tasks since `since` (ms after navigation start). */
async function mainThreadSince(page: Page, since: number): Promise<string> {
  return page.evaluate((from) => {
    const w = window as unknown as { scaleInputs?: { name: string; start: number; duration: number; processing: number }[]; scaleLongTasks?: { start: number; duration: number }[] };
    const inputs = (w.scaleInputs ?? []).filter((e) => e.start >= from);
    const tasks = (w.scaleLongTasks ?? []).filter((t) => t.start >= from);
    const slowest = inputs.sort((a, b) => b.duration - a.duration)[0];
    const blocking = tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
    const longest = tasks.reduce((max, t) => Math.max(max, t.duration), 0);
    return `${slowest ? `slowest input ${slowest.name} ${Math.round(slowest.duration)} ms to paint (handlers ${Math.round(slowest.processing)} ms)` : "no input over 16 ms"}; ${tasks.length} long tasks, longest ${Math.round(longest)} ms, blocking ${Math.round(blocking)} ms`;
  }, since);
}

const now = (page: Page) => page.evaluate(() => performance.now());

/** Wall time of `act` until `done` holds, as Playwright saw it, and the browser's own account of the main thread meanwhile. */
async function step(page: Page, what: string, act: () => Promise<unknown>, done: () => Promise<unknown>): Promise<void> {
  const since = await now(page);
  const started = Date.now();
  await act();
  await done();
  const wall = Date.now() - started;
  // Let the paint after the last change happen, so its input entry is recorded.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  note(`5,000 actions: ${what}`, `${wall} ms as Playwright saw it; ${await mainThreadSince(page, since)}`);
}

// Trace recording snapshots the DOM at every step, on the page's main thread: it would be most of what is measured here.
test.use({ trace: "off" });

test.describe.serial("the review queue at 5,000 pending actions", () => {
  test.beforeAll(async ({ request }) => {
    test.setTimeout(300_000);
    fs.mkdirSync(shots, { recursive: true });
    const imported = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
    // One approval applies: the reviewer's approve in the queue commits at once.
    const policy = await request.put(`/api/graphs/${GRAPH}/policy`, {
      data: { requiredHigh: 1, requiredMedium: 1, requiredLow: 1, lowNeedsReason: true, approverRole: "reviewer", bulkHigh: true, separateDuties: false },
    });
    expect(policy.status(), await policy.text()).toBe(200);
    const hubs = ((await (await request.get(`/api/graphs/${GRAPH}/hubs?limit=40`)).json()) as { label: string }[]).map((h) => h.label);
    const started = Date.now();
    // In five child processes of 100 proposals, one after the other (each reviews against the current version).
    for (let batch = 0; batch < PROPOSALS / 100; batch++) {
      seedProposals(
        GRAPH,
        Array.from({ length: 100 }, (_, i) => {
          const p = batch * 100 + i;
          return { question: `Scale question ${p + 1}: how do the hubs relate?`, actions: bulkActions(hubs, 1000 + p) };
        }),
      );
    }
    note("5,000 actions: seeding 500 proposals × 10 reviewed actions (ms)", String(Date.now() - started));
    const page = (await (await request.get(`/api/proposals?graph=${GRAPH}&limit=1`)).json()) as { summary: { pendingActions: number } };
    expect(page.summary.pendingActions).toBe(TOTAL);
  });

  // The specs after this one count the queue's pending actions across every graph: the graph and its proposals go.
  test.afterAll(async ({ request }) => {
    const removed = await request.delete(`/api/graphs/${GRAPH}`, { data: { confirm: GRAPH } });
    expect(removed.ok(), await removed.text()).toBe(true);
  });

  test("opens, reads the rest in the background, filters, selects, approves and scrolls", async ({ page }) => {
    test.setTimeout(300_000);
    const seen = watchPage(page);
    await recordMainThread(page);
    // What the queue reads in the background: bytes of every proposals response (its compact rows pages).
    const reads: { url: string; bytes: number }[] = [];
    page.on("response", (r) => {
      if (!r.url().includes("/api/proposals") || r.request().method() !== "GET") return;
      void r.body().then(
        (body) => reads.push({ url: r.url(), bytes: body.length }),
        () => undefined,
      );
    });
    const queue = page.getByTestId("review-queue");
    const visible = async () => Number(await queue.getAttribute("data-visible"));

    // Open: drawn and usable with the newest proposals, the rest read in the background.
    const opened = Date.now();
    await page.goto(`/review?graph=${GRAPH}`, { waitUntil: "commit" });
    await expect(queue).toHaveAttribute("data-hydrated", /\d+/);
    const hydratedWall = Date.now() - opened;
    const first = await queue.getAttribute("data-selected");
    await page.keyboard.press("j");
    await expect(queue).not.toHaveAttribute("data-selected", first ?? "");
    const firstKeyWall = Date.now() - opened;
    await expect(page.getByTestId("queue-loading-rest")).toHaveCount(0, { timeout: 120_000 });
    await expect(queue).toHaveAttribute("data-visible", String(TOTAL), { timeout: 60_000 });
    const completeWall = Date.now() - opened;
    await expect.poll(() => reads.length).toBeGreaterThan(0);
    const readBytes = reads.reduce((sum, r) => sum + r.bytes, 0);
    // The same proposals as full pages (what the queue read before GET /api/proposals/rows), for comparison.
    let fullBytes = 0;
    let cursor: string | null = null;
    do {
      const body = await (await page.request.get(`/api/proposals?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).body();
      fullBytes += body.length;
      cursor = (JSON.parse(body.toString("utf8")) as { nextCursor: string | null }).nextCursor;
    } while (cursor);
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    note("5,000 actions: background read", `${reads.length} request(s), ${mb(readBytes)} of JSON (${reads.map((r) => new URL(r.url).pathname).join(", ")}); the same proposals as full pages of GET /api/proposals: ${mb(fullBytes)}`);
    note(
      "5,000 actions: open",
      `${await pageTiming(page)}; hydrated ${hydratedWall} ms, first j handled ${firstKeyWall} ms, every row read ${completeWall} ms (as Playwright saw it); ${await mainThreadSince(page, 0)}`,
    );
    // The summary counts every graph's pending actions (other specs may have left some).
    const waiting = async () => Number(/([\d,]+) proposed changes? waiting/.exec((await page.getByTestId("queue-summary").textContent()) ?? "")?.[1]?.replaceAll(",", "") ?? 0);
    expect(await waiting()).toBeGreaterThanOrEqual(TOTAL);
    const waitingBefore = await waiting();
    const counts = Object.fromEntries(
      await Promise.all((["HIGH", "MEDIUM", "LOW"] as const).map(async (l) => [l, Number(await page.getByTestId(`label-count-${l}`).getAttribute("data-count"))] as const)),
    ) as Record<"HIGH" | "MEDIUM" | "LOW", number>;
    expect(counts.HIGH + counts.MEDIUM + counts.LOW).toBe(TOTAL);
    note("5,000 actions: labels", JSON.stringify(counts));
    await page.screenshot({ path: path.join(shots, "queue-5000.png") });

    // Filters: a label, a name search, a question, back to everything.
    const label = counts.LOW > 0 ? "LOW" : counts.MEDIUM > 0 ? "MEDIUM" : "HIGH";
    await step(page, `label filter ${label}`, () => page.getByTestId(`label-count-${label}`).click(), () => expect(queue).toHaveAttribute("data-visible", String(counts[label])));
    await page.screenshot({ path: path.join(shots, `queue-5000-${label.toLowerCase()}.png`) });
    await step(page, "label filter off", () => page.getByTestId(`label-count-${label}`).click(), () => expect(queue).toHaveAttribute("data-visible", String(TOTAL)));
    await step(
      page,
      "typing a name (8 keys)",
      () => page.getByTestId("filter-text").pressSequentially("renamed ", { delay: 0 }),
      async () => expect.poll(visible).toBeLessThan(TOTAL),
    );
    const renamed = await visible();
    expect(renamed).toBeGreaterThan(0);
    await step(page, "a question", () => page.getByTestId("filter-question").selectOption({ label: "Scale question 250: how do the hubs relate?" }), async () => expect.poll(visible).toBeLessThanOrEqual(PER_PROPOSAL));
    await step(page, "a search that matches nothing", () => page.getByTestId("filter-text").fill("no action has this name"), () => expect(page.getByTestId("queue-empty")).toBeVisible());
    await expect(page.getByTestId("queue-empty")).toContainText("No action matches these filters");
    await page.screenshot({ path: path.join(shots, "queue-5000-no-match.png") });
    // Reset clears the graph too: other specs' pending actions show beside this graph's.
    await step(page, "reset filters", () => page.getByTestId("queue-empty").getByRole("button", { name: "Reset filters" }).click(), async () => expect.poll(visible).toBeGreaterThanOrEqual(TOTAL));
    await page.getByTestId("filter-graph").selectOption(GRAPH);
    await expect(queue).toHaveAttribute("data-visible", String(TOTAL));

    // Select a row with the mouse, then approve a HIGH one (one approval applies it).
    const rows = page.getByTestId("queue-row");
    const fifth = rows.nth(4);
    const fifthKey = await fifth.getAttribute("data-key");
    await step(page, "selecting a row", () => fifth.locator("td").first().click(), () => expect(queue).toHaveAttribute("data-selected", fifthKey ?? ""));
    // An added link (deciding it touches no other action), whatever its label: LOW asks for a reason first.
    await page.getByTestId("filter-type").selectOption("insert_edge");
    await expect.poll(visible).toBeLessThan(TOTAL);
    const inserts = await visible();
    const target = rows.first();
    const targetKey = (await target.getAttribute("data-key")) ?? "";
    const isLow = (await target.getAttribute("data-confidence")) === "LOW";
    expect(targetKey).not.toBe("");
    const answered = page.waitForResponse((r) => r.url().includes("/approve") && r.request().method() === "POST", { timeout: 120_000 });
    // Timed in the page from the click that sends the approval: when its result panel appeared and when its row left.
    const watch = (key: string) =>
      page.evaluate((rowKey) => {
        const w = window as unknown as { scaleApprove?: { sent: number; shown?: number; gone?: number } };
        const observer = new MutationObserver(() => {
          const t = w.scaleApprove;
          if (!t) return;
          if (t.shown === undefined && document.querySelector('[data-testid="apply-result"]')) t.shown = performance.now();
          if (t.gone === undefined && !document.querySelector(`[data-testid="queue-row"][data-key="${CSS.escape(rowKey)}"]`)) t.gone = performance.now();
          if (t.shown !== undefined && t.gone !== undefined) observer.disconnect();
        });
        observer.observe(document.body, { childList: true, subtree: true });
        document.addEventListener("click", () => (w.scaleApprove ??= { sent: performance.now() }), { capture: true, once: true });
      }, key);
    await step(
      page,
      `approving a ${isLow ? "LOW (with its reason)" : "HIGH/MEDIUM"} row (applied): its result shown and its row gone`,
      async () => {
        if (isLow) {
          await target.getByTestId("row-approve").click();
          await page.locator("dialog textarea").fill("Checked for the scale test.");
          await watch(targetKey);
          await page.getByTestId("low-confirm-apply").click();
        } else {
          await watch(targetKey);
          await target.getByTestId("row-approve").click();
        }
      },
      async () => {
        await expect(page.getByTestId("apply-result")).toContainText("Applied as version", { timeout: 120_000 });
        await expect(page.locator(`[data-testid="queue-row"][data-key="${targetKey}"]`)).toHaveCount(0);
        await expect(queue).toHaveAttribute("data-visible", String(inserts - 1));
        await expect.poll(waiting).toBe(waitingBefore - 1);
      },
    );
    const timing = (await answered).request().timing();
    const inPage = await page.evaluate(() => (window as unknown as { scaleApprove?: { sent: number; shown?: number; gone?: number } }).scaleApprove);
    note(
      "5,000 actions: approve, timed in the page from the click",
      `request answered in ${Math.round(timing.responseEnd - timing.requestStart)} ms (record, apply, answer); result shown after ${Math.round((inPage?.shown ?? Number.NaN) - (inPage?.sent ?? 0))} ms, row gone after ${Math.round((inPage?.gone ?? Number.NaN) - (inPage?.sent ?? 0))} ms`,
    );
    await page.getByTestId("filter-type").selectOption("");
    await expect(queue).toHaveAttribute("data-visible", String(TOTAL - 1));

    // Every row reachable: show all, scroll to the last one.
    await step(
      page,
      "show all",
      () => page.getByTestId("queue-more").getByRole("button", { name: "Show all" }).click(),
      () => expect(page.getByTestId("queue-more")).toHaveCount(0),
    );
    const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
    const drawn = await rows.count();
    const frames = await page.evaluate(async () => {
      // Scroll to the end in 40 steps, one per frame, timing each frame.
      const times: number[] = [];
      let last = performance.now();
      const end = document.documentElement.scrollHeight;
      for (let i = 1; i <= 40; i++) {
        window.scrollTo(0, (end * i) / 40);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const t = performance.now();
        times.push(t - last);
        last = t;
      }
      times.sort((a, b) => a - b);
      return { p50: Math.round(times[20] ?? 0), max: Math.round(times.at(-1) ?? 0) };
    });
    // The last action is reachable (a long list draws only the rows near the viewport: aria-rowindex says where a row is).
    const shownRows = Number(await page.getByTestId("queue-table").getAttribute("data-rows"));
    expect(shownRows).toBe(TOTAL - 1);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const lastRow = page.locator(`[data-testid="queue-row"][aria-rowindex="${shownRows + 1}"]`);
    await expect(lastRow).toBeVisible();
    await expect(lastRow).toBeInViewport();
    note("5,000 actions: scrolling every row", `${drawn} of ${shownRows} rows drawn, ${elements} elements on the page; frames while scrolling to the end p50 ${frames.p50} ms, slowest ${frames.max} ms`);

    // Keys still walk the list: k from the last row selects the one above it.
    await lastRow.locator("td").first().click();
    const lastKey = await lastRow.getAttribute("data-key");
    await expect(queue).toHaveAttribute("data-selected", lastKey ?? "");
    await page.keyboard.press("k");
    await expect(queue).toHaveAttribute("data-selected", (await page.locator(`[data-testid="queue-row"][aria-rowindex="${shownRows}"]`).getAttribute("data-key")) ?? "");
    await page.screenshot({ path: path.join(shots, "queue-5000-end.png") });
    expect(seen.errors).toEqual([]);
    expect(seen.dialogs).toEqual([]);
  });

  test("while the older proposals are still being read, the queue says so and works", async ({ page }) => {
    // Hold the background pages back, to see the first state a reviewer sees.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/proposals\/rows\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/review?graph=${GRAPH}`);
    const queue = page.getByTestId("review-queue");
    await expect(queue).toHaveAttribute("data-hydrated", /\d+/);
    await expect(page.getByTestId("queue-loading-rest")).toBeVisible();
    expect(Number(await queue.getAttribute("data-visible"))).toBeGreaterThan(0);
    // The header counts the whole queue from the server's summary, not the rows read so far.
    await expect(page.getByTestId("queue-summary")).toContainText(/[\d,]+ proposed changes waiting/);
    await expect(page.getByTestId("queue-loading-rest")).toContainText(/Listing the newest [\d,]+ of [\d,]+ pending actions/);
    await page.screenshot({ path: path.join(shots, "queue-5000-loading.png") });
    release();
    await expect(page.getByTestId("queue-loading-rest")).toHaveCount(0, { timeout: 120_000 });
    await expect(queue).toHaveAttribute("data-visible", String(TOTAL - 1), { timeout: 60_000 });
  });
});
