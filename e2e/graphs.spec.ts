import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.join(here, "artifacts");
// Real data shipped beside the repo (../shared/data from the repo root).
const httpxProject = path.resolve(here, "..", "..", "shared", "data", "graphify", "httpx");

const HOSTILE = "<img src=x onerror=alert(1)>";

function note(type: string, description: string): void {
  test.info().annotations.push({ type, description });
  console.log(`${type}: ${description}`);
}

async function waitForLayout(canvas: Locator): Promise<number> {
  await expect(canvas).toHaveAttribute("data-layout", "done");
  return Number(await canvas.getAttribute("data-layout-ms"));
}

/**
 * Click a node the way a person does: Cytoscape draws on a canvas with no element per node, so
 * ask the instance Cytoscape registers on its container where the node was drawn.
 */
async function clickCanvasNode(page: Page, canvas: Locator, nodeId: string): Promise<void> {
  const point = await canvas.evaluate((element, id) => {
    type Cy = { getElementById(id: string): { empty(): boolean; renderedPosition(): { x: number; y: number } } };
    const cy = (element as unknown as { _cyreg?: { cy?: Cy } })._cyreg?.cy;
    // Canvas element ids carry an "n:" prefix (components/graph-canvas.tsx canvasId).
    const node = cy?.getElementById(`n:${id}`);
    return node && !node.empty() ? node.renderedPosition() : null;
  }, nodeId);
  const box = await canvas.boundingBox();
  if (!point || !box) throw new Error(`node ${nodeId} is not on the canvas`);
  await page.mouse.click(box.x + point.x, box.y + point.y);
}

test("import httpx from a path, search it and explore a class with its source", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Graphs", level: 1 })).toBeVisible();
  await expect(page.getByTestId("graphs-empty")).toContainText("npx refinery import");
  await page.screenshot({ path: path.join(artifacts, "graph-list-empty.png"), fullPage: true });

  await page.getByRole("textbox", { name: "Path on the server" }).fill(httpxProject);
  const importButton = page.getByRole("button", { name: "Import", exact: true });
  await importButton.click();
  await page.waitForURL(/\/graphs\/httpx$/, { timeout: 60_000 });
  await expect(page.getByTestId("stat-nodes")).toHaveText("144");
  await expect(page.getByTestId("stat-edges")).toHaveText("330");
  await expect(page.getByText("Pick a node to see its neighbourhood")).toBeVisible();

  await page.getByRole("searchbox", { name: "Search nodes" }).fill("Client");
  const first = page.getByTestId("search-result").first();
  await expect(first.getByTestId("node-item-label")).toHaveText("Client");
  await expect(first).toContainText("client.py::Client");
  await expect(first).toContainText("exact label");

  await first.click();
  await expect(page).toHaveURL(/[?&]node=client_client$/);
  const canvas = page.getByTestId("graph-canvas");
  const firstLayoutMs = await waitForLayout(canvas);
  note("layout ms (Client, depth 1)", String(firstLayoutMs));
  await expect(canvas).toHaveAttribute("data-node-count", "27");

  const panel = page.getByTestId("node-panel");
  await expect(panel.getByTestId("node-label")).toHaveText("Client");
  const source = panel.getByTestId("source-file");
  await expect(source).toContainText("raw/client.py:70");
  await expect(source.locator(".code__line.is-focus")).toContainText("class Client(BaseClient):");
  await expect(source.locator('.code__line[data-line="73"]')).toContainText("def __init__");
  await expect(panel.getByTestId("triples")).toContainText("inherits");

  await page.screenshot({ path: path.join(artifacts, "explorer.png") });

  // Clicking a node on the canvas recentres on it and updates the URL.
  await clickCanvasNode(page, canvas, "client_baseclient");
  await expect(page).toHaveURL(/[?&]node=client_baseclient$/);
  await expect(panel.getByTestId("node-label")).toHaveText("BaseClient");
  note("layout ms (BaseClient, after canvas click)", String(await waitForLayout(canvas)));

  // Back returns to the previous node: the selection lives in the URL.
  await page.goBack();
  await expect(panel.getByTestId("node-label")).toHaveText("Client");

  // A cold load of a shared link, measured up to a finished layout.
  const started = Date.now();
  await page.goto("/graphs/httpx?node=client_client");
  const coldLayoutMs = await waitForLayout(page.getByTestId("graph-canvas"));
  note("page load to finished layout ms (/graphs/httpx?node=client_client)", String(Date.now() - started));
  note("layout ms (cold load)", String(coldLayoutMs));

  await page.goto("/");
  const row = page.getByTestId("graph-table").getByRole("row", { name: /httpx/ });
  await expect(row).toContainText("graphify");
  await expect(row).toContainText("144");
  await expect(row).toContainText("330");
  await page.screenshot({ path: path.join(artifacts, "graph-list.png"), fullPage: true });
});

test("an uploaded label that looks like HTML is shown as text", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto("/");
  await page.getByRole("tab", { name: "Upload a file" }).click();
  await page.getByLabel("File", { exact: true }).setInputFiles({
    name: "hostile.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(`${HOSTILE}|mentions|Plain node\nPlain node|links to|<b>bold</b>\n`),
  });
  await page.getByLabel("Name", { exact: true }).fill("hostile");
  await page.getByRole("button", { name: "Upload and import" }).click();
  await page.waitForURL(/\/graphs\/hostile$/);
  await expect(page.getByTestId("stat-nodes")).toHaveText("3");

  await page.getByRole("searchbox", { name: "Search nodes" }).fill("img");
  const first = page.getByTestId("search-result").first();
  await expect(first.getByTestId("node-item-label")).toHaveText(HOSTILE);
  await first.click();
  await expect(page.getByTestId("node-label")).toHaveText(HOSTILE);
  await waitForLayout(page.getByTestId("graph-canvas"));
  await expect(page.getByTestId("triples")).toContainText(`${HOSTILE}mentions`);

  await page.getByRole("button", { name: "Plain node" }).first().click();
  await expect(page.getByTestId("node-label")).toHaveText("Plain node");
  await expect(page.getByTestId("triples")).toContainText("<b>bold</b>");

  await page.screenshot({ path: path.join(artifacts, "hostile-labels.png") });
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator("main b", { hasText: /^bold$/ })).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test("a malformed upload is refused with a message naming the file and line", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("tab", { name: "Upload a file" }).click();
  await page.getByLabel("File", { exact: true }).setInputFiles({
    name: "broken.json",
    mimeType: "application/json",
    buffer: Buffer.from('{\n  "nodes": [\n    {"id": "a",}\n  ],\n  "links": []\n}\n'),
  });
  await page.getByRole("button", { name: "Upload and import" }).click();
  const error = page.getByTestId("import-error");
  await expect(error).toContainText("Import failed");
  await expect(error).toContainText("broken.json: line 3");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Upload and import" })).toBeEnabled();
  await page.screenshot({ path: path.join(artifacts, "import-error.png"), fullPage: true });

  // The path form reports the path it could not find.
  await page.getByRole("tab", { name: "From a path on the server" }).click();
  await page.getByRole("textbox", { name: "Path on the server" }).fill("/no/such/graph.json");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-error")).toContainText("/no/such/graph.json: no such file or folder");
});

test("unknown graphs and nodes get designed not-found states", async ({ page }) => {
  const response = await page.goto("/graphs/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Graph not found" })).toBeVisible();

  const created = await page.request.post("/api/graphs/upload", {
    multipart: { name: "tiny", file: { name: "tiny.txt", mimeType: "text/plain", buffer: Buffer.from("a|r|b\n") } },
  });
  expect(created.status()).toBe(201);
  await page.goto("/graphs/tiny?node=nope");
  await expect(page.getByText("Node not found").first()).toBeVisible();
  await expect(page.getByText('graph "tiny" has no node with id "nope"').first()).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, "node-not-found.png") });
  await page.getByRole("button", { name: "Clear the selection" }).first().click();
  await expect(page).toHaveURL(/\/graphs\/tiny$/);
  await expect(page.getByText("Pick a node to see its neighbourhood")).toBeVisible();
});
