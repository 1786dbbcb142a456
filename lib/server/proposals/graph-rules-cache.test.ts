import { afterEach, describe, expect, it } from "vitest";
import { parseTriples } from "../../import/parse-triples";
import { readData } from "../../test/data";
import { clearGraphRulesCache, getGraphRulesForReview, getGraphRulesStatus, whenGraphRulesReady } from "./graph-rules-cache";

const countries = () => parseTriples(readData("countries_S1", "graph.txt"));

describe("graph rules cache", () => {
  afterEach(() => clearGraphRulesCache());

  it("answers null at once while mining in slices, then serves the mined rules", async () => {
    const graph = countries();
    const ref = { graphId: "g-countries", version: 1, graph };
    expect(getGraphRulesStatus(ref)).toBeNull();
    // The first request starts the job and returns without waiting for it.
    expect(getGraphRulesForReview(ref)).toBeNull();
    expect(getGraphRulesStatus(ref)?.state).toBe("mining");
    // Other work gets the event loop between slices: a macrotask queued now runs before the end.
    let ranWhileMining = false;
    setImmediate(() => {
      ranWhileMining = getGraphRulesStatus(ref)?.state === "mining";
    });
    expect(getGraphRulesForReview(ref)).toBeNull();
    const rules = await whenGraphRulesReady(ref);
    expect(ranWhileMining).toBe(true);
    expect(getGraphRulesForReview(ref)).toBe(rules);
    const status = getGraphRulesStatus(ref);
    expect(status).toMatchObject({ state: "ready", progress: 1 });
    expect(status?.stats?.facts).toBe(rules.stats.facts);
    expect(rules.rulesByHead.get("locatedin")?.length).toBeGreaterThan(0);
  });

  it("mines the most recently requested graph first: a small graph does not wait behind a big one", async () => {
    const big = parseTriples(readData("metaqa", "kb.txt"));
    const small = countries();
    const order: string[] = [];
    const bigDone = whenGraphRulesReady({ graphId: "big", version: 1, graph: big }).then(() => order.push("big"));
    const smallDone = whenGraphRulesReady({ graphId: "small", version: 1, graph: small }).then(() => order.push("small"));
    await smallDone;
    expect(getGraphRulesStatus({ graphId: "big", version: 1 })?.state).toBe("mining");
    await bigDone;
    expect(order).toEqual(["small", "big"]);
  });

  it("keeps versions apart and mines each once", async () => {
    const graph = countries();
    const v1 = await whenGraphRulesReady({ graphId: "g", version: 1, graph });
    const again = await whenGraphRulesReady({ graphId: "g", version: 1, graph });
    expect(again).toBe(v1);
    expect(getGraphRulesForReview({ graphId: "g", version: 2, graph })).toBeNull();
    expect(getGraphRulesStatus({ graphId: "g", version: 2 })?.state).toBe("mining");
    const v2 = await whenGraphRulesReady({ graphId: "g", version: 2, graph });
    expect(v2).not.toBe(v1);
  });

  it("reports a failed job with its error instead of retrying on every request", async () => {
    const broken = { nodes: new Map(), edges: null } as never;
    const ref = { graphId: "g-broken", version: 1, graph: broken };
    await expect(whenGraphRulesReady(ref)).rejects.toThrow(/mining graph rules failed/);
    expect(getGraphRulesStatus(ref)?.state).toBe("failed");
    expect(getGraphRulesForReview(ref)).toBeNull();
    expect(getGraphRulesStatus(ref)?.error).toBeTruthy();
  });
});
