/** The benchmark problem shared by bootstrap_bench.ts and bootstrap_vs_scipy.sh. */
import type { PairOutcome } from "../../lib/stats/paired_bootstrap.ts";

/** Operating points, pairs per point and resamples of the benchmark. */
export const GROUPS = 60, PAIRS = 200, RESAMPLES = 10_000;

/** Pairs of group g; the same formulas are in _scipy_bootstrap_time.py. */
export function benchPairs(g: number): PairOutcome[] {
  return Array.from({ length: PAIRS }, (_, i) => {
    const c = (i * 7 + g * 13) % 10, p = (i * 11 + g * 3) % 10;
    return {
      instanceId: `g${g}i${i}`,
      cleanCorrect: c >= 5,
      poisonedCorrect: p >= 7,
      cleanTarget: c === 0,
      poisonedTarget: p < 1 + (g % 5),
    };
  });
}
