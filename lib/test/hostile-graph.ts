/**
 * A small real graph (the first nodes of httpx's graphify graph.json) with hostile content
 * added, for unit tests and e2e/hostile.spec.ts: node ids that are Object.prototype names
 * (`constructor`, `__proto__`, `toString`), a 100,000-character unbroken label, a label that
 * hides a right-to-left override ("\u202Eevil\u202C.py" renders as "live.py"), and an attribute
 * named `__proto__`.
 */
import { readData } from "./data";

export const HOSTILE_LONG_LABEL = "W".repeat(100_000);
export const HOSTILE_BIDI_LABEL = "\u202Eevil\u202C.py";
export const HOSTILE_IDS = { constructor: "constructor", proto: "__proto__", toString: "toString", long: "long-label", bidi: "bidi-name" } as const;

type JsonRecord = Record<string, unknown>;

/** graph.json text: `size` real nodes with their links among them, plus the hostile ones. */
export function hostileGraphJson(size = 20): string {
  const doc = JSON.parse(readData("graphify", "httpx", "graph.json")) as { nodes: JsonRecord[]; links: JsonRecord[] } & JsonRecord;
  const nodes = doc.nodes.slice(0, size);
  const ids = new Set(nodes.map((n) => String(n.id)));
  const links = doc.links.filter((l) => ids.has(String(l._src ?? l.source)) && ids.has(String(l._tgt ?? l.target)));
  const anchor = String(nodes[0]?.id);
  const proto: JsonRecord = { id: HOSTILE_IDS.proto, label: "__proto__", community: 0 };
  // An own property called "__proto__" (an object literal would set the prototype instead).
  Object.defineProperty(proto, "__proto__", { value: { polluted: "yes" }, enumerable: true, configurable: true, writable: true });
  nodes.push(
    { id: HOSTILE_IDS.constructor, label: "constructor", community: 0 },
    proto,
    { id: HOSTILE_IDS.toString, label: "toString", community: 1 },
    { id: HOSTILE_IDS.long, label: HOSTILE_LONG_LABEL, community: 1 },
    { id: HOSTILE_IDS.bidi, label: HOSTILE_BIDI_LABEL, community: 2 },
  );
  const link = (source: string, target: string, relation: string): JsonRecord => ({ relation, source, target });
  links.push(
    link(anchor, HOSTILE_IDS.constructor, "calls"),
    link(HOSTILE_IDS.constructor, HOSTILE_IDS.proto, "inherits"),
    link(HOSTILE_IDS.proto, HOSTILE_IDS.toString, "calls"),
    link(HOSTILE_IDS.long, HOSTILE_IDS.constructor, "uses"),
    link(HOSTILE_IDS.bidi, HOSTILE_IDS.constructor, "imports_from"),
    link(anchor, HOSTILE_IDS.long, "contains"),
  );
  return JSON.stringify({ ...doc, nodes, links });
}
