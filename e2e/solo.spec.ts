/**
 * One person on a graph (issue #13, items 2 and 3): with fewer than two people who may approve,
 * the graph runs in solo mode — the admin approves their own runs, one approval applies, LOW
 * still asks for the written reason — and the queue says so with a link to the Policy tab. The
 * same action from two runs is one queue row listing both; once it applies, the other copy is
 * obsolete with a link to the version. A second approver switches the graph to the team rules,
 * and `a` on a row the admin may no longer approve says why.
 *
 * Other specs share this database and create reviewers, so this graph's policy lets only admins
 * approve: with the one admin global set-up created, that is "fewer than two people" whatever
 * ran before. The switch to team rules then lets reviewers approve again (a reviewer exists).
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { artifacts, graphState, httpxProject, runQuestion, seedProposals, watchPage } from "./review-helpers";

const GRAPH = "httpx-solo";
const QUESTION = "How does Client build requests?";
// HIGH: the source states it. LOW: nothing states it (one endpoint, no text).
const HIGH_ACTION = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" } as const;
const LOW_ACTION = { type: "insert_edge", subject: "Client", relation: "documented_in", object: "HTTPX user guide" } as const;
const LATER_ACTION = { type: "delete_edge", subject: "Timeout", relation: "uses", object: "URL" } as const;
const POLICY = { requiredHigh: 1, requiredMedium: 1, requiredLow: 2, lowNeedsReason: true, approverRole: "admin", bulkHigh: true, separateDuties: true };

let first = "";
let second = "";
let runA = "";

async function openQueue(page: Page, query = ""): Promise<void> {
  await page.goto(`/review?graph=${GRAPH}${query}`);
  await expect(page.getByTestId("review-queue")).toHaveAttribute("data-hydrated", /\d+/);
}

const rowOf = (page: Page, key: string) => page.locator(`[data-testid="queue-row"][data-key="${key}"]`);

test.describe.serial("solo mode, copies and obsolete actions", () => {
  test.beforeAll(async ({ request }) => {
    const imported = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
    // The stored policy is the team default (LOW needs two, separation of duties on), admins only.
    const policy = await request.put(`/api/graphs/${GRAPH}/policy`, { data: POLICY });
    expect(policy.status(), await policy.text()).toBe(200);
    expect(await policy.json()).toMatchObject({ mode: "solo", approvers: 1, effective: { requiredLow: 1, separateDuties: false, lowNeedsReason: true } });
    // Two runs, both started by the admin, propose the same HIGH action.
    runA = await runQuestion(request, GRAPH, QUESTION);
    const runB = await runQuestion(request, GRAPH, `${QUESTION} (again)`);
    [first] = seedProposals(GRAPH, [{ question: QUESTION, runId: runA, actions: [HIGH_ACTION, LOW_ACTION] }]) as [string];
    [second] = seedProposals(GRAPH, [{ question: `${QUESTION} (again)`, runId: runB, actions: [HIGH_ACTION] }]) as [string];
  });

  test("the queue says solo mode, links the policy, and shows the duplicated action once with both sources", async ({ page }) => {
    const seen = watchPage(page);
    await openQueue(page);
    const mode = page.getByTestId("queue-mode");
    await expect(mode).toHaveAttribute("data-mode", "solo");
    await expect(mode).toContainText("Solo mode: you can approve your own runs — a second reviewer turns on team rules");
    await expect(mode.getByTestId("queue-mode-policy")).toHaveAttribute("href", `/graphs/${GRAPH}/policy`);
    // Three pending actions, two of them copies: two rows.
    await expect(page.getByTestId("queue-row")).toHaveCount(2);
    const merged = page.locator('[data-testid="queue-row"]', { has: page.getByTestId("row-sources") });
    await expect(merged).toHaveCount(1);
    await expect(merged.getByTestId("row-sources")).toHaveAttribute("data-count", "2");
    await expect(merged.getByTestId("row-sources")).toContainText("by 2 runs");
    const links = await merged.getByTestId("row-source").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(links.map((l) => l.split("/")[2]?.split("#")[0]).sort()).toEqual([first, second].sort());
    // The admin's own run, and yet nothing is refused.
    await expect(page.getByTestId("row-refusal")).toHaveCount(0);
    await expect(merged.getByTestId("row-approve")).toHaveText("Approve and apply");
    await page.screenshot({ path: path.join(artifacts, "solo-queue.png") });
    expect(seen.errors).toEqual([]);
  });

  test("the admin approves their own run: HIGH with one click, LOW with a written reason and one approval", async ({ page }) => {
    const seen = watchPage(page);
    const before = await graphState(page.request, GRAPH);
    await openQueue(page);
    const merged = page.locator('[data-testid="queue-row"]', { has: page.getByTestId("row-sources") });
    const chosen = (await merged.getAttribute("data-key")) ?? "";
    await merged.getByTestId("row-approve").click();
    await expect(page.getByTestId("applied-version")).toHaveText(String(before.version + 1));

    // LOW: the API still refuses it without a reason.
    const refused = await page.request.post(`/api/proposals/${first}/approve`, { data: { actions: [1], lowConfidence: true } });
    expect(refused.status()).toBe(428);
    const low = rowOf(page, `${first}:1`);
    await expect(low.getByTestId("row-approvals")).toHaveText("0 of 1 approval");
    await low.getByTestId("row-approve").click();
    const dialog = page.getByRole("dialog", { name: "Approve a LOW-confidence change?" });
    await expect(dialog.getByTestId("low-confirm-apply")).toBeDisabled();
    await dialog.getByLabel("Why do you accept this risk?").fill("I maintain this graph; the user guide documents Client.");
    await expect(dialog.getByTestId("low-confirm-apply")).toHaveText("Approve and apply");
    await dialog.getByTestId("low-confirm-apply").click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("applied-version")).toHaveText(String(before.version + 2));
    expect((await graphState(page.request, GRAPH)).version).toBe(before.version + 2);

    // The copy that was not approved is obsolete, naming the version its twin made.
    const other = chosen.startsWith(first) ? `${second}:0` : `${first}:0`;
    await openQueue(page, "&status=obsolete");
    const obsolete = rowOf(page, other);
    await expect(obsolete.getByTestId("action-status")).toHaveAttribute("data-status", "obsolete");
    await expect(obsolete.getByTestId("row-obsolete")).toContainText(`exists since version ${before.version + 1}`);
    await page.screenshot({ path: path.join(artifacts, "solo-obsolete.png") });
    await obsolete.getByTestId("obsolete-version").click();
    await expect(page).toHaveURL(new RegExp(`/graphs/${GRAPH}/versions/${before.version + 1}$`));
    expect(seen.errors).toEqual([]);
  });

  test("a second approver turns on the team rules: `a` on the admin's own run says why instead of doing nothing", async ({ page }) => {
    const seen = watchPage(page);
    const reviewer = await page.request.post("/api/users", { data: { username: "sol", displayName: "Sol Reviewer", password: "sol reviewer password", role: "reviewer" } });
    expect([201, 409], await reviewer.text()).toContain(reviewer.status());
    const policy = await page.request.put(`/api/graphs/${GRAPH}/policy`, { data: { ...POLICY, approverRole: "reviewer" } });
    expect(await policy.json()).toMatchObject({ mode: "team" });
    const [later] = seedProposals(GRAPH, [{ question: QUESTION, runId: runA, actions: [LATER_ACTION] }]) as [string];
    const before = await graphState(page.request, GRAPH);

    await openQueue(page);
    await expect(page.getByTestId("queue-mode")).toHaveAttribute("data-mode", "team");
    await expect(page.getByTestId("queue-mode")).toContainText("from people other than whoever started its run");
    const row = rowOf(page, `${later}:0`);
    await expect(row.getByTestId("row-refusal")).toHaveText("your own run: someone else must approve it");
    await row.getByTestId("row-approvals").click();
    await expect(page.getByTestId("review-queue")).toHaveAttribute("data-selected", `${later}:0`);
    await page.keyboard.press("a");
    await expect(page.getByTestId("key-notice")).toContainText("Cannot approve action 1: your own run: someone else must approve it");
    expect((await graphState(page.request, GRAPH)).version).toBe(before.version);
    await page.screenshot({ path: path.join(artifacts, "solo-team-refused.png") });

    // Leave nothing pending for the specs after this one: the admin may still veto their own run.
    await row.getByTestId("row-reject").click();
    await expect(page.getByTestId("reject-notice")).toBeVisible();
    expect(seen.errors).toEqual([]);
  });
});
