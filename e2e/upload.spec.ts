/**
 * Uploading a graphify project keeps its sources: a .zip and a folder (webkitdirectory) both
 * import the demo project's six source files; graph.json alone says what it costs the review;
 * an unsafe .zip is refused with the entry named.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { APIRequestContext } from "@playwright/test";
import { buildZip } from "../lib/server/graphs/upload/zip-test-support";

const here = path.dirname(fileURLToPath(import.meta.url));
const demo = path.resolve(here, "..", "demo", "httpx");
const projectFiles = ["graph.json", ...fs.readdirSync(path.join(demo, "raw")).map((f) => `raw/${f}`)];

async function documentsOf(request: APIRequestContext, name: string): Promise<number> {
  const res = await request.get(`/api/graphs/${name}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { documents: number }).documents;
}

test.describe.serial("upload a graphify project", () => {
  test("a .zip of the project keeps its source files", async ({ page, request }) => {
    const zip = buildZip(projectFiles.map((f) => ({ name: `httpx/${f}`, data: fs.readFileSync(path.join(demo, f)), deflate: true })));
    await page.goto("/");
    await page.getByRole("tab", { name: "Upload a file" }).click();
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "httpx.zip", mimeType: "application/zip", buffer: zip });
    await expect(page.getByTestId("upload-no-sources")).toHaveCount(0);
    await page.getByLabel("Name", { exact: true }).fill("upload-zip");
    await page.getByRole("button", { name: "Upload and import" }).click();
    await page.waitForURL(/\/graphs\/upload-zip$/, { timeout: 60_000 });
    await expect(page.getByTestId("stat-nodes")).toHaveText("144");
    expect(await documentsOf(request, "upload-zip")).toBe(6);
  });

  test("a project folder keeps its source files", async ({ page, request }) => {
    await page.goto("/");
    await page.getByRole("tab", { name: "Upload a file" }).click();
    await page.getByLabel("Or a project folder").setInputFiles(demo);
    await expect(page.getByTestId("upload-choice")).toContainText("files from httpx");
    await page.getByLabel("Name", { exact: true }).fill("upload-folder");
    await page.getByRole("button", { name: "Upload and import" }).click();
    await page.waitForURL(/\/graphs\/upload-folder$/, { timeout: 60_000 });
    expect(await documentsOf(request, "upload-folder")).toBe(6);
  });

  test("graph.json alone says the review loses its text and code evidence", async ({ page, request }) => {
    await page.goto("/");
    await page.getByRole("tab", { name: "Upload a file" }).click();
    await page.getByLabel("File", { exact: true }).setInputFiles(path.join(demo, "graph.json"));
    await expect(page.getByTestId("upload-no-sources")).toContainText("text and code evidence are unavailable");
    await page.getByLabel("Name", { exact: true }).fill("upload-alone");
    await page.getByRole("button", { name: "Upload and import" }).click();
    await page.waitForURL(/\/graphs\/upload-alone$/, { timeout: 60_000 });
    expect(await documentsOf(request, "upload-alone")).toBe(0);
  });

  test("a .zip that climbs out of its folder is refused, naming the entry", async ({ page }) => {
    const zip = buildZip([
      { name: "graph.json", data: fs.readFileSync(path.join(demo, "graph.json")) },
      { name: "../../outside.py", data: "x = 1\n" },
    ]);
    await page.goto("/");
    await page.getByRole("tab", { name: "Upload a file" }).click();
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "evil.zip", mimeType: "application/zip", buffer: zip });
    await page.getByRole("button", { name: "Upload and import" }).click();
    await expect(page.getByTestId("import-error")).toContainText("unsafe name");
    await expect(page).toHaveURL(/\/$/);
  });
});
