/**
 * The README's screenshots, taken from a fresh demo: the demo project imported, its suggested
 * questions run with the heuristic provider (as `npm run demo` does), one HIGH change applied;
 * then the review queue (which must hold HIGH, MEDIUM and LOW rows), a proposal, a run and a
 * version diff at 1440×900 and 390×844. `npm run screenshots` (after a build) writes them to
 * docs/screenshots/, the one copy: the README links there, and the app serves them on /docs
 * through public/screenshots (a symlink to that folder);
 * in `npm test` they go to e2e/artifacts/screenshots.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { DEMO_QUESTIONS } from "../demo/questions";
import { runQuestion, seedAppliedProposal } from "./review-helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const demo = path.resolve(here, "..", "demo", "httpx");
// `npm run screenshots` writes the README's pictures; in `npm test` they go to e2e/artifacts.
const out = process.env.REFINERY_SCREENSHOTS ? path.resolve(here, "..", "docs", "screenshots") : path.resolve(here, "artifacts", "screenshots");
const GRAPH = "httpx-demo";
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

let runIds: string[] = [];
let proposalId = "";
let version = 0;

async function shoot(page: Page, url: string, file: string, ready: (page: Page, viewport: (typeof VIEWPORTS)[number]["name"]) => Promise<void>): Promise<void> {
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.goto(url);
    await ready(page, v.name);
    // Let fonts and the graph layout settle before the picture.
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: path.join(out, `${file}-${v.name}.png`) });
  }
}

test.describe.serial("README screenshots from a fresh demo", () => {
  test.beforeAll(async ({ request }) => {
    const imported = await request.post("/api/graphs", { data: { path: demo, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
    runIds = [];
    for (const question of DEMO_QUESTIONS) runIds.push(await runQuestion(request, GRAPH, question));
    const mockRun = runIds[DEMO_QUESTIONS.indexOf("How is MockTransport related to BaseTransport?")] ?? "";
    const page = (await (await request.get(`/api/proposals?run=${mockRun}`)).json()) as { proposals: { id: string }[] };
    proposalId = page.proposals[0]?.id ?? "";
    expect(proposalId).not.toBe("");
    ({ version } = seedAppliedProposal(GRAPH, "How is HTTPTransport related to ConnectionPool?", [
      { type: "insert_edge", subject: "HTTPTransport", relation: "uses", object: "ConnectionPool" },
    ]));
  });

  test("the review queue: a fresh demo proposes HIGH, MEDIUM and LOW changes", async ({ page }) => {
    await page.goto(`/review?graph=${GRAPH}`);
    await expect(page.getByTestId("review-queue")).toHaveAttribute("data-hydrated", /\d+/);
    const labels = await page.getByTestId("queue-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-confidence")));
    for (const label of ["HIGH", "MEDIUM", "LOW"]) expect(labels, `a ${label} row in the demo's queue`).toContain(label);
    await shoot(page, "/review", "queue", async (p, viewport) => {
      await expect(p.getByTestId("queue-row").first()).toBeVisible();
      // On a phone the header and filters fill the first screen: show the rows, as cards there.
      if (viewport === "phone") await p.getByTestId("queue-table").evaluate((table) => table.scrollIntoView({ block: "start" }));
    });
  });

  test("a proposal", async ({ page }) => {
    await shoot(page, `/proposals/${proposalId}`, "proposal", async (p) => {
      await expect(p.getByTestId("action-card").first()).toBeVisible();
    });
  });

  test("a run", async ({ page }) => {
    const runId = runIds[DEMO_QUESTIONS.indexOf("How is MockTransport related to BaseTransport?")] ?? runIds[0] ?? "";
    await shoot(page, `/runs/${runId}`, "run", async (p) => {
      await expect(p.locator("main")).toContainText("MockTransport");
    });
  });

  test("a version diff", async ({ page }) => {
    await shoot(page, `/graphs/${GRAPH}/versions/${version}`, "diff", async (p) => {
      await expect(p.getByTestId("diff-canvas-area")).toBeVisible();
    });
  });
});
