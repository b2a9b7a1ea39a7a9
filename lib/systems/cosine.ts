/** Cosine similarity, the score every in-process store of the systems ranks by. */

/**
 * Cosine similarity of two vectors of the same length; 0 when either is all zeros.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cosine } from "./cosine.ts";
 * assert.equal(cosine([1, 0], [1, 0]), 1);
 * ```
 */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
