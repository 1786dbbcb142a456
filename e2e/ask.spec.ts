/**
 * The Ask tab on the demo graph (graphify's httpx example): a person types a question, watches it
 * run, and reads the answer, the plan tree, every tool call with its result, the subgraph drawn
 * in Cytoscape and the corpus passages quoted with their ids. Asks are listed on the Runs tab.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { runQuestion, seedAppliedProposal } from "./review-helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.join(here, "artifacts");
const demo = path.resolve(here, "..", "demo", "httpx", "graph.json");
const GRAPH = "ask-demo";

test.describe.serial("ask the graph", () => {
  test.beforeAll(async ({ request }) => {
    const response = await request.post("/api/graphs", { data: { path: demo, name: GRAPH } });
    expect(response.status(), await response.text()).toBe(201);
  });

  test("ask a question and see the plan, the tool calls, the drawing and the answer", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`/graphs/${GRAPH}`);
    await page.getByRole("navigation", { name: "Graph sections" }).getByRole("link", { name: "Ask" }).click();
    await page.waitForURL(new RegExp(`/graphs/${GRAPH}/ask$`));
    await expect(page.getByText("Nothing asked yet")).toBeVisible();
    await expect(page.getByTestId("ask-submit")).toBeDisabled();
    await page.screenshot({ path: path.join(artifacts, "ask-empty.png") });

    await page.getByLabel("Question for the graph").fill("Which classes inherit from BaseClient?");
    await page.getByTestId("ask-submit").click();
    await page.waitForURL(/\?ask=/);
    const result = page.getByTestId("ask-result");
    await expect(result).toHaveAttribute("data-status", "answered");

    const answers = page.getByTestId("ask-answer");
    await expect(answers).toHaveCount(2);
    await expect(page.getByTestId("ask-answers")).toContainText("Client");
    await expect(page.getByTestId("ask-answers")).toContainText("AsyncClient");
    await expect(page.getByTestId("ask-answers")).toContainText("from the graph");

    const plan = page.getByTestId("plan-step");
    await expect(plan.first()).toContainText("SearchKG(t=");
    await expect(plan.first()).toContainText("h=BaseClient");
    await expect(plan.first()).toContainText("r=inherits");

    const calls = page.getByTestId("tool-call");
    await expect(calls.first()).toHaveAttribute("data-tool", "relation_search");
    await expect(page.getByTestId("ask-tool-calls").locator('[data-tool="neighbor_search"]').first()).toContainText("AsyncClient");
    await calls.first().getByText("What the tool returned").click();
    await expect(calls.first().locator("pre")).toContainText("inherits");

    const canvas = page.getByTestId("ask-subgraph").locator(".graph-canvas");
    await expect(canvas).toHaveAttribute("data-layout", "done");
    await expect(page.getByTestId("ask-subgraph")).toContainText("answer");

    await page.screenshot({ path: path.join(artifacts, "ask-desktop.png"), fullPage: true });
    // As a phone opens it: the drawing is laid out for the narrow panel.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(canvas).toHaveAttribute("data-layout", "done");
    await page.screenshot({ path: path.join(artifacts, "ask-mobile.png"), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The ask is stored: it is listed beside the form, and reloading the link shows it again.
    await expect(page.getByTestId("ask-row").first()).toContainText("Which classes inherit from BaseClient?");
    await page.reload();
    await expect(page.getByTestId("ask-result")).toHaveAttribute("data-status", "answered");
    expect(errors).toEqual([]);
  });

  test("quotes corpus passages with their ids when the graph has no fitting relation", async ({ page }) => {
    await page.goto(`/graphs/${GRAPH}/ask`);
    await page.getByLabel("Question for the graph").fill("What is the default timeout?");
    await page.getByTestId("ask-submit").click();
    await expect(page.getByTestId("ask-result")).not.toHaveAttribute("data-status", "running");
    await expect(page.getByTestId("ask-tool-calls").locator('[data-tool="web_search"]').first()).toBeVisible();
    const passages = page.getByTestId("ask-passages").getByTestId("ask-passage");
    await expect(passages.first()).toContainText(/\[[^\]]+\.py\]/);
    await page.screenshot({ path: path.join(artifacts, "ask-corpus.png"), fullPage: true });
  });

  test("lists the asks on the Runs tab, linked to their result", async ({ page }) => {
    await page.goto(`/graphs/${GRAPH}/runs`);
    const recent = page.getByTestId("recent-asks");
    await expect(recent.getByTestId("ask-row")).toHaveCount(2);
    await recent.getByText("Which classes inherit from BaseClient?").click();
    await page.waitForURL(new RegExp(`/graphs/${GRAPH}/ask\\?ask=`));
    await expect(page.getByTestId("ask-result")).toHaveAttribute("data-status", "answered");
  });

  test("ask again on an applied proposal shows that the answer changed", async ({ page }) => {
    const question = "Which classes inherit from BaseClient?";
    const { proposal, version } = seedAppliedProposal(GRAPH, question, [{ type: "insert_edge", subject: "Response", relation: "inherits", object: "BaseClient" }]);
    await page.goto(`/proposals/${proposal}`);
    const panel = page.getByTestId("ask-again");
    await expect(panel).toContainText(question);
    await panel.getByTestId("ask-again-button").click();
    const verdict = panel.getByTestId("ask-again-verdict");
    await expect(verdict).toHaveAttribute("data-changed", "true");
    await expect(verdict).toContainText("now also Response");
    await expect(panel).toContainText(`Now (version ${version})`);
    await expect(panel).toContainText(`Before (version ${version - 1})`);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, "ask-again.png"), fullPage: true });
  });

  test("the run page states the answer of the step judged answerable", async ({ page, request }) => {
    const runId = await runQuestion(request, GRAPH, "What does Client inherit from?");
    await page.goto(`/runs/${runId}`);
    const answer = page.getByTestId("step-answer");
    await expect(answer).toContainText("The graph's answer at step 1");
    await expect(answer.getByTestId("ask-answer").first()).toContainText("BaseClient");
    await expect(answer).toContainText("Heuristic Ask over the step's");
    await page.screenshot({ path: path.join(artifacts, "run-step-answer.png") });
  });

  test("an admin switches the graph's loop to the planned retrieval on the Questions tab", async ({ page, request }) => {
    await page.goto(`/graphs/${GRAPH}/questions`);
    const settings = page.getByTestId("loop-settings");
    await expect(settings.getByLabel(/Keyword query/)).toBeChecked();
    // The form may be drawn from the server's HTML before React hydrates it: a click then is
    // undone by hydration (the radio is controlled), so click again until it holds.
    await expect(async () => {
      await settings.getByLabel(/Planned retrieval/).check({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect
      .poll(async () => ((await (await request.get(`/api/graphs/${GRAPH}/loop-settings`)).json()) as { step1Retrieval: string }).step1Retrieval)
      .toBe("graph_rft_plan");
    await page.reload();
    await expect(page.getByTestId("loop-settings").getByLabel(/Planned retrieval/)).toBeChecked();
    await page.screenshot({ path: path.join(artifacts, "ask-loop-setting.png") });

    const runId = await runQuestion(request, GRAPH, "What does AsyncClient inherit from?");
    const run = (await (await request.get(`/api/runs/${runId}`)).json()) as { stepRecords: { retrieval: { method: string } }[] };
    expect(run.stepRecords[0]?.retrieval.method).toBe("graph_rft_plan");
  });
});
