/**
 * A graph with hostile content through the real import and explorer functions: ids that are
 * Object.prototype names load, search, show and link like any other; a 100k-character label is
 * shortened at import with a warning in the import report (the full text kept in the node's
 * attributes); an attribute named "__proto__" survives as data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LABEL_CHARS } from "../../import/cap-label";
import { HOSTILE_IDS, HOSTILE_LONG_LABEL, hostileGraphJson } from "../../test/hostile-graph";
import { getNeighbourhood, getNodeDetails, searchNodes } from "./explore-graph";
import type { ImportReport } from "./import-graph";
import { importGraphFromText } from "./import-graph";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
let report: ImportReport;

beforeAll(async () => {
  db = await useTestDatabase("hostile-graph");
  report = await importGraphFromText({ name: "hostile", fileName: "graph.json", text: hostileGraphJson(), worker: false });
});

afterAll(async () => {
  await db.cleanup();
});

describe("hostile content", () => {
  it("reports the shortened label in the import report", () => {
    expect(report.warnings).toEqual([expect.stringMatching(/1 label longer than 1,000 characters shortened to that length \(nodes "long-label"\)/)]);
  });

  it("explores constructor, __proto__ and toString like any node", async () => {
    for (const id of [HOSTILE_IDS.constructor, HOSTILE_IDS.proto, HOSTILE_IDS.toString]) {
      const around = await getNeighbourhood({ name: "hostile", nodeId: id });
      expect(around.center).toBe(id);
      expect(around.nodes.length).toBeGreaterThan(1);
      const details = await getNodeDetails({ name: "hostile", nodeId: id });
      expect(details.node.id).toBe(id);
      expect(details.triples.length).toBeGreaterThan(0);
    }
    const hits = await searchNodes({ name: "hostile", q: "constructor" });
    expect(hits.hits[0]?.id).toBe(HOSTILE_IDS.constructor);
  });

  it("keeps an attribute named __proto__ as data in the node details", async () => {
    const details = await getNodeDetails({ name: "hostile", nodeId: HOSTILE_IDS.proto });
    expect(Object.hasOwn(details.node.attrs, "__proto__")).toBe(true);
    expect(JSON.parse(JSON.stringify(details.node.attrs)) as unknown).toMatchObject({ id: "__proto__" });
    expect(JSON.stringify(details.node.attrs)).toContain('"__proto__":{"polluted":"yes"}');
  });

  it("serves the shortened label, with the full text in the attributes after a reload", async () => {
    const details = await getNodeDetails({ name: "hostile", nodeId: HOSTILE_IDS.long });
    expect(details.node.label).toHaveLength(MAX_LABEL_CHARS + 1);
    expect(details.node.attrs.label).toBe(HOSTILE_LONG_LABEL);
  });
});
