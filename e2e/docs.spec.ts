/**
 * The docs page and the static files of public/: the README's screenshots served and shown with
 * captions, the docs/ topics as pages, the favicon and the app's icons served without a session.
 */
import { expect, test } from "@playwright/test";

test.describe("docs page and public files", () => {
  test("shows every screenshot (loaded, not broken) with a caption, and opens a topic", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs" }).click();
    await page.waitForURL(/\/docs$/);
    const shots = page.getByTestId("docs-screenshots").locator("img");
    await expect(shots).toHaveCount(4);
    for (const img of await shots.all()) {
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1440);
    }
    await expect(page.getByTestId("docs-screenshots").locator("figcaption").first()).toContainText("The review queue.");
    const topics = page.getByTestId("docs-topics");
    await expect(topics.getByRole("link", { name: /^Approvals/ })).toBeVisible();
    await page.screenshot({ path: "e2e/artifacts/docs.png", fullPage: true });

    await topics.getByRole("link", { name: /^Approvals/ }).click();
    await page.waitForURL(/\/docs\/approvals$/);
    await expect(page.locator("h1")).toContainText("Approvals");
    await expect(page.locator(".doc h2").first()).toBeVisible();
    await page.screenshot({ path: "e2e/artifacts/docs-topic.png", fullPage: false });
  });

  test("a topic that does not exist, or a path out of docs/, is a 404", async ({ page }) => {
    expect((await page.goto("/docs/nope"))?.status()).toBe(404);
    expect((await page.goto("/docs/..%2Fpackage"))?.status()).toBe(404);
  });

  test("favicon, icons, manifest and screenshots are served without a session", async ({ browser }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const request = context.request;
    for (const [file, type] of [
      ["/favicon.ico", /image\/(x-icon|vnd\.microsoft\.icon)/],
      ["/icon.svg", /image\/svg\+xml/],
      ["/icon-192.png", /image\/png/],
      ["/icon-512.png", /image\/png/],
      ["/manifest.webmanifest", /manifest\+json|json/],
      ["/screenshots/queue-desktop.png", /image\/png/],
    ] as const) {
      const response = await request.get(file, { maxRedirects: 0 });
      expect(response.status(), file).toBe(200);
      expect(response.headers()["content-type"], file).toMatch(type);
    }
    // The page names its icons for browsers.
    const page = await context.newPage();
    await page.goto("/login");
    await expect(page.locator('link[rel="icon"][href^="/favicon.ico"]')).toHaveCount(1);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    await context.close();
  });
});
