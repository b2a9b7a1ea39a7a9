/** Writing retention (Table 1): share of source units retained in memory, mean and sd over trials. */
import { mean, sampleStandardDeviation } from "simple-statistics";

/** One writing trial: how many source units went in and how many were retained. */
export interface WritingTrial {
  /** Source units whose information is retained in the written records. */
  retained: number;
  /** Source units in the trace, > 0. */
  units: number;
}

/** Writing retention over trials, as fractions (Table 1 prints them as percentages). */
export interface WritingRetention {
  /** Mean of per-trial retention `retained / units`. */
  mean: number;
  /** Sample standard deviation (n - 1) of per-trial retention; NaN for one trial. */
  sd: number;
  /** Number of trials. */
  trials: number;
}

/**
 * WR per trial is `retained / units`; Table 1 reports mean ± sd over 500 writing trials, read
 * here as the sample sd (n - 1 denominator) of the per-trial shares (simple-statistics). O(n).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writingRetention } from "./writing_retention.ts";
 * const wr = writingRetention([{ retained: 3, units: 4 }, { retained: 1, units: 4 }]);
 * assert.equal(wr.mean, 0.5);
 * assert.ok(Math.abs(wr.sd - Math.SQRT1_2 / 2) < 1e-12);
 * ```
 */
export function writingRetention(trials: readonly WritingTrial[]): WritingRetention {
  if (trials.length === 0) throw new RangeError("Cannot compute WR: got 0 trials");
  const shares = trials.map((t, i) => {
    if (!(t.units > 0) || t.retained < 0 || t.retained > t.units) {
      throw new RangeError(
        `Cannot compute WR: trial ${i} needs 0 <= retained <= units and units > 0, got ${t.retained}/${t.units}`,
      );
    }
    return t.retained / t.units;
  });
  return {
    mean: mean(shares),
    sd: shares.length > 1 ? sampleStandardDeviation(shares) : NaN,
    trials: shares.length,
  };
}
