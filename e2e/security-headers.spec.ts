/**
 * The Content-Security-Policy must not break the app: pages hydrate, client navigation works,
 * Cytoscape lays a graph out, and the browser reports no policy violation on the way. Runs
 * after graphs.spec (which imports httpx).
 */
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";

/** Collects every CSP violation the page reports (the browser fires an event per blocked thing). */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportViolation(v: string): void }).__reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test("pages send the security headers and work under their Content-Security-Policy", async ({ page }) => {
  const violations = await watchViolations(page);
  const response = await page.goto("/");
  const headers = response?.headers() ?? {};
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  await expect(page.getByRole("heading", { name: "Graphs", level: 1 })).toBeVisible();

  // Client-side navigation (needs hydrated React) and the graph canvas (Cytoscape).
  await page.getByRole("link", { name: "httpx" }).first().click();
  await page.waitForURL(/\/graphs\/httpx/);
  await page.getByRole("searchbox", { name: "Search nodes" }).fill("Client");
  await page.getByTestId("search-result").first().click();
  const canvas = page.getByTestId("graph-canvas");
  await expect(canvas).toHaveAttribute("data-layout", "done");
  expect(Number(await canvas.getAttribute("data-node-count"))).toBeGreaterThan(1);

  await page.getByRole("link", { name: "Settings" }).click();
  await page.waitForURL(/\/settings/);
  await page.goto("/audit");
  await expect(page.locator("h1").first()).toBeVisible();
  expect(violations).toEqual([]);
});

test("API answers carry a CSP under which nothing runs", async ({ request }) => {
  const res = await request.get("/api/graphs");
  expect(res.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(res.headers()["x-frame-options"]).toBe("DENY");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
});
