/**
 * Balanced exposure schedules: `a_i ~ Bernoulli(theta_r)` drawn so that the empirical exposure
 * frequency at an operating point equals `theta_r` (up to rounding of `theta_r * n`).
 */
import { deriveSeed } from "../../random/derive_seed.ts";
import { createPrng } from "../../random/prng.ts";
import { shuffle } from "../../random/shuffle.ts";

/**
 * Exactly `round(theta * n)` of the instances are exposed: the first ones in a seeded
 * permutation of the ids. The permutation depends on the seed and the stream label only, so
 * schedules are nested across `theta` (raising it only adds exposures) and shared by every
 * agent, attack and condition that uses the same label. Use separate labels for `a+` and `a-`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exposureSchedule } from "./exposure_schedule.ts";
 * const ids = Array.from({ length: 10 }, (_, i) => `i${i}`);
 * const exposed = exposureSchedule({ ids, theta: 0.3, seed: 1, stream: "helpful" });
 * assert.equal([...exposed.values()].filter(Boolean).length, 3);
 * ```
 */
export function exposureSchedule(options: {
  /** Instance ids at the operating point. */
  ids: readonly string[];
  /** Exposure probability `theta_r` in [0, 1]. */
  theta: number;
  /** Run seed. */
  seed: number;
  /** Name of the independent stream, e.g. "helpful" or "risk". */
  stream: string;
}): Map<string, boolean> {
  const { ids, theta, seed, stream } = options;
  if (!(theta >= 0 && theta <= 1)) {
    throw new RangeError(`Cannot schedule exposure: theta_r must be in [0, 1], got ${theta}`);
  }
  const order = shuffle([...ids].sort(), {
    prng: createPrng(deriveSeed(seed, "exposure", stream)),
  });
  const exposedCount = Math.round(theta * ids.length + 1e-9);
  return new Map(order.map((id, rank) => [id, rank < exposedCount]));
}
