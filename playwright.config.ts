import { defineConfig } from "@playwright/test";
import { ADMIN_STATE, adminCsrfHeader } from "./e2e/auth-state";
import { e2eDatabaseUrl, isPostgresE2e } from "./e2e/database";

const port = 3100;

/**
 * End-to-end tests against the production build (`npm run build` runs first in `npm run check`)
 * and a throwaway database. Playwright starts the web server before globalSetup runs, so the
 * database is deleted by the server command itself, before the server can open it; global setup
 * then creates the first admin through /setup and saves its session for the specs.
 */
export default defineConfig({
  testDir: "e2e",
  // On PostgreSQL every spec runs but runs.spec, which plants runs straight into the SQLite file.
  testIgnore: isPostgresE2e() ? ["**/runs.spec.ts"] : [],
  outputDir: "test-results",
  globalSetup: "./e2e/global-setup.ts",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    viewport: { width: 1440, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // Every spec runs signed in as the admin global setup created (e2e/auth.spec.ts signs in others).
    storageState: ADMIN_STATE,
    extraHTTPHeaders: adminCsrfHeader(),
    launchOptions: {
      // Debian's Chromium: `npx playwright install` cannot download browsers on these machines.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  // graphs.spec starts from an empty graph list (the first-use story); specs that import graphs
  // of their own (ask, calibration, …) run after it.
  projects: [
    { name: "first-use", testMatch: /graphs\.spec\.ts$/ },
    // A project's testIgnore replaces the top-level one, so runs.spec's PostgreSQL exclusion is repeated.
    { name: "workflows", testIgnore: [/graphs\.spec\.ts$/, ...(isPostgresE2e() ? ["**/runs.spec.ts"] : [])], dependencies: ["first-use"] },
  ],
  webServer: {
    command: `node e2e/reset-db.mjs && npm run start -- -p ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      DATABASE_URL: e2eDatabaseUrl(),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
