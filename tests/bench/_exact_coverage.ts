/**
 * Exact coverage of interval methods for one proportion and for a paired difference: every
 * possible data set is enumerated with its probability, so there is no Monte Carlo error.
 * Shared by tests/bench/interval_coverage.ts (the full table) and tests/stats/coverage_test.ts.
 */
import type { Interval } from "../../lib/stats/interval.ts";

/** The proportions and sample sizes of the coverage table. */
export const PS = [0, 0.01, 0.02, 0.05, 0.1, 0.3, 0.5];
export const NS = [30, 100, 200];

/** `log k!` for k = 0..n. */
function _logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) out[k] = out[k - 1] + Math.log(k);
  return out;
}

/** `c log p`, with 0 log 0 = 0 and c log 0 = -Infinity. */
function _clog(c: number, p: number): number {
  return c === 0 ? 0 : p === 0 ? -Infinity : c * Math.log(p);
}

/** Coverage and the smallest width of an interval for x of n at each of `ps`. */
export interface Coverage {
  /** Probability that the interval contains the truth. */
  coverage: number;
  /** Probability that the interval has zero width. */
  zeroWidth: number;
  /** Smallest width over every outcome with positive probability. */
  minWidth: number;
}

/**
 * Exact coverage of `interval(x, n)` for a binomial proportion p: sum of Bin(x; n, p) over the
 * x whose interval contains p. `intervals` are computed once per x and reused for every p.
 */
export function proportionCoverage(
  n: number,
  ps: readonly number[],
  interval: (x: number, n: number) => Interval,
): Coverage[] {
  const lf = _logFactorials(n);
  const all = Array.from({ length: n + 1 }, (_, x) => interval(x, n));
  return ps.map((p) => {
    let coverage = 0, zeroWidth = 0, minWidth = Infinity;
    for (let x = 0; x <= n; x++) {
      const logPmf = lf[n] - lf[x] - lf[n - x] + _clog(x, p) + _clog(n - x, 1 - p);
      if (logPmf === -Infinity) continue;
      const w = Math.exp(logPmf), { lo, hi } = all[x];
      if (lo <= p && p <= hi) coverage += w;
      if (hi - lo === 0) zeroWidth += w;
      minWidth = Math.min(minWidth, hi - lo);
    }
    return { coverage, zeroWidth, minWidth };
  });
}

/** How a pair's two indicators are drawn: a poisoned success with probability p, a clean one p/2. */
export type Pairing = "independent" | "correlated";

/**
 * Cell probabilities [both, first only, second only, neither] of a pair whose first indicator
 * (the poisoned run matched the target) has rate p and second (the clean run did) rate p/2:
 * independent draws, or one shared draw (u < p/2 for both, u < p for the first), the strongest
 * positive correlation those rates allow. The paired difference is then p/2.
 */
export function cellProbabilities(p: number, pairing: Pairing): number[] {
  const q = p / 2;
  return pairing === "independent"
    ? [p * q, p * (1 - q), (1 - p) * q, (1 - p) * (1 - q)]
    : [q, p - q, 0, 1 - p];
}

/**
 * Exact coverage of `interval(table)` for the paired difference p/2 over every 2x2 table
 * (e, f, g, h) of n pairs, weighted by its multinomial probability. Intervals are computed
 * once per table and reused for every p and pairing.
 */
export function differenceCoverage(
  n: number,
  cases: readonly { p: number; pairing: Pairing }[],
  interval: (e: number, f: number, g: number, h: number) => Interval,
): Coverage[] {
  const lf = _logFactorials(n);
  const tables: number[] = [];
  const lo: number[] = [], hi: number[] = [];
  for (let e = 0; e <= n; e++) {
    for (let f = 0; e + f <= n; f++) {
      for (let g = 0; e + f + g <= n; g++) {
        const h = n - e - f - g;
        const r = interval(e, f, g, h);
        tables.push(e, f, g, h);
        lo.push(r.lo);
        hi.push(r.hi);
      }
    }
  }
  return cases.map(({ p, pairing }) => {
    const cells = cellProbabilities(p, pairing), truth = p / 2;
    let coverage = 0, zeroWidth = 0, minWidth = Infinity;
    for (let k = 0; k < lo.length; k++) {
      let logPmf = lf[n];
      for (let c = 0; c < 4; c++) {
        const count = tables[4 * k + c];
        logPmf += _clog(count, cells[c]) - lf[count];
      }
      if (logPmf === -Infinity) continue;
      const w = Math.exp(logPmf);
      if (lo[k] <= truth && truth <= hi[k]) coverage += w;
      if (hi[k] - lo[k] === 0) zeroWidth += w;
      minWidth = Math.min(minWidth, hi[k] - lo[k]);
    }
    return { coverage, zeroWidth, minWidth };
  });
}
