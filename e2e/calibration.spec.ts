/**
 * Scores and decision statistics (issue #10), as a reviewer sees them: the queue row shows the
 * score beside the label, the strongest signals and how people decided on that kind and label
 * on the graph; the proposal page shows the signals with their evidence, the same statistics
 * beside each action, and the graph's table with the re-fit (not offered below the minimum).
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import type { Action } from "./review-helpers";
import { artifacts, seedProposals, watchPage } from "./review-helpers";
import { httpxProject } from "./review-helpers";

const GRAPH = "httpx-calibration";

const STATED: Action = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
const MADE_UP: Action = { type: "insert_edge", subject: "Timeout", relation: "calls", object: "DigestAuth" };
const DELETE: Action = { type: "delete_edge", subject: "Timeout", relation: "uses", object: "Request" };
// The pending proposal asks the same kinds with the same labels about other nodes: a copy of a
// decided action would be merged with it in the queue and made obsolete by its apply.
const PENDING: Action[] = [
  { type: "insert_edge", subject: "AsyncClient", relation: "calls", object: "_build_request" },
  { type: "insert_edge", subject: "Limits", relation: "calls", object: "DigestAuth" },
  { type: "delete_edge", subject: "Limits", relation: "uses", object: "Request" },
];

let decidedIds: string[] = [];
let pendingId = "";

const row = (page: Page, index: number) => page.locator(`[data-testid="queue-row"][data-key="${pendingId}:${index}"]`);
const card = (page: Page, index: number) => page.locator(`[data-testid="action-card"][data-index="${index}"]`);

interface Calibration {
  stats: { decided: number; stats: { kind: string; label: string; decided: number; approved: number; reverted: number }[] };
  refit: { thresholds: unknown; reason: string };
}

async function calibration(request: APIRequestContext): Promise<Calibration> {
  const res = await request.get(`/api/graphs/${GRAPH}/calibration`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Calibration;
}

function expectedLine(c: Calibration, kind: string, label: string, noun: string, many: string): string {
  const e = c.stats.stats.find((s) => s.kind === kind && s.label === label);
  if (!e || e.decided === 0) return `No ${label} ${noun} on ${GRAPH} decided yet`;
  return `${label} ${many} on ${GRAPH}: ${e.approved} of ${e.decided} approved${e.reverted > 0 ? `; ${e.reverted} reverted` : ""}`;
}

test.describe.serial("scores and decision statistics", () => {
  test.beforeAll(async ({ request }) => {
    const imported = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
    const policy = await request.put(`/api/graphs/${GRAPH}/policy`, {
      data: { requiredHigh: 1, requiredMedium: 1, requiredLow: 1, lowNeedsReason: true, approverRole: "reviewer", bulkHigh: true, separateDuties: false },
    });
    expect(policy.status(), await policy.text()).toBe(200);
    // All reviewed against the same version, so the pending copies carry the decided ones' labels.
    const ids = seedProposals(GRAPH, [{ actions: [STATED] }, { actions: [MADE_UP] }, { actions: [DELETE] }, { question: "e2e: calibration", actions: PENDING }]);
    decidedIds = ids.slice(0, 3);
    pendingId = ids[3] ?? "";
  });

  // Later specs count the pending actions of the whole queue: leave none behind.
  test.afterAll(async ({ request }) => {
    const res = await request.post(`/api/proposals/${pendingId}/reject`, { data: { actions: [0, 1, 2], reason: "e2e clean-up" } });
    expect(res.status(), await res.text()).toBe(200);
  });

  test("before any decision: the score beside the label, and an empty state for the statistics", async ({ page }) => {
    const seen = watchPage(page);
    await page.goto(`/review?graph=${GRAPH}`);
    await expect(page.getByTestId("review-queue")).toHaveAttribute("data-hydrated", /\d+/);
    const first = row(page, 0);
    await expect(first.getByTestId("score")).toHaveText(/^[01]\.\d\d$/);
    await expect(first.getByTestId("row-signals")).toContainText(/[+\u2212±]\d\.\d\d/);
    const label = (await first.getAttribute("data-confidence")) ?? "";
    await expect(first.getByTestId("row-decision-stats")).toHaveText(`No ${label} insert on ${GRAPH} decided yet`);
    await page.getByTestId("queue-calibration").locator("summary").click();
    await expect(page.getByTestId("calibration-empty")).toContainText(`No decision on ${GRAPH} yet`);
    expect(seen.errors).toEqual([]);
  });

  test("decisions show up in the queue, per kind and label", async ({ page, request }) => {
    const [stated, madeUp, del] = decidedIds;
    const approve = async (id: string | undefined) => {
      const res = await request.post(`/api/proposals/${id}/approve`, { data: { actions: [0], lowConfidence: true, reason: "checked in the source, e2e" } });
      expect(res.status(), await res.text()).toBe(200);
    };
    await approve(stated);
    await approve(del);
    const vetoed = await request.post(`/api/proposals/${madeUp}/reject`, { data: { actions: [0], reason: "Timeout never calls DigestAuth" } });
    expect(vetoed.status(), await vetoed.text()).toBe(200);
    // The approved delete is undone: it counts as approved, and reverted.
    const versions = (await (await request.get(`/api/graphs/${GRAPH}/versions`)).json()) as { version: number; proposalId: string | null }[];
    const delVersion = versions.find((v) => v.proposalId === del)?.version;
    expect(delVersion).toBeDefined();
    const reverted = await request.post(`/api/graphs/${GRAPH}/versions/${delVersion}/revert`);
    expect(reverted.status(), await reverted.text()).toBe(200);

    const c = await calibration(request);
    expect(c.stats.decided).toBe(3);
    await page.goto(`/review?graph=${GRAPH}`);
    await expect(page.getByTestId("review-queue")).toHaveAttribute("data-hydrated", /\d+/);
    for (const [index, kind, noun, many] of [
      [0, "insert_edge", "insert", "inserts"],
      [1, "insert_edge", "insert", "inserts"],
      [2, "delete_edge", "delete", "deletes"],
    ] as const) {
      const label = (await row(page, index).getAttribute("data-confidence")) ?? "";
      await expect(row(page, index).getByTestId("row-decision-stats")).toHaveText(expectedLine(c, kind, label, noun, many));
    }
    await expect(row(page, 2).getByTestId("row-decision-stats")).toContainText("1 of 1 approved; 1 reverted");
    // Approving a LOW action: the confirmation shows its score and how such actions fared here.
    const lowIndex = (await row(page, 1).getAttribute("data-confidence")) === "LOW" ? 1 : (await row(page, 0).getAttribute("data-confidence")) === "LOW" ? 0 : -1;
    if (lowIndex >= 0) {
      await row(page, lowIndex).getByTestId("row-approve").click();
      const dialog = page.getByTestId("low-confirm");
      await expect(dialog.getByTestId("score")).toHaveText(/^[01]\.\d\d$/);
      await expect(dialog.getByTestId("low-history")).toHaveText(expectedLine(c, "insert_edge", "LOW", "insert", "inserts"));
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
    }
    await page.getByTestId("queue-calibration").locator("summary").click();
    const panel = page.getByTestId("calibration-panel");
    await expect(panel.getByTestId("calibration-table")).toBeVisible();
    await expect(panel.locator('[data-testid="calibration-cell"][data-kind="delete_edge"]')).toContainText("1 of 1 approved · 1 reverted");
    await expect(panel.getByTestId("calibration-proposal")).toContainText("needs at least 20 decisions");
    await expect(panel.getByTestId("calibration-apply")).toBeDisabled();
    await page.setViewportSize({ width: 1440, height: 1200 });
    await page.screenshot({ path: path.join(artifacts, "calibration-queue.png"), fullPage: true });
  });

  test("the proposal page shows the score, its signals with their evidence, and the statistics beside each action", async ({ page, request }) => {
    const seen = watchPage(page);
    const c = await calibration(request);
    await page.goto(`/proposals/${pendingId}`);
    await expect(page.getByTestId("proposal-page")).toHaveAttribute("data-hydrated", /\d+/);
    const first = card(page, 0);
    await expect(first.getByTestId("score")).toHaveText(/^[01]\.\d\d$/);
    const signals = first.getByTestId("signal");
    // The signals fold out under the verdict.
    await first.getByTestId("action-details").locator("summary").click();
    await expect(signals.first()).toBeVisible();
    await expect(signals.first().locator(".signal__contribution")).toHaveText(/^[+\u2212±]\d\.\d\d$/);
    // The code check that confirms the call carries its quote.
    await expect(first.getByTestId("signals")).toContainText("_build_request");
    // Every signal that weighs for the action says whether it is evidence: "strong evidence",
    // "evidence for", or "not evidence" (the node's kind, a ratio too weak).
    const weighingFor = first.locator('[data-testid="signal"].signal--pos');
    expect(await weighingFor.count()).toBeGreaterThan(0);
    for (const s of await weighingFor.all()) await expect(s.locator(".signal__positive")).toHaveText(/^(strong evidence|evidence for|not evidence)$/);
    for (const [index, kind, noun, many] of [
      [0, "insert_edge", "insert", "inserts"],
      [2, "delete_edge", "delete", "deletes"],
    ] as const) {
      const label = (await card(page, index).getAttribute("data-confidence")) ?? "";
      await expect(card(page, index).getByTestId("action-decision-stats")).toHaveText(expectedLine(c, kind, label, noun, many).replace(`on ${GRAPH}`, "on this graph"));
    }
    await page.getByTestId("proposal-calibration").locator("summary").click();
    await expect(page.getByTestId("proposal-calibration").getByTestId("calibration-thresholds")).toContainText("the review's defaults");
    await page.setViewportSize({ width: 1440, height: 1600 });
    await page.screenshot({ path: path.join(artifacts, "calibration-proposal.png") });
    await card(page, 1).screenshot({ path: path.join(artifacts, "calibration-action-card.png") });
    await page.getByTestId("proposal-calibration").screenshot({ path: path.join(artifacts, "calibration-proposal-panel.png") });
    expect(seen.errors).toEqual([]);
  });

  test("a signal that weighs for the action without being evidence says so", async ({ page, request }) => {
    // Headers never uses DigestAuth (its code does not show it), but "uses" links classes like
    // these two: the relation's usual kinds of node fit (+1.00), which is not evidence.
    const [id] = seedProposals(GRAPH, [{ question: "e2e: not evidence", actions: [{ type: "insert_edge", subject: "models_headers", relation: "uses", object: "auth_digestauth" }] }]);
    try {
      await page.goto(`/proposals/${id}`);
      await expect(page.getByTestId("proposal-page")).toHaveAttribute("data-hydrated", /\d+/);
      const only = card(page, 0);
      await expect(only).toHaveAttribute("data-confidence", "LOW");
      await only.getByTestId("action-details").locator("summary").click();
      const signature = only.locator('[data-testid="signal"][data-kind="signature"]');
      await expect(signature.locator(".signal__contribution")).toHaveText(/^\+\d\.\d\d$/);
      await expect(signature.getByTestId("signal-not-evidence")).toHaveText("not evidence");
      await only.screenshot({ path: path.join(artifacts, "calibration-not-evidence.png") });
    } finally {
      const res = await request.post(`/api/proposals/${id}/reject`, { data: { actions: [0], reason: "e2e clean-up" } });
      expect(res.status(), await res.text()).toBe(200);
    }
  });
});
