/** Share of items on which two raters (e.g. a judge and the human majority) agree. */

/**
 * Percent agreement `#(a_i = b_i) / n`, as a fraction in [0, 1]. O(n).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentAgreement } from "./percent_agreement.ts";
 * assert.equal(percentAgreement([true, false, true, true], [true, false, false, true]), 0.75);
 * ```
 */
export function percentAgreement<T>(a: readonly T[], b: readonly T[]): number {
  sameLength(a, b);
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/** Both rater vectors must be non-empty and of equal length. */
export function sameLength(a: readonly unknown[], b: readonly unknown[]): void {
  if (a.length !== b.length || a.length === 0) {
    throw new RangeError(
      `Cannot compare raters: need two non-empty label lists of equal length, got ${a.length} and ${b.length}`,
    );
  }
}
