/**
 * Test support for indexes advanced with the graph version (derived-cache.ts): a chain of random
 * versions of a real graph, each advanced from the one before, beside a fresh copy of the same
 * version (applyChangeset builds it whole, with no origin), so a test can check that the index
 * advanced along the chain equals the index built from scratch.
 */
import { advanceGraph } from "../changes/advance-graph";
import type { Changeset } from "../changes/changeset";
import { applyChangeset, invertChangeset } from "../changes/changeset";
import { planRandom, randomSource, withPositions } from "../test/random-changesets";
import type { KnowledgeGraph } from "./model";

export interface DerivedVersion {
  round: number;
  /** The version advanced from the previous one (its index is derived along the chain). */
  advanced: KnowledgeGraph;
  /** The same version built whole. */
  fresh: KnowledgeGraph;
}

/**
 * `rounds` random versions after `graph` (some revert the one before). `touch(graph)` builds the
 * indexes under test; it runs on the first graph. Every version but every third one is yielded
 * (the test then reads its indexes); the third ones are passed over, so the next version's
 * indexes are advanced over two versions at once.
 */
export function* derivedVersions(graph: KnowledgeGraph, options: { rounds: number; seed: number; touch: (graph: KnowledgeGraph) => void }): Generator<DerivedVersion> {
  const random = randomSource(options.seed);
  let live = graph;
  let last: Changeset | null = null;
  options.touch(live);
  for (let round = 0; round < options.rounds; round++) {
    const changeset: Changeset = last && random(4) === 0 ? invertChangeset(last) : planRandom(live, random, round, `d${round}.`);
    const fresh = applyChangeset(live, changeset);
    const advanced = advanceGraph({ graph: live, changesets: [changeset] });
    last = withPositions(changeset, advanced);
    if (round % 3 !== 1) yield { round, advanced, fresh };
    live = advanced;
  }
}
