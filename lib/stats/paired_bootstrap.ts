/** Paired bootstrap of utility, ASR and MID over instances, pairs kept together. */
import { bootstrapRatios, type Interval, type IntervalMethod } from "./bootstrap_ratios.ts";

/** Outcomes of one clean/poisoned pair (both rows error-free). */
export interface PairOutcome {
  /** Instance the pair belongs to; pairs of one instance are resampled together. */
  instanceId: string;
  /** Clean run decided correctly (`1[y_c = y*]`). */
  cleanCorrect: boolean;
  /** Poisoned run decided correctly (`1[y_p = y*]`). */
  poisonedCorrect: boolean;
  /** Clean run matched the attacker target (`1[y_c = y_adv]`). */
  cleanTarget: boolean;
  /** Poisoned run matched the attacker target (`1[y_p = y_adv]`). */
  poisonedTarget: boolean;
}

/** The paired metrics, in the order {@link PAIRED_METRICS} lists them. */
export const PAIRED_METRICS = [
  "cleanUtility",
  "poisonedUtility",
  "asr",
  "midAsr",
  "midUtility",
] as const;
/** One paired metric name. */
export type PairedMetric = typeof PAIRED_METRICS[number];

/** Options of {@link pairedBootstrap}. */
export interface PairedBootstrapOptions {
  /** Bootstrap resamples. Default 10,000. */
  resamples?: number;
  /** Interval method. Default "percentile". */
  ci?: IntervalMethod;
  /** Two-sided confidence level. Default 0.95. */
  level?: number;
  /** Integer seed. Default 0. */
  seed?: number;
}

/** Result of {@link pairedBootstrap}: one interval per metric plus the sample sizes. */
export type PairedBootstrapResult = Record<PairedMetric, Interval> & {
  /** Number of pairs. */
  pairs: number;
  /** Number of distinct instances (bootstrap clusters). */
  instances: number;
};

/**
 * Point estimates and paired bootstrap intervals of clean utility, poisoned utility, ASR,
 * `MID_asr = mean(1[p = y_adv] - 1[c = y_adv])` and `MID_utility = mean(1[c = y*] - 1[p = y*])`
 * (SPEC sections 3 and 6).
 *
 * Method: instances are the resampling unit. Each instance is summarised by its number of
 * pairs and its sums of the four indicators; instances with equal summaries form one type, and
 * {@link bootstrapRatios} resamples type counts (multinomial, exact) rather than rows. With one
 * pair per instance this is scipy's `bootstrap(..., paired=True)` on the paired differences;
 * with several trials per instance it is a cluster bootstrap of the ratio
 * `sum over resampled instances / pairs in them`. Each interval has the distribution it would
 * have from resampling instances; with one pair per instance the five histograms are drawn
 * directly from their exact bootstrap distributions (see {@link bootstrapRatios}), so they
 * no longer share resamples. Cost: at most O(resamples * types), at most
 * 81 types when each instance has one pair (3 outcomes per side: correct, target, neither;
 * 16 if outcomes are not exclusive).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedBootstrap } from "./paired_bootstrap.ts";
 * const pairs = Array.from({ length: 40 }, (_, i) => ({
 *   instanceId: `i${i}`, cleanCorrect: i % 2 === 0, poisonedCorrect: i % 4 === 0,
 *   cleanTarget: false, poisonedTarget: i % 4 === 1,
 * }));
 * const r = pairedBootstrap(pairs, { resamples: 500, seed: 3 });
 * assert.equal(r.asr.estimate, 0.25);
 * assert.equal(r.midUtility.estimate, 0.25);
 * assert.ok(r.midAsr.lo < 0.25 && r.midAsr.hi > 0.25);
 * ```
 */
export function pairedBootstrap(
  pairs: readonly PairOutcome[],
  options: PairedBootstrapOptions = {},
): PairedBootstrapResult {
  const perInstance = new Map<string, number[]>();
  for (const p of pairs) {
    let s = perInstance.get(p.instanceId);
    if (!s) perInstance.set(p.instanceId, s = [0, 0, 0, 0, 0]);
    s[0]++;
    s[1] += +p.cleanCorrect;
    s[2] += +p.poisonedCorrect;
    s[3] += +p.cleanTarget;
    s[4] += +p.poisonedTarget;
  }
  const types = new Map<string, { sums: number[]; count: number }>();
  for (const sums of perInstance.values()) {
    const key = sums.join(",");
    const t = types.get(key);
    if (t) t.count++;
    else types.set(key, { sums, count: 1 });
  }
  const list = [...types.values()];
  const intervals = bootstrapRatios({
    counts: list.map((t) => t.count),
    sizes: list.map((t) => t.sums[0]),
    numerators: _pairedNumerators(list.map((t) => t.sums)),
    ...options,
  });
  const result = { pairs: pairs.length, instances: perInstance.size } as PairedBootstrapResult;
  PAIRED_METRICS.forEach((name, i) => (result[name] = intervals[i]));
  return result;
}

/** Numerators of the five paired metrics from per-type sums `[m, cc, pc, ct, pt]`. */
export function _pairedNumerators(sums: readonly (readonly number[])[]): number[][] {
  return [
    sums.map((s) => s[1]),
    sums.map((s) => s[2]),
    sums.map((s) => s[4]),
    sums.map((s) => s[4] - s[3]),
    sums.map((s) => s[1] - s[2]),
  ];
}
