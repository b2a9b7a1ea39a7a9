/** Wilson score interval for one binomial proportion, with Brown-Cai-DasGupta's boundary fix. */
import { normalQuantile } from "./_normal.ts";
import type { Interval } from "./interval.ts";

/** Options of {@link wilsonInterval}. */
export interface WilsonIntervalOptions {
  /** Number of successes, in [0, trials]. Required. Need not be an integer (see below). */
  successes: number;
  /** Number of trials, > 0. Required. */
  trials: number;
  /** Two-sided confidence level in (0, 1). Default 0.95. */
  level?: number;
  /**
   * Apply the Brown-Cai-DasGupta modification near 0 and 1 (see {@link wilsonInterval}).
   * Default true; false gives the textbook Wilson interval (statsmodels' `method="wilson"`).
   */
  modified?: boolean;
}

/**
 * Wilson score interval for a binomial proportion (Wilson 1927): the p with
 * `|x/n - p| <= z sqrt(p (1 - p) / n)`, i.e. center `(x + z^2/2) / (n + z^2)` and half-width
 * `z sqrt(x (n - x) / n + z^2 / 4) / (n + z^2)`, `z = ndtri((1 + level) / 2)`. It never has zero
 * width: 0 of 100 gives [0, 0.037] at 95%.
 *
 * Modification (Brown, Cai & DasGupta 2001, Statistical Science 16:101-133, section 4.1.1):
 * near 0 the Wilson interval undercovers: at n = 100 its coverage at p = 0.01 is 0.921, because
 * the lower bound for x = 3 (0.0103) already exceeds 0.01. For x = 1..x* the lower bound is
 * therefore replaced by the one-sided Poisson bound `chi2_{2x}(1 - level) / 2n`, the lambda with
 * `P(Poisson(lambda) >= x) = 1 - level` (0.051/n, 0.355/n, 0.818/n at 95%), with x* = 2 for
 * n <= 50 and 3 above, and likewise the upper bound for x = n - x*..n - 1. Brown, Cai and
 * DasGupta state x* = 3 for 50 < n <= 100; the kit keeps 3 beyond 100, where the same dip
 * recurs at p near 1/n (the Poisson limit). Elsewhere the bounds are the textbook ones. This
 * interval is used for clean utility, poisoned utility, ASR and U0.
 *
 * Non-integer `successes` (the kit's instance-level fallback uses `n * estimate`) use the
 * formula as is; the modification applies to integer counts only. Cost: O(1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "./wilson_interval.ts";
 * const none = wilsonInterval({ successes: 0, trials: 100 });
 * assert.equal(none.lo, 0);
 * assert.ok(none.hi > 0.03 && none.hi < 0.04);
 * const one = wilsonInterval({ successes: 1, trials: 100 });
 * assert.ok(one.lo > 0 && one.lo < 0.01);
 * ```
 */
export function wilsonInterval(options: WilsonIntervalOptions): Interval {
  const { successes: x, trials: n } = options;
  const level = options.level ?? 0.95;
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new RangeError(`Cannot compute a Wilson interval: trials must be > 0, got ${n}`);
  }
  if (!(x >= 0 && x <= n)) {
    throw new RangeError(
      `Cannot compute a Wilson interval: successes must be in [0, ${n}], got ${x}`,
    );
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`Cannot compute a Wilson interval: level must be in (0, 1), got ${level}`);
  }
  const z = normalQuantile((1 + level) / 2), z2 = z * z;
  const center = (x + z2 / 2) / (n + z2);
  const half = z * Math.sqrt((x * (n - x)) / n + z2 / 4) / (n + z2);
  // At x = 0 (or n) the bound is 0 (or 1) exactly; rounding would leave 1e-18 and lose p = 0.
  let lo = x === 0 ? 0 : Math.max(0, center - half);
  let hi = x === n ? 1 : Math.min(1, center + half);
  if (options.modified ?? true) {
    const xStar = n <= 50 ? 2 : 3;
    if (Number.isInteger(x) && x >= 1 && x <= xStar) lo = _poissonLower(x, 1 - level) / n;
    const y = n - x;
    if (Number.isInteger(y) && y >= 1 && y <= xStar) hi = 1 - _poissonLower(y, 1 - level) / n;
  }
  return { estimate: x / n, lo, hi };
}

/**
 * The lambda with `P(Poisson(lambda) >= x) = alpha` (= `chi2.ppf(alpha, 2x) / 2`), by bisection
 * to the last bit: the left side rises from 0 to 1 as lambda grows.
 */
function _poissonLower(x: number, alpha: number): number {
  const below = (lambda: number) => {
    // P(Poisson(lambda) < x) = sum_{k < x} e^-lambda lambda^k / k!
    let term = Math.exp(-lambda), sum = term;
    for (let k = 1; k < x; k++) sum += term *= lambda / k;
    return sum;
  };
  let lo = 0, hi = x + 10 * Math.sqrt(x) + 10;
  for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (1 - below(mid) < alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
