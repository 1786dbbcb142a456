import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { findQuestion, finishRun, insertRunningRun, insertStep, openDb } from "./fake-runs";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.join(here, "artifacts");
// Real data shipped beside the repo (../shared/data from the repo root).
const musique = path.resolve(here, "..", "..", "shared", "data", "musique");
const bundleQuestions = fs
  .readFileSync(path.join(musique, "questions.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { question: string; answers: string[] });

const HOSTILE_QUESTION = "<img src=x onerror=alert(1)>?";
const FINAL = /^(early_exit|awaiting_review|finished)$/;

function note(type: string, description: string): void {
  test.info().annotations.push({ type, description });
  console.log(`${type}: ${description}`);
}

function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

test.describe.serial("question queue and runs", () => {
  test.beforeAll(async ({ request }) => {
    const response = await request.post("/api/graphs", { data: { path: musique } });
    expect(response.status(), await response.text()).toBe(201);
  });

  test("queue the bundle questions, run one from the UI and read its run", async ({ page }) => {
    const dialogs = watchDialogs(page);
    // Hydration mismatches and uncaught errors surface as console errors.
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    await page.goto("/graphs/musique");
    await expect(page.getByTestId("provider-banner")).toContainText("Provider: heuristic — rule-based, offline, not an LLM");
    await page.getByRole("navigation", { name: "Graph sections" }).getByRole("link", { name: "Questions" }).click();
    await page.waitForURL(/\/graphs\/musique\/questions$/);

    const rows = page.getByTestId("question-row");
    await expect(rows).toHaveCount(50);
    const first = rows.first();
    await expect(first.getByTestId("question-text")).toHaveText(bundleQuestions[0]!.question);
    await expect(first).toContainText(`Gold answers: ${bundleQuestions[0]!.answers.join(" · ")}`);
    await expect(first).toContainText("bundle");
    await expect(first).toContainText("never run");
    await page.screenshot({ path: path.join(artifacts, "questions.png") });

    // A double click starts one run, not two.
    const started = Date.now();
    await first.getByTestId("run-question").dblclick();
    // Its progress opens in place at once, as "Run now" opens the run's page.
    await expect(page.getByTestId("live-run")).toBeVisible();
    await expect(page.getByTestId("live-run-link")).toHaveAttribute("href", /^\/runs\/[^/]+$/);
    const latest = first.getByTestId("latest-run");
    await expect(latest).toBeVisible();
    await latest.click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    const runPage = page.getByTestId("run-page");
    await expect(runPage).toHaveAttribute("data-run-status", FINAL, { timeout: 60_000 });
    note("click Run to final status on the run page (ms)", String(Date.now() - started));
    await expect(page.getByTestId("run-question")).toHaveText(bundleQuestions[0]!.question);
    await expect(page.getByTestId("run-provider")).toContainText("not an LLM");
    await expect(page.getByTestId("run-config")).toContainText("5 / 10 / 15 / 20");

    const steps = page.getByTestId("timeline-step");
    const stepCount = await steps.count();
    expect(stepCount).toBeGreaterThan(0);
    await expect(steps.first()).toContainText("Step 1");
    await expect(steps.first()).toContainText("graphify query");
    await steps.first().getByText("Retrieval evidence").click();
    await expect(steps.first().locator("pre.raw--evidence")).toContainText("EDGE ");

    const subgraph = page.getByTestId("step-subgraph");
    const canvas = subgraph.getByTestId("graph-canvas");
    await expect(canvas).toHaveAttribute("data-layout", "done");
    note("subgraph layout ms", (await canvas.getAttribute("data-layout-ms")) ?? "?");
    expect(Number(await canvas.getAttribute("data-node-count"))).toBeGreaterThan(1);
    expect(Number(await subgraph.getAttribute("data-marked-count"))).toBeGreaterThan(0);
    await expect(subgraph.getByTestId("step-triples").locator("tbody tr")).not.toHaveCount(0);
    await expect(page.getByTestId("run-outcome")).toBeVisible();
    await expect(page.getByTestId("run-downloads").getByRole("link").first()).toHaveAttribute("href", /deeprefine\?file=trace$/);
    await page.screenshot({ path: path.join(artifacts, "run.png"), fullPage: true });

    const runs = (await (await page.request.get("/api/graphs/musique/runs")).json()) as { queryId: string }[];
    const firstId = (await page.request.get("/api/graphs/musique/questions").then((r) => r.json()) as { queryId: string }[])[0]!.queryId;
    expect(runs.filter((r) => r.queryId === firstId)).toHaveLength(1);

    // The Runs tab lists it with its status as text and the provider caveat.
    await page.goto("/graphs/musique/runs");
    const row = page.getByTestId("run-row").first();
    // It says what the run came to for the question, not how the loop ended.
    await expect(row.getByTestId("run-status")).toHaveText(/^(answered|not answerable · \d+ changes? proposed|not answerable · nothing to propose)/);
    await expect(row).toContainText("not an LLM");
    await page.screenshot({ path: path.join(artifacts, "runs.png") });

    // A hostile typed question is stored and shown as text.
    await page.goto("/graphs/musique/questions");
    await page.getByRole("textbox", { name: "Question" }).fill(HOSTILE_QUESTION);
    await page.getByRole("button", { name: "Add to queue" }).click();
    await expect(page.getByTestId("ask-result")).toContainText("Added to the queue");
    await expect(page.getByTestId("question-row")).toHaveCount(51);
    await expect(page.getByTestId("question-row").last().getByTestId("question-text")).toHaveText(HOSTILE_QUESTION);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test("a run in progress elsewhere: 409 on a second start, live steps, proposal rendered as text", async ({ page }) => {
    const dialogs = watchDialogs(page);
    const db = openDb();
    const latestRun = ((await (await page.request.get("/api/graphs/musique/runs")).json()) as { id: string }[])[0]!;
    const real = (await (await page.request.get(`/api/runs/${latestRun.id}`)).json()) as { config: unknown; stepRecords: { step: number; answerable: boolean }[] };
    const question = findQuestion(db, "musique", 2);
    const runId = `e2e-live-${Date.now()}`;

    await page.goto("/graphs/musique/questions");
    const row = page.locator(`[data-testid="question-row"][data-query-id="${question.queryId}"]`);
    await expect(row).toContainText("never run");
    // Another process starts this question after the page loaded: the server refuses a second run.
    insertRunningRun(db, { graph: "musique", question, config: real.config, id: runId });
    await row.getByTestId("run-question").click();
    await expect(row.getByTestId("run-error")).toContainText(`is already being run (run ${runId})`);
    await expect(row.getByTestId("run-question")).toBeDisabled();
    await expect(row.getByTestId("run-status")).toHaveText("running");
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, "questions-conflict.png") });

    await row.getByTestId("latest-run").click();
    const runPage = page.getByTestId("run-page");
    await expect(runPage).toHaveAttribute("data-run-status", "running");
    await expect(page.getByTestId("run-live")).toContainText("You can close this tab: the run goes on");
    await expect(runPage).toHaveAttribute("data-live", "stream");
    await expect(page.getByTestId("timeline-step")).toHaveCount(0);

    // Steps written by the other process appear without a reload.
    insertStep(db, runId, { ...real.stepRecords[0]!, answerable: false });
    await expect(page.getByTestId("timeline-step")).toHaveCount(1);
    await expect(page.getByTestId("step-subgraph").getByTestId("graph-canvas")).toHaveAttribute("data-layout", "done");
    insertStep(db, runId, { ...real.stepRecords[0]!, step: 2, answerable: true });
    await expect(page.getByTestId("timeline-step")).toHaveCount(2);
    await expect(page.getByTestId("step-answerable").last()).toHaveText("answerable: Yes");

    const hostile = ['He said "hi")|x', "<script>alert(2)</script>", "a|b"];
    finishRun(db, runId, {
      status: "awaiting_review",
      abduction: "Incompleteness: <b>no</b> edge links the journal's publisher.",
      actions: [
        { type: "insert_edge", subject: hostile[0], relation: hostile[2], object: hostile[1] },
        { type: "replace_node", old: hostile[1], new: "Plain" },
      ],
      warnings: ["action 3: delete_edge needs 3 arguments, got 1"],
      refinementRaw: "<refinement>…</refinement>",
    });
    await expect(runPage).toHaveAttribute("data-run-status", "awaiting_review");
    await expect(page.getByTestId("run-live")).toHaveCount(0);
    // Step 2 was judged answerable and the run still proposed two changes: both are said.
    await expect(page.getByTestId("run-status")).toHaveText("answered · 2 changes proposed");
    await expect(page.getByTestId("run-outcome-sentence")).toHaveText("The graph answers it at step 2; the run still proposes 2 changes for review.");
    const actions = page.getByTestId("action");
    await expect(actions).toHaveCount(2);
    await expect(actions.first()).toContainText(hostile[0]!);
    await expect(actions.first()).toContainText(hostile[1]!);
    await expect(actions.first()).toContainText('insert_edge("He said \\"hi\\")|x", "a|b", "<script>alert(2)</script>")');
    await expect(page.getByTestId("run-abduction")).toContainText("<b>no</b>");
    await expect(page.getByTestId("action-warnings")).toContainText("1 action skipped");
    await page.screenshot({ path: path.join(artifacts, "run-proposal.png"), fullPage: true });

    // When the stream fails, the page polls the run instead.
    const pollId = `e2e-poll-${Date.now()}`;
    finishRun(db, runId, { status: "awaiting_review" });
    insertRunningRun(db, { graph: "musique", question, config: real.config, id: pollId });
    await page.route("**/api/runs/*/events", (route) => route.abort());
    await page.goto(`/runs/${pollId}`);
    await expect(runPage).toHaveAttribute("data-live", "polling");
    await expect(page.getByTestId("run-live")).toContainText("Live stream unavailable");
    insertStep(db, pollId, { ...real.stepRecords[0]!, answerable: true });
    finishRun(db, pollId, { status: "early_exit", earlyExit: true });
    await expect(runPage).toHaveAttribute("data-run-status", "early_exit");
    await expect(page.getByTestId("run-outcome")).toContainText("Answerable at step 1: no refinement needed");
    await expect(page.getByTestId("run-status")).toHaveText("answered");
    db.close();

    await expect(page.locator("script", { hasText: "alert(2)" })).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test("run all pending: the queue runs on the server and the runs list refreshes by itself", async ({ page }) => {
    await page.goto("/graphs/musique/runs");
    const rows = page.getByTestId("run-row");
    const before = await rows.count();
    await page.goto("/graphs/musique/questions");
    const runAll = page.getByRole("button", { name: /^Run all pending \(\d+\)$/ });
    const pending = Number((await runAll.textContent())?.match(/\((\d+)\)/)?.[1]);
    expect(pending).toBeGreaterThan(2);
    await runAll.click();
    await expect(page.getByText(`${pending - 1} more follow one after another on the server`)).toBeVisible();

    await page.getByRole("navigation", { name: "Graph sections" }).getByRole("link", { name: "Runs" }).click();
    // No reload: the list polls while a run is going and grows as the queue advances.
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(before + 2);
    note(`runs listed once the list grew by itself (${pending} queued)`, String(await rows.count()));
  });
});
