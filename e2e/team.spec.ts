/**
 * A team approves under the graph's default policy: LOW needs two people with written reasons,
 * whoever submitted a proposal cannot approve it, viewers see no decision controls and the API
 * refuses them anyway. Each person has their own browser context (own cookies, own session).
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { artifacts, graphState, httpxProject, watchPage } from "./review-helpers";

const GRAPH = "httpx-team";
const PEOPLE = {
  rita: { username: "rita", displayName: "Rita Moreno", password: "rita reviewer password", role: "reviewer" },
  remy: { username: "remy", displayName: "Remy Okafor", password: "remy reviewer password", role: "reviewer" },
  vic: { username: "vic", displayName: "Vic Viewer", password: "vic viewer password", role: "viewer" },
} as const;
type Person = keyof typeof PEOPLE;

// LOW: the review finds nothing that states it (one endpoint, no text).
const LOW_ACTION = { type: "insert_edge", subject: "Client", relation: "documented_in", object: "HTTPX user guide" };
const HIGH_ACTION = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };

let lowProposal = "";
let highProposal = "";

interface Session {
  context: BrowserContext;
  page: Page;
  csrf: string;
}

/** A fresh browser context signed in through the login form, as that person would. */
async function signIn(browser: Browser, who: Person): Promise<Session> {
  const person = PEOPLE[who];
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: {} });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Username").fill(person.username);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Graphs", exact: true })).toBeVisible();
  const csrf = (await context.cookies()).find((c) => c.name === "refinery_csrf")?.value ?? "";
  return { context, page, csrf };
}

const card = (page: Page, index: number) => page.locator(`[data-testid="action-card"][data-index="${index}"]`);

async function openProposal(page: Page, id: string): Promise<void> {
  await page.goto(`/proposals/${id}`);
  await expect(page.getByTestId("proposal-page")).toHaveAttribute("data-hydrated", /\d+/);
}

test.describe.serial("approving as a team", () => {
  test.beforeAll(async ({ request }) => {
    const imported = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(imported.status(), await imported.text()).toBe(201);
    for (const person of Object.values(PEOPLE)) {
      const created = await request.post("/api/users", { data: person });
      expect([201, 409], await created.text()).toContain(created.status());
    }
    // The admin submits both proposals through the API: separation of duties makes them someone else's to approve.
    for (const actions of [[LOW_ACTION], [HIGH_ACTION]]) {
      const submitted = await request.post("/api/proposals", { data: { graph: GRAPH, actions, question: "e2e: who may approve?" } });
      expect(submitted.status(), await submitted.text()).toBe(201);
      const body = (await submitted.json()) as { id: string; actions: { confidence: string }[] };
      if (actions[0] === LOW_ACTION) {
        expect(body.actions[0]?.confidence).toBe("LOW");
        lowProposal = body.id;
      } else {
        expect(body.actions[0]?.confidence).toBe("HIGH");
        highProposal = body.id;
      }
    }
  });

  test("the proposer's approve is refused, with the reason on the page and a 403 from the API", async ({ page }) => {
    await openProposal(page, lowProposal);
    const low = card(page, 0);
    await expect(low.getByTestId("approve-action")).toBeDisabled();
    await expect(low.getByTestId("approve-refusal")).toHaveText("your own proposal: someone else must approve it");
    const refused = await page.request.post(`/api/proposals/${lowProposal}/approve`, { data: { actions: [0], lowConfidence: true, reason: "my own idea" } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("you submitted this proposal");
    await expect(page.getByTestId("proposal-people")).toContainText("Submitted by");
    await page.screenshot({ path: path.join(artifacts, "team-refused.png") });
  });

  test("two reviewers approve a LOW action together: the first is recorded, the second applies", async ({ browser }) => {
    const rita = await signIn(browser, "rita");
    const remy = await signIn(browser, "remy");
    const seen = [watchPage(rita.page), watchPage(remy.page)];
    const before = await graphState(rita.page.request, GRAPH);

    await openProposal(rita.page, lowProposal);
    const ritaCard = card(rita.page, 0);
    await expect(ritaCard.getByTestId("approval-tally")).toHaveText("0 of 2");
    await expect(ritaCard.getByTestId("approve-action")).toHaveText("Approve (1 of 2)…");
    await ritaCard.getByTestId("approve-action").click();
    const ritaDialog = rita.page.getByRole("dialog", { name: "Approve a LOW-confidence change?" });
    await ritaDialog.getByLabel("Why do you accept this risk?").fill("The user guide documents Client on its first page.");
    await expect(ritaDialog.getByTestId("low-confirm-apply")).toHaveText("Approve (1 of 2)");
    await ritaDialog.getByTestId("low-confirm-apply").click();
    await expect(ritaDialog).toBeHidden();
    await expect(rita.page.getByTestId("approval-recorded")).toContainText("1 of 2");
    await expect(ritaCard).toHaveAttribute("data-status", "pending");
    await expect(ritaCard.getByTestId("approve-refusal")).toContainText("you approved it");
    expect((await graphState(rita.page.request, GRAPH)).version).toBe(before.version);

    // The queue, as Remy sees it: 1 of 2, and the next click applies.
    await remy.page.goto(`/review?graph=${GRAPH}`);
    const row = remy.page.locator(`[data-testid="queue-row"][data-key="${lowProposal}:0"]`);
    await expect(row.getByTestId("row-approvals")).toHaveText("1 of 2 approvals");
    await expect(row.getByTestId("row-approve")).toHaveText("Approve and apply…");
    await remy.page.screenshot({ path: path.join(artifacts, "team-queue.png") });

    await openProposal(remy.page, lowProposal);
    const remyCard = card(remy.page, 0);
    await expect(remyCard.getByTestId("decision")).toContainText("Rita Moreno");
    await remyCard.getByTestId("approve-action").click();
    const remyDialog = remy.page.getByRole("dialog", { name: "Approve a LOW-confidence change?" });
    await remyDialog.getByLabel("Why do you accept this risk?").fill("Agreed: the guide is the source of this fact.");
    await expect(remyDialog.getByTestId("low-confirm-apply")).toHaveText("Approve and apply");
    await remyDialog.getByTestId("low-confirm-apply").click();
    await expect(remy.page.getByTestId("applied-version")).toHaveText(String(before.version + 1));
    await expect(remyCard).toHaveAttribute("data-status", "applied");
    expect((await graphState(remy.page.request, GRAPH)).version).toBe(before.version + 1);

    // Both approvals and the apply are in the timeline, by name.
    await remy.page.reload();
    const timeline = remy.page.getByTestId("timeline");
    await expect(timeline).toContainText("Rita Moreno");
    await expect(timeline.locator('[data-kind="apply"]')).toContainText(`as version ${before.version + 1}`);
    await remy.page.getByTestId("comment-body").fill("Applied after we both checked the guide.");
    await remy.page.getByTestId("comment-submit").click();
    await expect(timeline.locator('[data-kind="comment"]')).toContainText("Applied after we both checked the guide.");
    await remy.page.setViewportSize({ width: 1440, height: 1400 });
    await remy.page.screenshot({ path: path.join(artifacts, "team-proposal.png"), fullPage: true });
    for (const s of seen) expect(s.errors).toEqual([]);
    await rita.context.close();
    await remy.context.close();
  });

  test("a viewer sees no approve control, and the API refuses the approval anyway", async ({ browser }) => {
    const vic = await signIn(browser, "vic");
    await openProposal(vic.page, highProposal);
    await expect(card(vic.page, 0)).toHaveAttribute("data-status", "pending");
    await expect(vic.page.getByTestId("approve-action")).toHaveCount(0);
    await expect(vic.page.getByTestId("reject-action")).toHaveCount(0);
    await expect(vic.page.getByTestId("decision-bar")).toHaveCount(0);
    await expect(vic.page.getByTestId("read-only-notice")).toBeVisible();
    await vic.page.goto(`/review?graph=${GRAPH}`);
    await expect(vic.page.getByTestId("review-queue")).toHaveAttribute("data-hydrated", /\d+/);
    await expect(vic.page.locator(`[data-testid="queue-row"][data-key="${highProposal}:0"]`)).toBeVisible();
    await expect(vic.page.getByTestId("row-approve")).toHaveCount(0);
    const refused = await vic.page.request.post(`/api/proposals/${highProposal}/approve`, { data: { actions: [0] }, headers: { "x-csrf-token": vic.csrf } });
    expect(refused.status()).toBe(403);
    const vetoed = await vic.page.request.post(`/api/proposals/${highProposal}/reject`, { data: { actions: [0] }, headers: { "x-csrf-token": vic.csrf } });
    expect(vetoed.status()).toBe(403);
    const proposal = (await (await vic.page.request.get(`/api/proposals/${highProposal}`)).json()) as { actions: { status: string }[] };
    expect(proposal.actions[0]?.status).toBe("pending");
    await vic.context.close();
  });

  test("the policy: admins edit it, others read it", async ({ page, browser }) => {
    await page.goto(`/graphs/${GRAPH}/policy`);
    await expect(page.getByTestId("policy-requiredLow")).toHaveValue("2");
    await page.getByTestId("policy-requiredMedium").fill("2");
    await page.getByTestId("policy-save").click();
    await expect(page.getByTestId("policy-saved")).toBeVisible();
    await page.screenshot({ path: path.join(artifacts, "policy-editor.png"), fullPage: true });
    const rita = await signIn(browser, "rita");
    await rita.page.goto(`/graphs/${GRAPH}/policy`);
    await expect(rita.page.getByTestId("policy-summary")).toContainText("MEDIUM 2");
    await expect(rita.page.getByTestId("policy-save")).toHaveCount(0);
    const refused = await rita.page.request.put(`/api/graphs/${GRAPH}/policy`, {
      data: { requiredHigh: 1, requiredMedium: 1, requiredLow: 1, lowNeedsReason: false, approverRole: "reviewer", bulkHigh: true, separateDuties: false },
      headers: { "x-csrf-token": rita.csrf },
    });
    expect(refused.status()).toBe(403);
    await rita.context.close();
  });
});
