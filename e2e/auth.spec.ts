import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { Browser } from "@playwright/test";
import { ADMIN } from "./auth-state";

const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");
const VIEWER = { username: "vera", password: "vera viewer password" };

/** A browser with nobody signed in (the specs' default is the admin's session). */
async function anonymousPage(browser: Browser) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: {} });
  return { context, page: await context.newPage() };
}

test.describe("accounts", () => {
  test("set-up is closed once the admin exists, and pages send strangers to sign in", async ({ browser }) => {
    const { context, page } = await anonymousPage(browser);
    await page.goto("/setup");
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/graphs/anything/runs");
    await expect(page).toHaveURL(/\/login\?next=%2Fgraphs%2Fanything%2Fruns$/);
    const api = await page.request.get("/api/graphs");
    expect(api.status()).toBe(401);
    await context.close();
  });

  test("a wrong password shows an error; the right one signs in and comes back", async ({ browser }) => {
    const { context, page } = await anonymousPage(browser);
    await page.goto("/review");
    await expect(page).toHaveURL(/\/login\?next=%2Freview$/);
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator(".alert--error")).toContainText("wrong username or password");
    await page.screenshot({ path: path.join(artifacts, "login.png"), fullPage: true });
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/review$/);
    await expect(page.locator(".user-menu")).toContainText(ADMIN.displayName);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await context.close();
  });

  test("the admin creates a viewer, who sees read-only pages and is refused changes", async ({ page, browser }) => {
    await page.goto("/admin/users");
    await page.getByLabel("Username").fill(VIEWER.username);
    await page.getByLabel("First password").fill(VIEWER.password);
    await page.getByLabel("Role", { exact: true }).selectOption("viewer");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId(`user-${VIEWER.username}`)).toContainText("active");
    await expect(page.getByTestId(`user-${ADMIN.username}`)).toContainText("you");
    await page.screenshot({ path: path.join(artifacts, "admin-users.png"), fullPage: true });

    const { context, page: viewer } = await anonymousPage(browser);
    await viewer.goto("/login");
    await viewer.getByLabel("Username").fill(VIEWER.username);
    await viewer.getByLabel("Password").fill(VIEWER.password);
    await viewer.getByRole("button", { name: "Sign in" }).click();
    await expect(viewer.getByRole("heading", { name: "Graphs", exact: true })).toBeVisible();
    await expect(viewer.locator(".user-menu")).toContainText("viewer");
    await expect(viewer.getByRole("link", { name: "Users" })).toHaveCount(0);
    // No import form for a viewer, and the API refuses the import anyway.
    await expect(viewer.getByRole("button", { name: /^Import/ })).toHaveCount(0);
    const csrf = (await context.cookies()).find((c) => c.name === "refinery_csrf")?.value ?? "";
    const refused = await viewer.request.post("/api/graphs", { data: { path: "/tmp/none" }, headers: { "x-csrf-token": csrf } });
    expect(refused.status()).toBe(403);
    // Settings are readable, saving them is refused with the reason.
    await viewer.goto("/settings");
    await viewer.getByRole("button", { name: "Save" }).click();
    await expect(viewer.locator(".form-error")).toContainText('"admin" permission');
    await viewer.goto("/admin/users");
    await expect(viewer.getByText("Administrators only")).toBeVisible();
    await context.close();
  });

  test("an API token is shown once, works as a bearer token, and stops when revoked", async ({ page, playwright }) => {
    await page.goto("/account");
    await page.getByLabel("Name").fill("e2e script");
    await page.getByLabel("Scope").selectOption("read");
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = (await page.getByTestId("token-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^rfy_/);
    await page.screenshot({ path: path.join(artifacts, "account.png"), fullPage: true });

    const script = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { authorization: `Bearer ${secret}` } });
    expect((await script.get("/api/graphs")).status()).toBe(200);
    expect((await script.post("/api/graphs", { data: { path: "/tmp/none" } })).status()).toBe(403);

    await page.getByRole("button", { name: "I have stored it" }).click();
    const row = page.getByRole("row", { name: /e2e script/ });
    await expect(row).toContainText(secret.slice(0, 12));
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect(row).toContainText("revoked");
    expect((await script.get("/api/graphs")).status()).toBe(401);
    await script.dispose();
  });
});
