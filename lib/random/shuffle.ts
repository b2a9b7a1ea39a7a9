/** Seeded Fisher-Yates shuffle. */
import type { Prng } from "./prng.ts";

/**
 * Return a shuffled copy of `items` (Fisher-Yates with the given generator).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "./prng.ts";
 * import { shuffle } from "./shuffle.ts";
 * assert.deepEqual(shuffle([1, 2, 3, 4], { prng: createPrng(3) }).toSorted(), [1, 2, 3, 4]);
 * ```
 */
export function shuffle<T>(items: readonly T[], options: { prng: Prng }): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = options.prng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The items of `items` in a seeded random order, drawn one at a time (a forward Fisher-Yates
 * that swaps only as far as the caller reads): taking the first k costs k draws, not n.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "./prng.ts";
 * import { lazyShuffle } from "./shuffle.ts";
 * const all = [...lazyShuffle([1, 2, 3, 4], { prng: createPrng(3) })];
 * assert.deepEqual(all.toSorted(), [1, 2, 3, 4]);
 * const first = lazyShuffle(["a", "b", "c"], { prng: createPrng(3) }).next().value;
 * assert.ok(["a", "b", "c"].includes(first!));
 * ```
 */
export function* lazyShuffle<T>(items: readonly T[], options: { prng: Prng }): Generator<T> {
  const out = items.slice();
  for (let n = 0; n < out.length; n++) {
    const j = options.prng.int(n, out.length - 1);
    [out[n], out[j]] = [out[j], out[n]];
    yield out[n];
  }
}
