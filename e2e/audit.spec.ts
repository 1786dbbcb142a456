/**
 * The audit log as a person uses it: a day grouped and readable, filters that narrow it (and
 * stay in the URL), "load more", the empty state, and the JSONL export with the same filters.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { clockTimeIn } from "../lib/audit/zoned-time";
import { e2eDatabaseUrl } from "./database";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const artifacts = path.join(here, "artifacts");
// The page shows times in the server's zone: the same machine's as this test's.
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

test.beforeAll(() => {
  execFileSync(path.join(root, "node_modules", ".bin", "tsx"), [path.join(here, "seed-audit.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() },
    stdio: "inherit",
  });
});

test("a day of the audit log reads in order, filters narrow it, and the export matches", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();

  await page.goto("/audit?from=2026-11-20&to=2026-11-20");
  const day = page.getByTestId("audit-day");
  await expect(day).toHaveCount(1);
  await expect(day.getByRole("heading")).toHaveText("Friday 20 November 2026");
  const events = page.getByTestId("audit-event");
  await expect(events).toHaveCount(6);
  // Newest first, each with its time, who (and how) and the sentence.
  await expect(events.first().locator("time")).toHaveText(clockTimeIn(new Date("2026-11-20T10:02:00Z"), timeZone));
  await expect(events.first()).toContainText('failed sign-in as "vera"');
  await expect(events.nth(3)).toContainText("Rosa Marquez (rosa)");
  await expect(events.nth(3)).toContainText("(1 of 2 approvals, LOW confidence)");
  await expect(events.nth(4).locator(".audit-kind")).toHaveText("via token");
  await expect(events.nth(3).getByRole("link", { name: "action 1" })).toHaveAttribute("href", "/proposals/p-e2e#action-1");
  await expect(events.nth(1).getByRole("link", { name: "version 2" })).toHaveAttribute("href", "/graphs/audit-e2e/versions/2");
  // Details open on demand; the admin sees the IP address.
  await events.nth(3).getByText("Details").click();
  await expect(events.nth(3).locator("dl")).toContainText("names the retry loop");
  await events.last().getByText("Details").click();
  await expect(events.last().locator("dl")).toContainText("10.0.0.21");
  await page.screenshot({ path: path.join(artifacts, "audit.png"), fullPage: true });

  // Who: rosa covers her browser session and her token.
  await page.getByTestId("audit-filter-actor").selectOption("rosa");
  await expect(events).toHaveCount(3);
  await expect(page).toHaveURL(/actor=rosa/);
  // What: the decisions group.
  await page.getByTestId("audit-filter-action").selectOption("action.");
  await expect(events).toHaveCount(1);
  await expect(events.first()).toHaveAttribute("data-action", "action.approve");

  // The export carries the same filters.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^refinery-audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
  const lines = fs.readFileSync(await download.path(), "utf8").trimEnd().split("\n");
  const exported = lines.map((line) => JSON.parse(line) as { action: string; actorName: string; at: string; details: { reason?: string } });
  expect(exported).toHaveLength(1);
  expect(exported[0]).toMatchObject({ action: "action.approve", actorName: "Rosa Marquez (rosa)", at: "2026-11-20T09:14:00.000Z" });
  expect(exported[0]?.details.reason).toBe("names the retry loop");

  // Text that matches nothing: the empty state says so.
  await page.getByTestId("audit-filter-text").fill("no such words anywhere");
  await expect(page.getByText("No events match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/audit$/);

  // More than a page: load older events.
  await page.goto("/audit?graph=bulk-audit");
  await expect(events).toHaveCount(100);
  await expect(events.first()).toContainText("started run 120 of the nightly batch");
  await page.getByTestId("audit-load-more").click();
  await expect(events).toHaveCount(120);
  await expect(page.getByText("120 events: that is everything that matches.")).toBeVisible();
  expect(errors).toEqual([]);
});
