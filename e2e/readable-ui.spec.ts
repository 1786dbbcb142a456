/**
 * Issue #13 items 4, 6 and 8 as a person sees them: nodes named by their labels (where they are
 * from only when labels collide, ids behind a details button), warnings as sentences, a compact
 * proposal, a node picker in the edit form, zoom buttons on the drawings, rename and delete of a
 * graph, the settings check of unsaved values, and no sideways scroll on a phone.
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { artifacts, httpxProject, seedProposals, watchPage } from "./review-helpers";

const GRAPH = "httpx-readable";
const mixedProject = path.resolve(httpxProject, "..", "mixed-corpus");

// Ids as an agent would write them: `.get()` of Client and of AsyncClient share one label and
// one file, `client_client_request` is `.request()` (shared with AsyncClient too).
const ACTIONS = [
  { type: "insert_edge", subject: "client_client_get", relation: "calls", object: "client_client_request" },
  { type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" },
  { type: "insert_edge", subject: "HTTPTransport", relation: "uses", object: "Limits" },
] as const;

let proposalId = "";
const card = (page: Page, index: number) => page.locator(`[data-testid="action-card"][data-index="${index}"]`);

test.describe.serial("readable names, compact proposals, graph admin", () => {
  test.beforeAll(async ({ request }) => {
    const imported = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
    [proposalId] = seedProposals(GRAPH, [{ question: "What does Client.get call?", actions: [...ACTIONS] }]) as [string];
  });

  // The queue is global: this spec's proposal must not count in review.spec's queue totals.
  test.afterAll(async ({ request }) => {
    const removed = await request.delete(`/api/graphs/${GRAPH}`, { data: { confirm: GRAPH } });
    expect(removed.status(), await removed.text()).toBe(200);
  });

  test("the proposal names nodes by label, ids only in details, warnings as sentences, compact cards", async ({ page }) => {
    const seen = watchPage(page);
    await page.goto(`/proposals/${proposalId}`);
    await expect(page.getByTestId("proposal-page")).toHaveAttribute("data-hydrated", /\d+/);
    const first = card(page, 0);
    const names = first.getByTestId("action-name");
    await expect(names).toHaveText([".get()", ".request()"]);
    // Both labels are shared, so where each node is from is said; the id is not on the card.
    await expect(first.getByTestId("action-name-where").first()).toHaveText(/^client\.py, line \d+$/);
    await expect(first.getByTestId("action-headline")).toHaveText(/^Add a "calls" link from "\.get\(\) \(client\.py, line \d+\)" to "\.request\(\) \(client\.py, line \d+\)"\.$/);
    await expect(first.locator(".action-card__what")).not.toContainText("client_client_get", { useInnerText: true });
    // Unique labels stand alone.
    await expect(card(page, 2).getByTestId("action-name")).toHaveText(["HTTPTransport", "Limits"]);
    await expect(card(page, 2).getByTestId("action-name-where")).toHaveCount(0);
    // The id is one click away.
    await first.getByTestId("node-details-button").first().click();
    const details = page.getByTestId("node-details").filter({ visible: true });
    await expect(details).toContainText("Node id client_client_get");
    await expect(details.getByRole("link", { name: "Open in the explorer" })).toHaveAttribute("href", `/graphs/${GRAPH}?node=client_client_get`);
    await page.keyboard.press("Escape");
    // A warning reads as a sentence, with no internal code.
    await expect(card(page, 1).getByTestId("warnings")).toContainText("The graph already has this link.");
    for (const code of ["EDGE_EXISTS", "OUTSIDE_RETRIEVED", "MERGE_EXISTING"]) await expect(page.getByTestId("proposal-page")).not.toContainText(code);
    // Compact: the evidence folds out, and three actions fit in well under 3,000 px.
    const evidence = first.getByTestId("evidence");
    await expect(evidence).toBeHidden();
    await first.getByTestId("action-details").locator("summary").click();
    await expect(evidence).toBeVisible();
    await first.getByTestId("action-details").locator("summary").click();
    const height = await page.locator(".proposal-grid__actions").evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThan(1600);
    await page.setViewportSize({ width: 1440, height: 1200 });
    await page.screenshot({ path: path.join(artifacts, "proposal-readable.png") });
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(seen.dialogs).toEqual([]);
  });

  test("the preview drawing has fit and zoom buttons", async ({ page }) => {
    await page.goto(`/proposals/${proposalId}`);
    const preview = page.getByTestId("preview");
    await card(page, 2).getByTestId("select-action").check();
    const canvas = preview.getByTestId("diff-canvas");
    await expect(canvas).toHaveAttribute("data-layout", "done");
    const controls = preview.getByTestId("canvas-controls");
    await expect(controls).toBeVisible();
    await controls.getByTestId("canvas-zoom-in").click();
    await controls.getByTestId("canvas-zoom-out").click();
    await controls.getByTestId("canvas-fit").click();
    // The legend is not cut off by the frame.
    const legend = preview.locator(".diff-legend");
    const [legendBox, previewBox] = [await legend.boundingBox(), await preview.boundingBox()];
    expect(legendBox && previewBox && legendBox.x + legendBox.width <= previewBox.x + previewBox.width + 1).toBe(true);
  });

  test("editing an action offers the graph's nodes as you type", async ({ page }) => {
    await page.goto(`/proposals/${proposalId}?edit=2#action-3`);
    const form = card(page, 2).getByTestId("edit-form");
    await expect(form).toBeVisible();
    const object = form.getByTestId("edit-object");
    await object.fill("Timeo");
    const options = page.getByTestId("node-picker-option");
    await expect(options.first()).toBeVisible();
    await expect(options.filter({ hasText: "Timeout" }).first()).toBeVisible();
    await options.filter({ hasText: "Timeout" }).first().click();
    await expect(object).toHaveValue(/Timeout$/);
    await expect(form.getByTestId("node-picker-picked")).toContainText("Names exactly the node Timeout");
    await form.getByTestId("edit-save").click();
    await expect(card(page, 2).getByTestId("re-reviewed")).toContainText("Edited and reviewed again");
    await expect(card(page, 2).getByTestId("action-name")).toHaveText(["HTTPTransport", "Timeout"]);
  });

  test("an admin renames and deletes a graph, with confirmation, audited", async ({ page, request }) => {
    const imported = await request.post("/api/graphs", { data: { path: mixedProject, name: "mixed-admin" } });
    expect(imported.status(), await imported.text()).toBe(201);
    await page.goto("/graphs/mixed-admin/questions");
    await page.getByTestId("rename-graph").click();
    const rename = page.getByTestId("rename-dialog");
    await rename.getByTestId("rename-input").fill("mixed-renamed");
    await rename.getByTestId("rename-save").click();
    await page.waitForURL(/\/graphs\/mixed-renamed\/questions$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("mixed-renamed");
    expect((await request.get("/api/graphs/mixed-admin")).status()).toBe(404);

    await page.getByTestId("delete-graph").click();
    const remove = page.getByTestId("delete-dialog");
    await expect(remove.getByTestId("delete-save")).toBeDisabled();
    await remove.getByTestId("delete-confirm").fill("mixed-renamed");
    await remove.getByTestId("delete-save").click();
    await page.waitForURL((url) => url.pathname === "/");
    expect((await request.get("/api/graphs/mixed-renamed")).status()).toBe(404);
    const audit = (await (await request.get("/api/audit?action=graph.")).json()) as { events: { action: string; summary: string }[] };
    const actions = audit.events.map((e) => e.action);
    expect(actions).toContain("graph.rename");
    expect(actions).toContain("graph.delete");
  });

  test("Settings tests the values in the form, not the saved ones", async ({ page, request }) => {
    await page.goto("/settings");
    await page.locator("#provider").selectOption("openai");
    // Nothing listens on port 9: the saved provider (heuristic) would answer, this cannot.
    await page.locator("#baseUrl").fill("http://127.0.0.1:9/v1");
    await page.locator("#model").fill("nothing-here");
    await page.locator("#timeoutMs").fill("2000");
    await page.locator("#maxRetries").fill("0");
    await page.getByRole("button", { name: /^Test the connection/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "No answer after" })).toBeVisible();
    const saved = (await (await request.get("/api/settings/llm")).json()) as { effective: { provider: string } };
    expect(saved.effective.provider).toBe("heuristic");
  });

  test("no sideways scroll on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    for (const url of [`/proposals/${proposalId}`, `/graphs/${GRAPH}/questions`, `/graphs/${GRAPH}/runs`, `/graphs/${GRAPH}/versions`, "/review", "/settings", "/"]) {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const found = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= width) return null;
        // Name the widest offender, so a failure says what to fix.
        const culprit = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > width + 1).pop();
        return `${document.documentElement.scrollWidth}px (${culprit ? `${culprit.tagName.toLowerCase()}.${String(culprit.className)}` : "?"})`;
      });
      if (found) wide.push(`${url}: ${found}`);
    }
    expect(wide).toEqual([]);
    await page.goto(`/proposals/${proposalId}`);
    await page.screenshot({ path: path.join(artifacts, "proposal-390.png"), fullPage: true });
  });
});
