import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { graphState, httpxProject, note, seedAppliedProposal } from "./review-helpers";
import type { Action } from "./review-helpers";
import { e2eDatabaseUrl } from "./database";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const artifacts = path.join(here, "artifacts");
// Same file as playwright.config.ts gives the web server.
// A graph of its own, so the other specs' imports and applies do not shift its version numbers.
const GRAPH = "httpx-history";
const MERGE: Action[] = [
  { type: "replace_node", old: "AsyncClient", new: "Client" },
  { type: "insert_edge", subject: "Client", relation: "supports", object: "HTTP/2" },
  { type: "delete_edge", subject: "Client", relation: "inherits", object: "BaseClient" },
];

/**
 * A proposal reviewed by the server's own code and committed as a new version (set-up: these
 * specs are about the history, approval under the policy is review.spec's and team.spec's).
 */
async function applyAll(_request: APIRequestContext, actions: Action[]): Promise<{ proposal: string; version: number }> {
  await Promise.resolve();
  return seedAppliedProposal(GRAPH, "e2e: version history", actions);
}

/** The graph as `refinery export` writes it (the CLI shares the database with the server). */
function exportGraph(): string {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "refinery-e2e-")), "graph.json");
  execFileSync(process.execPath, [path.join(root, "bin", "refinery.mjs"), "export", GRAPH, "--out", out], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() },
  });
  return fs.readFileSync(out, "utf8");
}

/** What the tests ask of the Cytoscape instance Cytoscape registers on its container. */
interface CyElement {
  id(): string;
  visible(): boolean;
  style(property: string): string;
  position(): { x: number; y: number };
  renderedMidpoint(): { x: number; y: number };
}
interface CyHandle {
  _cyreg: { cy: { elements(selector: string): { toArray(): CyElement[] }; getElementById(id: string): CyElement } };
}

/** Which elements match a selector, and how many of them are shown. */
async function drawn(canvas: Locator, selector: string): Promise<{ ids: string[]; visible: number }> {
  return canvas.evaluate((element, sel) => {
    const list = (element as unknown as CyHandle)._cyreg.cy.elements(sel).toArray();
    return { ids: list.map((e) => e.id()), visible: list.filter((e) => e.visible()).length };
  }, selector);
}

async function style(canvas: Locator, id: string, property: string): Promise<string> {
  return canvas.evaluate((element, [eleId, prop]) => (element as unknown as CyHandle)._cyreg.cy.getElementById(eleId ?? "").style(prop ?? ""), [id, property]);
}

async function positionOf(canvas: Locator, id: string): Promise<{ x: number; y: number }> {
  return canvas.evaluate((element, eleId) => (element as unknown as CyHandle)._cyreg.cy.getElementById(eleId).position(), id);
}

async function hoverEdge(page: Page, canvas: Locator, id: string): Promise<void> {
  // The layout is not seeded, so another element may lie on top of the edge's midpoint: park the
  // pointer outside the canvas, then hover the edge itself, as Cytoscape does for a pointer over it.
  const box = await canvas.boundingBox();
  if (!box) throw new Error("the canvas is not on screen");
  await page.mouse.move(box.x + box.width + 40, box.y - 20);
  await canvas.evaluate((element, eleId) => {
    const ele = (element as unknown as CyHandleWithEmit)._cyreg.cy.getElementById(eleId);
    ele.emit({ type: "mouseover", renderedPosition: ele.renderedMidpoint() });
  }, id);
}

interface CyHandleWithEmit {
  _cyreg: { cy: { getElementById(id: string): { renderedMidpoint(): { x: number; y: number }; emit(event: { type: string; renderedPosition: { x: number; y: number } }): void } } };
}

test.describe.serial("version history, visual diff and undo", () => {
  test.beforeAll(async ({ request }) => {
    const response = await request.post("/api/graphs", { data: { path: httpxProject, name: GRAPH } });
    expect(response.status(), await response.text()).toBe(201);
  });

  test("a merge is drawn as a diff, and undoing it restores the original export", async ({ page, request }) => {
    const original = exportGraph();
    expect(original).toBe(fs.readFileSync(path.join(httpxProject, "graph.json"), "utf8"));
    const merge = await applyAll(request, MERGE);
    expect(merge.version).toBe(2);

    await page.goto(`/graphs/${GRAPH}`);
    await page.getByRole("navigation", { name: "Graph sections" }).getByRole("link", { name: "Versions" }).click();
    await page.waitForURL(/\/versions$/);
    const v2 = page.locator('[data-testid="version-item"][data-version="2"]');
    await expect(v2.getByTestId("version-kind")).toHaveText("applied");
    // Each action as a sentence naming nodes by label; the ids stay in the JSON, not on the card.
    const actions = v2.getByTestId("version-actions").locator("li");
    await expect(actions).toHaveCount(3);
    await expect(actions.nth(0)).toContainText(/Merges “AsyncClient” into “Client” \(\d+ edges rewired/);
    await expect(actions.nth(1)).toHaveText("2. Adds the edge “Client” —supports→ “HTTP/2” (“HTTP/2” is a new node).");
    await expect(actions.nth(2)).toHaveText("3. Removes the edge “Client” —inherits→ “BaseClient”.");
    await expect(v2.getByTestId("version-actions")).not.toContainText(/client_|refinery_/);
    await expect(v2).toContainText("by e2e");
    await expect(v2.getByTestId("version-proposal")).toHaveAttribute("href", `/proposals/${merge.proposal}`);
    await expect(page.locator('[data-testid="version-item"][data-version="1"]').getByTestId("version-kind")).toHaveText("import");

    await v2.getByTestId("view-diff").click();
    await page.waitForURL(/\/versions\/2$/);
    const canvas = page.getByTestId("diff-canvas");
    await expect(canvas).toHaveAttribute("data-layout", "done");
    const elements = Number(await canvas.getAttribute("data-elements"));
    const drawMs = Number(await canvas.getAttribute("data-draw-ms"));
    note("diff v1 → v2: elements drawn", String(elements));
    note("diff v1 → v2: draw ms (cy creation + two-phase layout)", String(drawMs));
    expect(elements).toBeGreaterThan(30);
    expect(elements).toBeLessThanOrEqual(300);
    // Timing is recorded (note above), not asserted: these machines are shared and noisy.
    expect(drawMs).toBeGreaterThan(0);

    // Added, merged and rewired elements are all drawn, each distinct by width as well as colour.
    expect((await drawn(canvas, "node.added")).ids).toEqual(["n:refinery_http_2"]);
    expect((await drawn(canvas, "node.merged")).ids).toEqual(["n:client_asyncclient"]);
    expect((await drawn(canvas, "edge.merge-link")).ids).toEqual(["merge:client_asyncclient"]);
    const rewired = (await drawn(canvas, "edge.changed")).ids;
    expect(rewired).toHaveLength(11);
    const context = (await drawn(canvas, "edge.context")).ids;
    expect(parseFloat(await style(canvas, rewired[0] ?? "", "width"))).toBeGreaterThanOrEqual(3 * parseFloat(await style(canvas, context[0] ?? "", "width")));
    expect(await style(canvas, "n:client_asyncclient", "label")).toBe("− AsyncClient → Client");
    expect(await style(canvas, "n:refinery_http_2", "label")).toBe("+ HTTP/2");
    const legend = page.getByTestId("diff-legend");
    await expect(legend.locator('[data-status="added"]')).toContainText("added (2)");
    await expect(legend.locator('[data-status="merged"]')).toContainText("merged into (1)");
    await expect(legend.locator('[data-status="changed"]')).toContainText("(12)");

    const changes = page.getByTestId("change-list");
    await expect(changes.locator('[data-section="merged-nodes"]')).toContainText("AsyncClient merged into Client");
    await expect(changes.locator('[data-section="added-nodes"]')).toContainText("HTTP/2");
    await expect(changes.locator('[data-section="changed-edges"]')).toContainText("(11)");

    // A rewired edge is drawn at its new endpoints; where it was is in its tooltip.
    await hoverEdge(page, canvas, rewired[0] ?? "");
    await expect(page.getByRole("tooltip")).toContainText(/Rewired edge: now Client —\S+→ .+; was AsyncClient —/);

    // Before / After only hide and show: nothing that existed moves.
    const where = await positionOf(canvas, "n:client_client");
    // A view button re-renders the canvas after the click returns: polled, not read once (a
    // single read right after "After" saw the merged node still shown on a slow CI run).
    await page.getByRole("button", { name: "Before", exact: true }).click();
    await expect.poll(async () => (await drawn(canvas, "node.added")).visible).toBe(0);
    await expect.poll(async () => (await drawn(canvas, "edge.ghost")).visible).toBe(11);
    await page.getByRole("button", { name: "After", exact: true }).click();
    await expect.poll(async () => (await drawn(canvas, "node.merged")).visible).toBe(0);
    expect(await positionOf(canvas, "n:client_client")).toEqual(where);
    await page.getByRole("button", { name: "Changes", exact: true }).click();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(artifacts, "diff.png"), fullPage: true });

    // Undo asks first, then writes version 3.
    await page.getByTestId("undo-version").click();
    const confirm = page.getByTestId("undo-confirm");
    await expect(confirm).toContainText("as a new version 3");
    // The confirmation says what is taken back, in the same words as the history.
    await expect(confirm.getByTestId("undo-actions").locator("li")).toHaveCount(3);
    await expect(confirm.getByTestId("undo-actions")).toContainText("Merges “AsyncClient” into “Client”");
    await confirm.getByRole("button", { name: "Undo as version 3" }).click();
    await expect(page.getByTestId("undone-by")).toHaveText("undone by v3");
    await expect(page.getByTestId("undo-version")).toHaveCount(0);
    await expect(page.locator(".graph-header .badge--quiet")).toHaveText("v3");
    expect((await graphState(request, GRAPH)).version).toBe(3);

    await page.getByRole("link", { name: "← All versions" }).click();
    const v3 = page.locator('[data-testid="version-item"][data-version="3"]');
    await expect(v3.getByTestId("version-kind")).toHaveText("undo");
    await expect(v3.getByTestId("undo-of")).toHaveText("undo of v2");
    await expect(page.locator('[data-testid="version-item"][data-version="2"]').getByTestId("undone-by")).toHaveText("undone by v3");
    await page.screenshot({ path: path.join(artifacts, "versions.png"), fullPage: true });

    // The undo cancels the change exactly: nothing differs between versions 1 and 3, nor in the export.
    await v3.getByTestId("view-diff").click();
    await page.getByTestId("compare-from").selectOption("1");
    await page.waitForURL(/\/versions\/3\?from=1$/);
    await expect(page.getByTestId("diff-empty")).toContainText("No differences");
    expect(exportGraph()).toBe(original);
  });

  test("an undo that later changes conflict with is refused with the server's reason, inline", async ({ page, request }) => {
    const { version: added } = await applyAll(request, [{ type: "insert_edge", subject: "Client", relation: "supports", object: "HTTP/3" }]);
    const { version: removed } = await applyAll(request, [{ type: "delete_edge", subject: "Client", relation: "supports", object: "HTTP/3" }]);
    expect([added, removed]).toEqual([4, 5]);

    await page.goto(`/graphs/${GRAPH}/versions`);
    const item = page.locator(`[data-testid="version-item"][data-version="${added}"]`);
    await item.getByTestId("undo-version").click();
    await item.getByRole("button", { name: "Undo as version 6" }).click();
    const error = item.getByTestId("undo-error");
    await expect(error).toContainText(`cannot undo version ${added}: later changes touch the same nodes or edges`);
    expect((await graphState(request, GRAPH)).version).toBe(removed);
    await expect(page.locator('[data-testid="version-item"][data-version="6"]')).toHaveCount(0);
  });

  test("a version that does not exist is a real 404 with a way back", async ({ page }) => {
    const response = await page.goto(`/graphs/${GRAPH}/versions/99`);
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("version-not-found")).toContainText(`has no version 99`);
    await page.getByRole("link", { name: "See the versions" }).click();
    await page.waitForURL(/\/versions$/);
  });

  test("the API describes itself: GET /api/openapi.json", async ({ request }) => {
    const response = await request.get("/api/openapi.json");
    expect(response.status()).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThanOrEqual(30);
    expect(operations.every((op) => typeof op.operationId === "string")).toBe(true);
    expect(doc.paths["/api/proposals/{id}/approve"]?.post?.responses).toHaveProperty("428");
    expect(doc.paths["/api/graphs/{name}/versions/{version}/revert"]?.post?.operationId).toBe("revertVersion");
  });
});
