import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import type { FullConfig } from "@playwright/test";
import { ADMIN, ADMIN_STATE } from "./auth-state";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Fresh screenshot folder each run (the database is reset by the web server command), then the
 * first-run flow a person goes through: the empty instance sends the browser to /setup, where
 * the admin account is created. Its signed-in state is saved for every spec.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  const artifacts = path.join(here, "artifacts");
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });

  const use = config.projects[0]?.use ?? {};
  const browser = await chromium.launch({ executablePath, args: use.launchOptions?.args });
  try {
    const context = await browser.newContext({ baseURL: use.baseURL, viewport: use.viewport ?? undefined });
    const page = await context.newPage();
    await page.goto("/");
    await page.waitForURL(/\/setup$/);
    await page.screenshot({ path: path.join(artifacts, "setup.png"), fullPage: true });
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Display name (optional)").fill(ADMIN.displayName);
    await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
    await page.getByLabel("Password again").fill(ADMIN.password);
    await page.getByRole("button", { name: "Create the admin account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { name: "Graphs", exact: true }).waitFor();
    fs.mkdirSync(path.dirname(ADMIN_STATE), { recursive: true });
    await context.storageState({ path: ADMIN_STATE });
  } finally {
    await browser.close();
  }
}
