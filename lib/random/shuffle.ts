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
