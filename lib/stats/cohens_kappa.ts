/** Cohen's kappa: chance-corrected agreement of two raters. */
import { sameLength } from "./percent_agreement.ts";

/**
 * Cohen's (1960) kappa `(p_o - p_e) / (1 - p_e)`, where `p_e = sum_k p_a(k) p_b(k)` uses each
 * rater's own marginals (unweighted kappa, as sklearn's `cohen_kappa_score`). Returns 1 when both
 * raters use one identical label throughout (`p_e = 1`). O(n + labels^2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cohensKappa } from "./cohens_kappa.ts";
 * // Wikipedia's example: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no -> kappa 0.4.
 * const a = [...Array(25).fill("y"), ...Array(25).fill("n")];
 * const b = [...Array(20).fill("y"), ...Array(5).fill("n"), ...Array(10).fill("y"),
 *   ...Array(15).fill("n")];
 * assert.ok(Math.abs(cohensKappa(a, b) - 0.4) < 1e-12);
 * ```
 */
export function cohensKappa<T>(a: readonly T[], b: readonly T[]): number {
  sameLength(a, b);
  const n = a.length;
  const ca = new Map<T, number>(), cb = new Map<T, number>();
  let same = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) same++;
    ca.set(a[i], (ca.get(a[i]) ?? 0) + 1);
    cb.set(b[i], (cb.get(b[i]) ?? 0) + 1);
  }
  let pe = 0;
  for (const [k, v] of ca) pe += (v / n) * ((cb.get(k) ?? 0) / n);
  const po = same / n;
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}
