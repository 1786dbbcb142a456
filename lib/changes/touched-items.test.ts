import { describe, expect, it } from "vitest";
import type { Changeset, EdgeState, NodeState } from "./changeset";
import { findTouchedItems, findTouchingChange } from "./touched-items";

const node = (id: string): NodeState => ({ id, label: id.toUpperCase(), attrs: { id } });
const edge = (key: string, source: string, relation: string, target: string): EdgeState => ({ key, source, target, relation, attrs: {} });

describe("touched items", () => {
  const insert: Changeset = { ops: [{ op: "add_edge", edge: edge("v2.0", "a", "calls", "b") }] };
  const touched = findTouchedItems(insert);

  it("an insert touches its edge and both endpoints", () => {
    expect([...touched.nodes].sort()).toEqual(["a", "b"]);
    expect([...touched.edges]).toEqual(["v2.0"]);
  });

  it("a later change to an endpoint, or an edge between the same pair, is a change; an edge elsewhere is not", () => {
    expect(findTouchingChange(touched, { ops: [{ op: "update_node", before: node("a"), after: { ...node("a"), label: "A2" } }] })).toBe('node "A" changed');
    expect(findTouchingChange(touched, { ops: [{ op: "add_edge", edge: edge("v3.0", "b", "uses", "a") }] })).toBe("edge b --uses--> a added");
    expect(findTouchingChange(touched, { ops: [{ op: "add_edge", edge: edge("v3.0", "a", "uses", "c") }] })).toBeNull();
    expect(findTouchingChange(touched, { ops: [{ op: "remove_edge", edge: edge("e9", "c", "uses", "d") }] })).toBeNull();
  });

  it("a merge reshapes the removed node: any later edge at it is a change", () => {
    const merge = findTouchedItems({ ops: [{ op: "update_edge", before: edge("e1", "old", "r", "x"), after: edge("e1", "new", "r", "x") }, { op: "remove_node", node: node("old") }] });
    expect(findTouchingChange(merge, { ops: [{ op: "add_edge", edge: edge("v4.0", "old", "r", "z") }] })).toBe("edge old --r--> z added");
  });
});
