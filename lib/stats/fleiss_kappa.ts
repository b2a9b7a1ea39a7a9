/** Fleiss' kappa: chance-corrected agreement of several raters (the paper's 5 annotators). */

/**
 * Fleiss' (1971) kappa over items each labelled by the same number `r >= 2` of raters:
 * `P_i = (sum_k n_ik^2 - r) / (r (r - 1))`, `P = mean(P_i)`, `p_k = sum_i n_ik / (N r)`,
 * `P_e = sum_k p_k^2`, kappa `(P - P_e) / (1 - P_e)` (as statsmodels' `fleiss_kappa`, method
 * "fleiss"). Returns 1 when every label is the same (`P_e = 1`). O(N r).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fleissKappa } from "./fleiss_kappa.ts";
 * const items = [["y", "y", "y"], ["y", "y", "n"], ["n", "n", "n"], ["n", "y", "n"]];
 * assert.ok(Math.abs(fleissKappa(items) - 1 / 3) < 1e-12);
 * ```
 */
export function fleissKappa<T>(items: readonly (readonly T[])[]): number {
  if (items.length === 0) {
    throw new RangeError("Cannot compute Fleiss' kappa: got 0 items");
  }
  const r = items[0].length;
  if (r < 2 || items.some((it) => it.length !== r)) {
    throw new RangeError(
      `Cannot compute Fleiss' kappa: every item needs the same number (>= 2) of ratings, got ${
        items.map((it) => it.length).join(",")
      }`,
    );
  }
  const totals = new Map<T, number>();
  let pSum = 0;
  for (const it of items) {
    const c = new Map<T, number>();
    for (const label of it) c.set(label, (c.get(label) ?? 0) + 1);
    let sq = 0;
    for (const [k, v] of c) {
      sq += v * v;
      totals.set(k, (totals.get(k) ?? 0) + v);
    }
    pSum += (sq - r) / (r * (r - 1));
  }
  const p = pSum / items.length;
  let pe = 0;
  for (const v of totals.values()) pe += (v / (items.length * r)) ** 2;
  return pe === 1 ? 1 : (p - pe) / (1 - pe);
}
