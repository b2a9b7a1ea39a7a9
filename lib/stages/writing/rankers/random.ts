/** Random ranker: a seeded shuffle of a trace's units (an RQ2 baseline). */
import { deriveSeed } from "../../../random/derive_seed.ts";
import { createPrng } from "../../../random/prng.ts";
import { shuffle } from "../../../random/shuffle.ts";
import type { Ranker } from "../ranker.ts";

/**
 * Rank units in a random order drawn from the seed and the trace id, so each trace has its own
 * fixed order and the order is the same at every coverage level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomRanker } from "./random.ts";
 * const unit = (id: string) => ({ id, text: id, channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null });
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: ["a", "b", "c"].map(unit) };
 * assert.deepEqual(await randomRanker.rank(trace, { seed: 1 }), await randomRanker.rank(trace, { seed: 1 }));
 * ```
 */
export const randomRanker: Ranker = {
  id: "random",
  rank(trace, { seed }) {
    const prng = createPrng(deriveSeed(seed, "rank:random", trace.id));
    return Promise.resolve(shuffle(trace.units.map((u) => u.id), { prng }));
  },
};
