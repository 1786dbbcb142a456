import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { isPostgresE2e } from "./database";

const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");

test("the settings page shows the offline provider and refuses a bad endpoint without saving it", async ({ page, request }) => {
  await page.goto("/settings");
  await expect(page.getByLabel("Provider")).toHaveValue("heuristic");
  await expect(page.getByText("rule-based, offline, not an LLM").first()).toBeVisible();
  await page.getByLabel("Provider").selectOption("openai");
  await page.getByLabel("Base URL").fill("ftp://not-http");
  await page.getByLabel("Model").fill("deeprefine-8b");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.locator(".form-error")).toContainText("Base URL must be an http(s) URL");
  await page.screenshot({ path: path.join(artifacts, "settings.png"), fullPage: true });
  const saved = (await (await request.get("/api/settings/llm")).json()) as { effective: { provider: string }; overridden: string[] };
  expect(saved.effective.provider).toBe("heuristic");
  expect(saved.overridden).toEqual([]);
});

test("a save still waiting after three seconds says so and why, and the notice goes when it lands", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.getByLabel("Provider")).toHaveValue("heuristic");
  // The server is slow to answer this one save (as when an import holds SQLite's one writer):
  // the request itself is real, only held back in the browser before it is sent.
  let held = 0;
  await page.route("**/api/settings/llm", async (route) => {
    if (route.request().method() !== "PUT") return route.continue();
    held++;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await route.continue();
  });
  const notice = page.getByTestId("slow-save");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  // Not at once: a quick save shows nothing.
  await page.waitForTimeout(1_500);
  await expect(notice).toHaveCount(0);
  await expect(notice).toBeVisible({ timeout: 4_000 });
  await expect(notice).toHaveAttribute("role", "status");
  await expect(notice).toContainText(/Still saving… [3-5] s\./);
  // Nothing is running on this server, so the notice names no import; it says what may hold a
  // save, and SQLite's one writer only where the server runs on SQLite.
  await expect(notice).toContainText("The server is still working on it: a large graph takes longer");
  if (isPostgresE2e()) await expect(notice).not.toContainText("SQLite");
  else await expect(notice).toContainText("with SQLite a write waits while another one (an import, say) finishes");
  await expect(notice).toContainText("Nothing is lost");
  await page.screenshot({ path: path.join(artifacts, "slow-save.png") });
  await expect(notice).toHaveCount(0, { timeout: 10_000 });
  expect(held).toBe(1);
});
