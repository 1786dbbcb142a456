import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

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
