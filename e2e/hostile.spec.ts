/**
 * Hostile content in a real browser: node ids that are Object.prototype names (`constructor`,
 * `__proto__`) used to crash the explorer's layout ("Cannot read properties of undefined
 * (reading 'getNodes')"); a 100,000-character label made pages 690,000 px wide; a bidi override
 * showed "\u202Eevil\u202C.py" as "live.py". The graph is a slice of httpx's real graph.json with
 * those nodes added (lib/test/hostile-graph.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { HOSTILE_IDS, hostileGraphJson } from "../lib/test/hostile-graph";

const here = path.dirname(fileURLToPath(import.meta.url));
const GRAPH = "hostile-e2e";

async function pageWidth(page: Page): Promise<{ scroll: number; viewport: number }> {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
}

async function openNode(page: Page, id: string): Promise<void> {
  await page.goto(`/graphs/${GRAPH}?node=${encodeURIComponent(id)}`);
  await expect(page.getByTestId("graph-canvas")).toHaveAttribute("data-layout", "done");
  await expect(page.getByTestId("node-panel")).toBeVisible();
}

test("a graph with prototype-named ids, a 100k label and a bidi label: no crash, no overflow, bidi shown", async ({ page, request }) => {
  const dir = path.join(here, ".tmp", "hostile");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "graph.json"), hostileGraphJson());
  const imported = await request.post("/api/graphs", { data: { path: dir, name: GRAPH } });
  expect(imported.ok(), await imported.text()).toBe(true);
  const report = (await imported.json()) as { warnings: string[] };
  expect(report.warnings.join("\n")).toContain("1 label longer than 1,000 characters shortened");

  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  for (const id of [HOSTILE_IDS.constructor, HOSTILE_IDS.proto]) {
    await openNode(page, id);
    const panel = page.getByTestId("node-panel");
    await expect(panel.getByTestId("node-label")).toHaveText(id);
    await expect(panel.getByTestId("triples")).toBeVisible();
    const width = await pageWidth(page);
    expect(width.scroll, `page width on ${id}`).toBeLessThanOrEqual(width.viewport);
  }
  // The neighbourhood of `constructor` holds the long and the bidi node: both drawn and listed.
  await openNode(page, HOSTILE_IDS.constructor);
  await expect(page.getByTestId("triples")).toContainText("⟨U+202E⟩evil⟨U+202C⟩.py");

  await openNode(page, HOSTILE_IDS.long);
  const label = page.getByTestId("node-label");
  // 200 characters and an ellipsis, then the rest on demand.
  await expect(label).toContainText(`${"W".repeat(200)}…`);
  expect(((await label.textContent()) ?? "").length).toBeLessThan(300);
  const attributes = page.getByTestId("node-panel").locator(".attributes");
  await attributes.getByRole("button", { name: "show all 100,000 characters" }).click();
  await expect(attributes).toContainText("W".repeat(5_000));
  const expanded = await pageWidth(page);
  expect(expanded.scroll, "page width with the 100k label expanded").toBeLessThanOrEqual(expanded.viewport);

  await openNode(page, HOSTILE_IDS.bidi);
  await expect(page.getByTestId("node-label")).toHaveText("⟨U+202E⟩evil⟨U+202C⟩.py");
  await page.getByRole("searchbox", { name: "Search nodes" }).fill("evil");
  await expect(page.getByTestId("search-result").first().getByTestId("node-item-label")).toHaveText("⟨U+202E⟩evil⟨U+202C⟩.py");
  await page.screenshot({ path: path.join(here, "artifacts", "hostile-bidi.png") });

  expect(errors).toEqual([]);
});

test("a proposal touching prototype-named nodes: its preview diff draws without a crash", async ({ page, request }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const submitted = await request.post("/api/proposals", {
    data: { graph: GRAPH, actions: [{ type: "insert_edge", subject: HOSTILE_IDS.constructor, relation: "calls", object: HOSTILE_IDS.proto }] },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const { id } = (await submitted.json()) as { id: string };
  await page.goto(`/proposals/${id}`);
  const preview = page.getByTestId("preview");
  await expect(preview).toHaveAttribute("data-state", "ready");
  await expect(preview.getByTestId("diff-canvas")).toHaveAttribute("data-layout", "done");
  expect(Number(await preview.getByTestId("diff-canvas").getAttribute("data-elements"))).toBeGreaterThan(1);
  expect(errors).toEqual([]);
  // Leave the shared review queue as it was for the specs that count it.
  const rejected = await request.post(`/api/proposals/${id}/reject`, { data: { actions: [0], reason: "e2e clean-up" } });
  expect(rejected.status(), await rejected.text()).toBe(200);
});
