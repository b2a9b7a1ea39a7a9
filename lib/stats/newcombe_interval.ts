/** Newcombe's hybrid score interval for a difference of paired proportions (method 10, 1998). */
import type { Interval } from "./interval.ts";
import { wilsonInterval } from "./wilson_interval.ts";

/** Options of {@link newcombeInterval}: the paired 2x2 table of two indicators A and B. */
export interface NewcombeIntervalOptions {
  /** Pairs with A = 1 and B = 1 (Newcombe's e). Required. */
  both: number;
  /** Pairs with A = 1 and B = 0 (f). Required. */
  firstOnly: number;
  /** Pairs with A = 0 and B = 1 (g). Required. */
  secondOnly: number;
  /** Pairs with A = 0 and B = 0 (h). Required. */
  neither: number;
  /** Two-sided confidence level in (0, 1). Default 0.95. */
  level?: number;
}

/**
 * Interval for `theta = P(A) - P(B)` from n pairs, estimated by `(f - g) / n`: Newcombe's method
 * 10 (Newcombe 1998, "Improved confidence intervals for the difference between binomial
 * proportions based on paired data", Statistics in Medicine 17:2635-2650), the hybrid score
 * ("square-and-add") interval with a continuity-corrected correlation:
 *
 * - `[l2, u2]`, `[l3, u3]`: textbook Wilson intervals (no continuity correction, no boundary
 *   modification) of `p2 = (e + f) / n` and `p3 = (e + g) / n`;
 * - `phi = N / sqrt((e + f)(g + h)(e + g)(f + h))`, 0 when that product is 0, where
 *   `N = max(eh - fg - n/2, 0)` if `eh > fg`, else `eh - fg`;
 * - `lo = theta - sqrt((p2 - l2)^2 - 2 phi (p2 - l2)(u3 - p3) + (u3 - p3)^2)`,
 *   `hi = theta + sqrt((u2 - p2)^2 - 2 phi (u2 - p2)(p3 - l3) + (p3 - l3)^2)`.
 *
 * The kit uses it for `MID_asr` (A = poisoned run matched the target, B = clean run did) and
 * `MID_utility` (A = clean run correct, B = poisoned run correct), pairs being the clean and
 * poisoned runs of one instance. Its width is never zero: with no pair where either indicator
 * is 1, the interval is `[-u, u]` with `u` the Wilson upper bound of 0 of n. Checked against
 * the paper's Table III and statsmodels (tests/stats/score_intervals_test.ts). Cost: O(1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newcombeInterval } from "./newcombe_interval.ts";
 * // Newcombe (1998), Table III: e = 36, f = 12, g = 2, h = 0 gives 0.0569 to 0.3404.
 * const r = newcombeInterval({ both: 36, firstOnly: 12, secondOnly: 2, neither: 0 });
 * assert.equal(r.estimate, 0.2);
 * assert.equal(r.lo.toFixed(4), "0.0569");
 * assert.equal(r.hi.toFixed(4), "0.3404");
 * ```
 */
export function newcombeInterval(options: NewcombeIntervalOptions): Interval {
  const { both: e, firstOnly: f, secondOnly: g, neither: h } = options;
  const level = options.level ?? 0.95;
  for (const [name, v] of Object.entries({ both: e, firstOnly: f, secondOnly: g, neither: h })) {
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(`Cannot compute a Newcombe interval: ${name} must be >= 0, got ${v}`);
    }
  }
  const n = e + f + g + h;
  if (n === 0) return { estimate: NaN, lo: NaN, hi: NaN };
  const p2 = (e + f) / n, p3 = (e + g) / n;
  const w2 = wilsonInterval({ successes: e + f, trials: n, level, modified: false });
  const w3 = wilsonInterval({ successes: e + g, trials: n, level, modified: false });
  const cross = e * h - f * g;
  const numerator = cross > 0 ? Math.max(cross - n / 2, 0) : cross;
  const product = (e + f) * (g + h) * (e + g) * (f + h);
  const phi = product > 0 ? numerator / Math.sqrt(product) : 0;
  const dl2 = p2 - w2.lo, du2 = w2.hi - p2, dl3 = p3 - w3.lo, du3 = w3.hi - p3;
  const theta = (f - g) / n;
  // |phi| <= 1 keeps both radicands >= (a - b)^2 >= 0; max() only absorbs rounding.
  const delta = Math.sqrt(Math.max(0, dl2 * dl2 - 2 * phi * dl2 * du3 + du3 * du3));
  const epsilon = Math.sqrt(Math.max(0, du2 * du2 - 2 * phi * du2 * dl3 + dl3 * dl3));
  return { estimate: theta, lo: Math.max(-1, theta - delta), hi: Math.min(1, theta + epsilon) };
}
