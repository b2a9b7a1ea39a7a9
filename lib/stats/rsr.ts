/** Retrieval success rate (Table 2): share of instances whose target record is in the top-K. */

/**
 * RSR = `#(target record in top-K) / n` over instances (SPEC section 3). Null entries (failed
 * retrievals) are left out and not read as misses. Returns NaN when nothing is left. O(n).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rsr } from "./rsr.ts";
 * assert.equal(rsr([true, true, false, null, true]), 0.75);
 * ```
 */
export function rsr(inTopK: readonly (boolean | null)[]): number {
  let hit = 0, n = 0;
  for (const x of inTopK) {
    if (x === null) continue;
    n++;
    if (x) hit++;
  }
  return n === 0 ? NaN : hit / n;
}
