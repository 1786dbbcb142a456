import { describe, expect, it } from "vitest";
import { updateCritiqueMemory } from "./critique-memory";

describe("updateCritiqueMemory", () => {
  it("counts each iteration once: a question seen failing once is not persistent", () => {
    // The reference counted the previous review twice; here the same iteration listed twice is still one.
    const m = updateCritiqueMemory({ history: [{ iter: 1, failing: ["q1"], tried: [] }, { iter: 1, failing: ["q1"], tried: [] }] });
    expect(m.focusOn).toEqual([]);
  });
  it("focuses on questions failing now that failed in ≥ 2 iterations, most persistent first", () => {
    const m = updateCritiqueMemory({
      history: [
        { iter: 0, failing: ["q1", "q2", "q3"], tried: [] },
        { iter: 1, failing: ["q1", "q2"], tried: ["a1"] },
        { iter: 2, failing: ["q2", "q4"], tried: ["a2", "a1"] },
      ],
      standingCritical: ["x"],
      rejectedByPeople: ["r1", "a2"],
    });
    // q1 is answered now (latest state), q3 too; q4 failed once.
    expect(m.focusOn).toEqual(["critical: x", "q2"]);
    expect(m.doNotRepropose).toEqual(["r1", "a2", "a1"]);
  });
  it("limits focus_on", () => {
    const history = [0, 1].map((iter) => ({ iter, failing: ["a", "b", "c"], tried: [] }));
    expect(updateCritiqueMemory({ history, limit: 2 }).focusOn).toEqual(["a", "b"]);
  });
});
