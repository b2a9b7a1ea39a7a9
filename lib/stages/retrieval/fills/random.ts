/** Random fill, the paper's default: a seeded shuffle of the background, one per instance. */
import { deriveSeed } from "../../../random/derive_seed.ts";
import { createPrng } from "../../../random/prng.ts";
import { shuffle } from "../../../random/shuffle.ts";
import type { FillStrategy } from "../fill_strategy.ts";

/**
 * Background in a seeded random order, keyed by the run seed and the instance id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomFill } from "./random.ts";
 * const bg = (id: string) => ({ id, text: id, role: "background" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "bg", channels: ["user" as const], trusted: true, verified: true, writtenAt: 0 } });
 * const instance = { id: "i", query: "q", answer: "a", target: "t", background: [bg("b1"), bg("b2"), bg("b3")] };
 * const order = randomFill.order({ instance, seed: 0 });
 * assert.deepEqual(order.map((r) => r.id).toSorted(), ["b1", "b2", "b3"]);
 * assert.deepEqual(randomFill.order({ instance, seed: 0 }), order);
 * ```
 */
export const randomFill: FillStrategy = {
  id: "random",
  description: "Random order, seeded per instance (the paper's default).",
  order({ instance, seed }) {
    return shuffle(instance.background, {
      prng: createPrng(deriveSeed(seed, "fill", instance.id)),
    });
  },
};
