/** Cluster bootstrap of ratio statistics from counts of distinct cluster types, never arrays. */
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { normalCdf, normalQuantile } from "./_normal.ts";
import { BinomialTables } from "./multinomial_sampler.ts";
import { type LatticePmf, latticePmf, sampleHistogram } from "./_lattice_bootstrap.ts";
import type { Interval } from "./interval.ts";

/** Interval method: bootstrap percentile, or bias-corrected and accelerated (BCa). */
export type IntervalMethod = "percentile" | "bca";

export type { Interval } from "./interval.ts";

/** Options of {@link bootstrapRatios}. */
export interface BootstrapRatiosOptions {
  /** How many clusters (instances) have each distinct type; non-negative integers. Required. */
  counts: ArrayLike<number>;
  /** Observations (pairs) in one cluster of each type: the ratio's denominator. Required. */
  sizes: ArrayLike<number>;
  /** Per statistic, the numerator of one cluster of each type (its sum over observations). Required. */
  numerators: readonly ArrayLike<number>[];
  /** Bootstrap resamples, a positive integer. Default 10,000. */
  resamples?: number;
  /** Interval method. Default "percentile". */
  ci?: IntervalMethod;
  /** Two-sided confidence level in (0, 1). Default 0.95. */
  level?: number;
  /** Integer seed of the resampling stream. Default 0. */
  seed?: number;
}

/**
 * Bootstrap intervals for ratio statistics `sum(numerator) / sum(size)` over clusters.
 *
 * Method: a bootstrap resample of `n` clusters drawn with replacement is fully described by how
 * many times each distinct cluster type is drawn, which is Multinomial(n, counts / n). So each
 * resample draws one count vector ({@link multinomialSampler}, exact conditional binomials) and
 * evaluates every statistic as a dot product with the per-type numerators and sizes: cost
 * O(resamples * types * statistics) after O(types * sd) table set-up, independent of the number
 * of observations, and no resampled arrays are built. With one observation per cluster this is
 * the ordinary paired (i.i.d.) bootstrap; with several it is the cluster bootstrap of the ratio
 * estimator.
 *
 * Intervals follow scipy.stats.bootstrap (1.10): percentile bounds are quantiles of the
 * bootstrap distribution at `(1 - level) / 2` and `(1 + level) / 2`, quantile type 7 (linear
 * interpolation, numpy's default). BCa uses `z0 = ndtri((#{theta* < theta} + #{theta* <= theta})
 * / 2B)` and the jackknife acceleration `a = sum d^3 / (6 (sum d^2)^1.5)`, `d = mean(theta_(-i)) -
 * theta_(-i)`; leaving out one cluster of type t gives `(N - a_t) / (D - m_t)`, so the jackknife
 * is also closed-form over types (each weighted by its count). Departures from scipy for
 * degenerate cases: if all resamples are equal the interval is `[theta, theta]`; the z0
 * proportion is clamped to `[1/2B, 1 - 1/2B]` and a zero jackknife spread gives `a = 0`, where
 * scipy returns NaN.
 *
 * When most clusters are distinct (3 * types > clusters), counts are drawn instead by n uniform
 * cluster indices, O(resamples * n); both samplers are exact.
 *
 * When every cluster has the same size and integer numerators (binary outcomes), resampled
 * statistics are tallied in a histogram of numerators, so quantiles need no sort. If moreover
 * each statistic's numerator takes at most three equally spaced values over clusters (every
 * paired metric with one pair per instance), the distribution of one resampled numerator sum is
 * known exactly (binomial, or a difference of trinomial counts), so the histogram of the B
 * resampled values, which is Multinomial(B, that distribution), is drawn directly: O(support)
 * work instead of O(B * types), the same distribution of intervals. The statistics then get
 * independent draws rather than sharing resamples; each interval is unchanged in distribution.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapRatios } from "./bootstrap_ratios.ts";
 * // 30 pairs with difference +1, 60 with 0, 10 with -1: mean difference 0.2.
 * const [mid] = bootstrapRatios({
 *   counts: [30, 60, 10], sizes: [1, 1, 1], numerators: [[1, 0, -1]], resamples: 2000, seed: 1,
 * });
 * assert.equal(mid.estimate, 0.2);
 * assert.ok(mid.lo > 0.05 && mid.lo < 0.15 && mid.hi > 0.25 && mid.hi < 0.35);
 * ```
 */
export function bootstrapRatios(options: BootstrapRatiosOptions): Interval[] {
  const { counts, sizes, numerators } = options;
  const resamples = options.resamples ?? 10_000;
  const ci = options.ci ?? "percentile";
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 0;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(
      `Cannot bootstrap: resamples must be a positive integer, got ${resamples}`,
    );
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`Cannot bootstrap: level must be in (0, 1), got ${level}`);
  }
  if (ci !== "percentile" && ci !== "bca") {
    throw new RangeError(`Cannot bootstrap: ci must be "percentile" or "bca", got ${ci}`);
  }
  const T = counts.length;
  if (sizes.length !== T || numerators.some((a) => a.length !== T)) {
    throw new RangeError(
      `Cannot bootstrap: counts, sizes and every numerator need one entry per type (${T})`,
    );
  }
  const S = numerators.length;
  let n = 0, den = 0;
  for (let t = 0; t < T; t++) {
    if (!Number.isInteger(counts[t]) || counts[t] < 0) {
      throw new RangeError(`Cannot bootstrap: counts must be integers >= 0, got ${counts[t]}`);
    }
    if (counts[t] > 0 && !(sizes[t] > 0)) {
      throw new RangeError(`Cannot bootstrap: sizes must be > 0, got ${sizes[t]}`);
    }
    n += counts[t];
    den += counts[t] * sizes[t];
  }
  const num = numerators.map((a) => {
    let s = 0;
    for (let t = 0; t < T; t++) s += counts[t] * a[t];
    return s;
  });
  const estimates = num.map((x) => (n === 0 ? NaN : x / den));
  if (n === 0) return estimates.map(() => ({ estimate: NaN, lo: NaN, hi: NaN }));

  // Keep only types present in the data, so loops and tables skip absent ones.
  const keep: number[] = [];
  for (let t = 0; t < T; t++) if (counts[t] > 0) keep.push(t);
  const K = keep.length;
  const w = Float64Array.from(keep, (t) => counts[t]);
  const m = Float64Array.from(keep, (t) => sizes[t]);
  const a = numerators.map((arr) => Float64Array.from(keep, (t) => arr[t]));

  const equalSizes = m.every((x) => x === m[0]);
  const integer = a.every((arr) => arr.every((x) => Number.isInteger(x)));
  const mins = a.map((arr) => Math.min(...arr));
  const maxs = a.map((arr) => Math.max(...arr));
  const histogram = equalSizes && integer &&
    mins.every((lo, s) => n * (maxs[s] - lo) + 1 <= 5e7);

  // Numerators packed type-major (A[t * S + s]) so one resample touches one contiguous row per
  // drawn type, and every statistic is accumulated from the same draw.
  const A = new Float64Array(K * S);
  for (let t = 0; t < K; t++) for (let s = 0; s < S; s++) A[t * S + s] = a[s][t];
  const x = new Float64Array(S);
  const rng = _fastPrng(seed);
  const dists: _Distribution[] = [];
  // One resample: draw type counts, accumulate sum(count * numerator) per statistic into x and
  // return sum(count * size). When most clusters are distinct (typical with several trials per
  // instance), drawing n cluster indices costs less than K - 1 binomials and their tables;
  // both are exact.
  const kernel = () =>
    3 * K > n ? _directKernel(w, m, A, S, n, rng, x) : _binomialKernel(w, m, A, S, n, rng, x);

  const lattice = histogram ? a.map((as) => latticePmf(w, as, n)) : [];
  if (histogram && lattice.every((l) => l !== null)) {
    // Every statistic takes at most three equally spaced values per cluster (always so with
    // one pair per instance): its B resampled values are B draws from a known lattice
    // distribution, so their histogram is drawn directly as Multinomial(B, pmf).
    for (const l of lattice as LatticePmf[]) {
      const drawn = sampleHistogram(l.pmf, resamples, rng);
      const hist = new Float64Array((l.pmf.length - 1) * l.step + 1);
      for (let i = 0; i < drawn.length; i++) hist[i * l.step] = drawn[i];
      dists.push(_histogramDistribution(hist, l.lo, den, resamples));
    }
  } else if (histogram) {
    const offsets = Float64Array.from(mins, (lo) => n * lo);
    const widths = mins.map((lo, s) => n * (maxs[s] - lo) + 1);
    // One flat histogram, statistic s at [base[s], base[s] + widths[s]).
    const base = new Float64Array(S);
    for (let s = 1; s < S; s++) base[s] = base[s - 1] + widths[s - 1];
    const hist = new Float64Array(base[S - 1] + widths[S - 1]);
    for (let s = 0; s < S; s++) base[s] -= offsets[s];
    const resample = kernel();
    for (let b = 0; b < resamples; b++) {
      resample();
      for (let s = 0; s < S; s++) hist[(base[s] + x[s]) | 0]++;
    }
    for (let s = 0; s < S; s++) {
      const from = base[s] + offsets[s];
      dists.push(
        _histogramDistribution(hist.subarray(from, from + widths[s]), offsets[s], den, resamples),
      );
    }
  } else {
    const values = new Float64Array(S * resamples);
    const resample = kernel();
    for (let b = 0; b < resamples; b++) {
      const d = resample();
      for (let s = 0; s < S; s++) values[s * resamples + b] = x[s] / d;
    }
    for (let s = 0; s < S; s++) {
      dists.push(_sortedDistribution(values.subarray(s * resamples, (s + 1) * resamples).sort()));
    }
  }

  const alpha = (1 - level) / 2;
  return estimates.map((estimate, s) => {
    const dist = dists[s];
    let pLo = alpha, pHi = 1 - alpha;
    if (dist.kth(0) === dist.kth(resamples - 1)) return { estimate, lo: estimate, hi: estimate };
    if (ci === "bca") {
      const below = (dist.countLess(estimate, num[s]) + dist.countLessEq(estimate, num[s])) /
        (2 * resamples);
      const clamped = Math.min(Math.max(below, 0.5 / resamples), 1 - 0.5 / resamples);
      const z0 = normalQuantile(clamped);
      const acc = _jackknifeAcceleration(w, m, a[s], n, num[s], den);
      const zLo = normalQuantile(alpha), zHi = -zLo;
      pLo = normalCdf(z0 + (z0 + zLo) / (1 - acc * (z0 + zLo)));
      pHi = normalCdf(z0 + (z0 + zHi) / (1 - acc * (z0 + zHi)));
    }
    return { estimate, lo: _quantile7(dist, resamples, pLo), hi: _quantile7(dist, resamples, pHi) };
  });
}

/** The sorted bootstrap distribution, accessed by rank. */
interface _Distribution {
  kth(j: number): number;
  countLess(value: number, numerator: number): number;
  countLessEq(value: number, numerator: number): number;
}

function _sortedDistribution(sorted: Float64Array): _Distribution {
  const lowerBound = (x: number, strict: boolean) => {
    let lo = 0, hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (strict ? sorted[mid] < x : sorted[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    kth: (j) => sorted[j],
    countLess: (x) => lowerBound(x, true),
    countLessEq: (x) => lowerBound(x, false),
  };
}

function _histogramDistribution(
  hist: Float64Array,
  offset: number,
  den: number,
  total: number,
): _Distribution {
  const cum = new Float64Array(hist.length);
  let acc = 0;
  for (let i = 0; i < hist.length; i++) cum[i] = acc += hist[i];
  return {
    kth(j) {
      // First bin whose cumulative count exceeds rank j.
      let lo = 0, hi = cum.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cum[mid] > j) hi = mid;
        else lo = mid + 1;
      }
      return (lo + offset) / den;
    },
    // Compare integer numerators, not rounded ratios, so ties are exact.
    countLess: (_x, numerator) => {
      const i = numerator - offset;
      return i <= 0 ? 0 : i > cum.length ? total : cum[i - 1];
    },
    countLessEq: (_x, numerator) => {
      const i = numerator - offset;
      return i < 0 ? 0 : i >= cum.length ? total : cum[i];
    },
  };
}

/** Type-7 quantile (numpy "linear"): h = (B - 1) p, interpolate between ranks floor(h), +1. */
function _quantile7(dist: _Distribution, size: number, p: number): number {
  if (Number.isNaN(p)) return NaN;
  const h = (size - 1) * Math.min(Math.max(p, 0), 1);
  const j = Math.floor(h);
  const lo = dist.kth(j);
  if (j + 1 >= size) return lo;
  return lo + (h - j) * (dist.kth(j + 1) - lo);
}

function _jackknifeAcceleration(
  w: Float64Array,
  m: Float64Array,
  a: Float64Array,
  n: number,
  num: number,
  den: number,
): number {
  if (n < 2) return 0;
  const K = w.length;
  const theta = new Float64Array(K);
  let mean = 0;
  for (let t = 0; t < K; t++) {
    theta[t] = (num - a[t]) / (den - m[t]);
    mean += w[t] * theta[t];
  }
  mean /= n;
  let s2 = 0, s3 = 0;
  for (let t = 0; t < K; t++) {
    const d = mean - theta[t];
    s2 += w[t] * d * d;
    s3 += w[t] * d * d * d;
  }
  return s2 === 0 ? 0 : s3 / (6 * Math.pow(s2, 1.5));
}

/** The 32-bit output of xoroshiro128+ (pure-rand), as an unsigned integer per call. */
type _Bits = () => number;

/** 2^-32: maps an unsigned 32-bit integer to a uniform in [0, 1). */
const _U32 = 2.3283064365386963e-10;

/**
 * Resample by conditional binomials ({@link BinomialTables}): K - 1 uniforms and guide-table
 * lookups per resample, types drawn zero times cost nothing more.
 */
function _binomialKernel(
  w: Float64Array,
  m: Float64Array,
  A: Float64Array,
  S: number,
  n: number,
  bits: _Bits,
  x: Float64Array,
): () => number {
  const tables = new BinomialTables(w, n);
  const last = w.length - 1, stride = n + 1;
  const { slot } = tables;
  return () => {
    x.fill(0);
    let rem = n, d = 0;
    // Typed arrays may be reallocated while tables are built: read them after each build.
    let start = tables.start, len = tables.len, lo = tables.lo;
    let cdf = tables.cdf, guide = tables.guide;
    for (let j = 0; j < last && rem > 0; j++) {
      let id = slot[j * stride + rem] - 1;
      if (id < 0) {
        id = tables.id(j, rem);
        (start = tables.start, len = tables.len, lo = tables.lo);
        (cdf = tables.cdf, guide = tables.guide);
      }
      const u = bits() * _U32, st = start[id];
      let i = guide[st + ((u * len[id]) | 0)];
      while (cdf[i] <= u) i++;
      const k = lo[id] + i - st;
      if (k > 0) {
        rem -= k;
        d += k * m[j];
        for (let s = 0, r = j * S; s < S; s++) x[s] += k * A[r + s];
      }
    }
    if (rem > 0) {
      d += rem * m[last];
      for (let s = 0, r = last * S; s < S; s++) x[s] += rem * A[r + s];
    }
    return d;
  };
}

/** Resample by n uniform cluster draws (index = floor(u n), bias below n / 2^32). */
function _directKernel(
  w: Float64Array,
  m: Float64Array,
  A: Float64Array,
  S: number,
  n: number,
  bits: _Bits,
  x: Float64Array,
): () => number {
  const K = w.length;
  const typeOf = new Int32Array(n);
  for (let t = 0, i = 0; t < K; t++) for (let c = 0; c < w[t]; c++) typeOf[i++] = t;
  const drawn = new Int32Array(K);
  return () => {
    drawn.fill(0);
    for (let j = 0; j < n; j++) drawn[typeOf[(bits() * _U32 * n) | 0]]++;
    x.fill(0);
    let d = 0;
    for (let t = 0; t < K; t++) {
      const k = drawn[t];
      if (k === 0) continue;
      d += k * m[t];
      for (let s = 0, r = t * S; s < S; s++) x[s] += k * A[r + s];
    }
    return d;
  };
}

/**
 * xoroshiro128+ (pure-rand) with one 32-bit draw per uniform: inverting a CDF needs no more
 * resolution than 2^-32, and it halves the generator calls of the hot loop.
 */
function _fastPrng(seed: number): _Bits {
  if (!Number.isInteger(seed)) {
    throw new TypeError(`Cannot bootstrap: seed must be an integer, got ${seed}`);
  }
  const rng = xoroshiro128plus(seed | 0);
  return () => rng.next() >>> 0;
}
