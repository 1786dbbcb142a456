/**
 * Refinement campaigns as a person uses them (issue #15), on the demo graph (graphify's httpx
 * example, with its source files): the empty Campaigns page, a clear error for an empty question
 * set, a campaign of the demo's questions with the heuristic provider watched to its halt (the
 * trajectory chart, every iteration's decision, the worklog), its one proposal in the review
 * queue with the trajectory as evidence while the live graph stays unchanged, and Stop on a
 * campaign of many questions while it runs. Works on SQLite and PostgreSQL alike (API and UI only).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { DEMO_QUESTIONS } from "../demo/questions";
import { MAX_CAMPAIGN_QUESTIONS as MAX_QUESTIONS } from "../lib/campaign/parse-campaign-questions";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.join(here, "artifacts");
const demo = path.resolve(here, "..", "demo", "httpx", "graph.json");
const GRAPH = "campaign-httpx";
const DECISIONS = /^(BASELINE|ACCEPT|REVERT|HALT_PLATEAU|HALT_TARGET_MET|NOTHING_TO_FIX|ERROR)$/;

/** The most questions a campaign takes, all distinct, about the demo graph's nodes: enough work that a campaign is still running when Stop is pressed. */
function manyQuestions(): string[] {
  const graph = JSON.parse(fs.readFileSync(demo, "utf8")) as { nodes: { label?: string }[] };
  const names = [...new Set(graph.nodes.map((n) => n.label ?? "").filter((l) => /^[A-Za-z_.][\w.()]*$/.test(l)))];
  const templates = [
    "What does {} inherit from?",
    "What does {} call?",
    "Which module contains {}?",
    "What uses {}?",
    "How is {} related to Client?",
    "How is {} related to AsyncClient?",
    "How is {} related to BaseTransport?",
    "What inherits from {}?",
    "Which methods does {} define?",
    "What calls {}?",
    "Where is {} defined?",
    "What does {} return?",
    "Which file imports {}?",
    "What does {} depend on?",
  ];
  return templates.flatMap((t) => names.map((n) => t.replace("{}", n))).slice(0, MAX_QUESTIONS);
}

async function openStartForm(page: Page) {
  await page.goto("/campaigns");
  const form = page.getByTestId("start-campaign");
  await expect(form).toBeVisible();
  await form.getByRole("combobox", { name: /^Graph/ }).selectOption(GRAPH);
  await form.getByRole("combobox", { name: /^Provider/ }).selectOption("heuristic");
  return form;
}

test.describe.serial("refinement campaigns", () => {
  let baseVersion = 0;

  test.beforeAll(async ({ request }) => {
    const response = await request.post("/api/graphs", { data: { path: demo, name: GRAPH } });
    expect(response.status(), await response.text()).toBe(201);
    baseVersion = ((await (await request.get(`/api/graphs/${GRAPH}`)).json()) as { version: number }).version;
  });

  test("the Campaigns page says there are none yet", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Campaigns", exact: true }).click();
    await page.waitForURL(/\/campaigns$/);
    await expect(page.getByRole("heading", { name: "Refinement campaigns" })).toBeVisible();
    await expect(page.getByTestId("campaigns-empty")).toContainText("No campaigns yet");
    await expect(page.getByTestId("campaigns-table")).toHaveCount(0);
    await page.screenshot({ path: path.join(artifacts, "campaigns-empty.png") });
  });

  test("an empty question set gets a clear error and starts nothing", async ({ page, request }) => {
    const form = await openStartForm(page);
    await form.getByLabel(/pasted here/).check();
    await form.locator("textarea").fill("   \n\n  ");
    await form.getByRole("button", { name: "Start campaign" }).click();
    await expect(form.getByRole("alert")).toContainText("The question set is empty: paste at least one question");
    await expect(page).toHaveURL(/\/campaigns$/);

    // The graph's queue is empty too: the server says so.
    await form.getByLabel(/question queue/).check();
    await form.getByRole("button", { name: "Start campaign" }).click();
    await expect(form.getByRole("alert")).toContainText(`graph ${GRAPH} has no questions in its queue`);
    await page.screenshot({ path: path.join(artifacts, "campaigns-empty-questions.png") });

    // And the API refuses an empty list with a typed error.
    const response = await request.post("/api/campaigns", { data: { graph: GRAPH, questions: [], provider: "heuristic" } });
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    expect(await (await request.get("/api/campaigns")).json()).toEqual([]);
  });

  test("a campaign runs to a halt: trajectory, every decision, worklog, and one proposal for review", async ({ page, request }) => {
    test.setTimeout(180_000);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    const form = await openStartForm(page);
    await form.getByLabel(/pasted here/).check();
    await form.locator("textarea").fill(DEMO_QUESTIONS.join("\n"));
    await form.getByLabel("Iteration cap").fill("3");
    await form.getByRole("button", { name: "Start campaign" }).click();
    await page.waitForURL(/\/campaigns\/[^/]+$/);
    const campaignId = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");

    const view = page.getByTestId("campaign-page");
    await expect(view).not.toHaveAttribute("data-status", "running", { timeout: 120_000 });
    await expect(view).toHaveAttribute("data-status", "finished");
    await expect(page.getByTestId("campaign-status")).toHaveText("finished");
    await expect(view.locator("header")).toContainText(`${DEMO_QUESTIONS.length} questions · base version ${baseVersion} · heuristic (not an LLM)`);
    await expect(view.locator("header")).toContainText("halted:");

    // Every iteration: a row with its decision, a dot on the chart, a worklog entry, and its details.
    const rows = page.getByTestId("campaign-iteration-row");
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(count).toBeLessThanOrEqual(4);
    await expect(rows.first()).toHaveAttribute("data-decision", "BASELINE");
    const chart = page.getByTestId("campaign-trajectory");
    await expect(chart.locator("circle")).toHaveCount(count);
    const caption = (await chart.locator("svg").getAttribute("aria-label")) ?? "";
    expect(caption).toMatch(/^iter0 \d+\.\d (Reject|Major|Minor|Accept) → iter1 \d+\.\d (Reject|Major|Minor|Accept)/);
    expect(caption.split(" → ")).toHaveLength(count);
    await expect(chart.locator("figcaption")).toContainText(caption);
    const worklog = page.getByTestId("worklog-entry");
    await expect(worklog).toHaveCount(count);
    for (let i = 0; i < count; i++) {
      const decision = (await rows.nth(i).getAttribute("data-decision")) ?? "";
      expect(decision).toMatch(DECISIONS);
      expect(decision).not.toBe("ERROR");
      await expect(worklog.nth(i)).toHaveAttribute("data-decision", decision);
      await expect(worklog.nth(i)).toContainText(`iter ${i}: ${decision}`);
      await rows.nth(i).getByRole("button").click();
      const details = page.getByTestId("campaign-iteration");
      await expect(details).toHaveAttribute("data-iter", String(i));
      await expect(details).toHaveAttribute("data-decision", decision);
      await expect(details.locator("h3")).toContainText(`Iteration ${i}: ${decision}`);
      await expect(details.locator("li").first()).not.toBeEmpty();
    }
    const last = (await rows.last().getAttribute("data-decision")) ?? "";
    expect(count === 4 || /^(HALT_|NOTHING_TO_FIX)/.test(last)).toBe(true);

    // The demo graph's source files state edges the questions need: an iteration is accepted with them.
    const accepted = page.locator('[data-testid="campaign-iteration-row"]:is([data-decision="ACCEPT"], [data-decision^="HALT_"])');
    await expect(accepted).not.toHaveCount(0);
    await accepted.first().getByRole("button").click();
    const details = page.getByTestId("campaign-iteration");
    await expect(details.getByRole("heading", { name: /Entered the sandbox/ })).toBeVisible();
    await details.getByText(/Sandbox diff \(\d+ operations\)/).click();
    await expect(details.locator(".campaign-diff")).toContainText("+ edge");

    await page.screenshot({ path: path.join(artifacts, "campaign.png") });
    await page.screenshot({ path: path.join(artifacts, "campaign-full.png"), fullPage: true });

    // The live graph did not change; the best iteration waits in the review queue as one proposal.
    expect(((await (await request.get(`/api/graphs/${GRAPH}`)).json()) as { version: number }).version).toBe(baseVersion);
    const proposalLink = page.getByTestId("campaign-proposal").getByRole("link", { name: "open proposal" });
    await expect(proposalLink).toBeVisible();
    const proposalId = decodeURIComponent(((await proposalLink.getAttribute("href")) ?? "").split("/").at(-1) ?? "");
    expect(proposalId).not.toBe("");
    const campaign = (await (await request.get(`/api/campaigns/${encodeURIComponent(campaignId)}`)).json()) as { proposalId: string; bestIter: number };
    expect(campaign.proposalId).toBe(proposalId);

    await page.goto("/review");
    const queue = page.getByTestId("review-queue");
    await expect(queue.locator(`a[href^="/proposals/${encodeURIComponent(proposalId)}"]`).first()).toBeVisible();

    await page.goto(`/proposals/${encodeURIComponent(proposalId)}`);
    await expect(page.getByTestId("proposal-question")).toContainText(`Campaign: ${caption.split(" → ")[0]}`);
    await expect(page.getByTestId("proposal-question")).toContainText("→ iter1");
    const cards = page.getByTestId("action-card");
    await expect(cards).not.toHaveCount(0);
    await expect(cards.first().getByTestId("reasons")).toContainText(`campaign ${campaignId}: iter0`);
    await expect(cards.first().getByTestId("reasons")).toContainText(/accepted in iteration \d+ \(overall \d+\.\d → \d+\.\d\); claim-evidence gate: (supported|attributed)/);
    await page.screenshot({ path: path.join(artifacts, "campaign-proposal.png"), fullPage: true });
    expect(errors).toEqual([]);
    // Leave the shared review queue as it was for the specs that count it.
    const proposal = (await (await request.get(`/api/proposals/${encodeURIComponent(proposalId)}`)).json()) as { actions: { index: number; status: string }[] };
    const pending = proposal.actions.filter((a) => a.status === "pending").map((a) => a.index);
    if (pending.length > 0) {
      const rejected = await request.post(`/api/proposals/${encodeURIComponent(proposalId)}/reject`, { data: { actions: pending, reason: "e2e clean-up" } });
      expect(rejected.status(), await rejected.text()).toBe(200);
    }
  });

  test("Stop halts a running campaign and keeps its iterations", async ({ page, request }) => {
    test.setTimeout(180_000);
    const questions = manyQuestions();
    expect(questions.length).toBe(MAX_QUESTIONS);
    const form = await openStartForm(page);
    await form.getByLabel(/pasted here/).check();
    await form.locator("textarea").fill(questions.join("\n"));
    await form.getByLabel("Iteration cap").fill("20");
    await form.getByRole("button", { name: "Start campaign" }).click();
    await page.waitForURL(/\/campaigns\/[^/]+$/);
    const campaignId = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");

    const view = page.getByTestId("campaign-page");
    await expect(view).toHaveAttribute("data-status", "running");
    await expect(view.getByRole("status")).toContainText("the live graph does not change");
    await page.getByTestId("campaign-stop").click();
    await page.screenshot({ path: path.join(artifacts, "campaign-stopping.png") });
    await expect(view).toHaveAttribute("data-status", "stopped", { timeout: 60_000 });
    await expect(page.getByTestId("campaign-status")).toHaveText("stopped");
    await expect(view.locator("header")).toContainText("halted: stopped");
    await expect(page.getByTestId("campaign-stop")).toHaveCount(0);

    // What it did before the stop is kept and shown: the iterations it finished (the baseline first), one worklog entry each.
    const stored = (await (await request.get(`/api/campaigns/${encodeURIComponent(campaignId)}`)).json()) as { status: string; iterations: number; haltedBecause: string; questions: number };
    expect(stored).toMatchObject({ status: "stopped", haltedBecause: "stopped", questions: MAX_QUESTIONS });
    expect(stored.iterations).toBeLessThan(21);
    await expect(page.getByTestId("campaign-iteration-row")).toHaveCount(stored.iterations);
    await expect(page.getByTestId("worklog-entry")).toHaveCount(stored.iterations);
    if (stored.iterations > 0) await expect(page.getByTestId("worklog-entry").first()).toHaveAttribute("data-decision", "BASELINE");
    else await expect(page.getByTestId("campaign-no-iterations")).toContainText("was stopped while the baseline was being scored");
    await page.screenshot({ path: path.join(artifacts, "campaign-stopped.png") });
    const again = await request.post(`/api/campaigns/${encodeURIComponent(campaignId)}/stop`);
    expect(again.status()).toBe(409);

    // Both campaigns are listed, newest first.
    await page.goto("/campaigns");
    const list = page.getByTestId("campaign-list-row");
    await expect(list).toHaveCount(2);
    await expect(list.first()).toHaveAttribute("data-status", "stopped");
    await expect(list.nth(1)).toHaveAttribute("data-status", "finished");
    await page.screenshot({ path: path.join(artifacts, "campaigns-list.png") });
    // A stopped campaign still submits its best accepted iteration: take it out of the shared queue.
    const after = (await (await request.get(`/api/campaigns/${encodeURIComponent(campaignId)}`)).json()) as { proposalId: string | null };
    if (after.proposalId) {
      const proposal = (await (await request.get(`/api/proposals/${encodeURIComponent(after.proposalId)}`)).json()) as { actions: { index: number; status: string }[] };
      const pending = proposal.actions.filter((x) => x.status === "pending").map((x) => x.index);
      if (pending.length > 0) expect((await request.post(`/api/proposals/${encodeURIComponent(after.proposalId)}/reject`, { data: { actions: pending, reason: "e2e clean-up" } })).status()).toBe(200);
    }
  });
});
