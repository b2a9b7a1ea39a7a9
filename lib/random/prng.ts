/** Seeded pseudo-random numbers: every random draw in the kit comes from a `Prng` passed in. */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** A seeded generator (xoroshiro128+ from `pure-rand`). */
export interface Prng {
  /** Uniform double in [0, 1). */
  float(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
}

/**
 * Create a seeded generator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "./prng.ts";
 * const a = createPrng(7), b = createPrng(7);
 * assert.deepEqual([a.float(), a.int(1, 6)], [b.float(), b.int(1, 6)]);
 * ```
 */
export function createPrng(seed: number): Prng {
  if (!Number.isInteger(seed)) {
    throw new TypeError(`Cannot seed: seed must be an integer, got ${seed}`);
  }
  const rng = xoroshiro128plus(seed | 0);
  return {
    float: () => uniformFloat64(rng),
    int: (min, max) => uniformInt(rng, min, max),
  };
}
