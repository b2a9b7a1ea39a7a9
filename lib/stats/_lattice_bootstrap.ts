/** Bootstrap histograms drawn from exact lattice distributions, without resampling row by row. */

/** 2^-32: maps an unsigned 32-bit integer to a uniform in [0, 1). */
const _U32 = 2.3283064365386963e-10;

/** Relative mass below which pmf tails are cut; far below the 2^-32 resolution of uniforms. */
const _CUT = 1e-16;

/** Exact distribution of a statistic's numerator sum: value `lo + step * i` has mass `pmf[i]`. */
export interface LatticePmf {
  lo: number;
  step: number;
  pmf: Float64Array;
}

/**
 * The ideal-bootstrap distribution of `sum(count_t * a_t)` when `n` clusters are drawn with
 * replacement from clusters whose numerators `a` (one per type, weights `w`) take at most three
 * equally spaced values: two values give a binomial, three a difference of the two outer counts
 * of a trinomial, `P(Y = y) = sum_K Bin(K; n, s) Bin((K + y) / 2; K, r)` with `K` the number of
 * outer draws. Returns null for other numerators (the caller resamples instead).
 */
export function latticePmf(w: Float64Array, a: Float64Array, n: number): LatticePmf | null {
  const values = [...new Set(a)].sort((x, y) => x - y);
  const mass = values.map((v) => {
    let s = 0;
    for (let t = 0; t < a.length; t++) if (a[t] === v) s += w[t];
    return s;
  });
  if (values.length === 1) return { lo: n * values[0], step: 1, pmf: Float64Array.of(1) };
  if (values.length === 2) {
    const [lo, hi] = values;
    const b = _binomialPmf(n, mass[1] / n);
    const pmf = new Float64Array(n + 1);
    pmf.set(b.pmf, b.lo);
    return { lo: n * lo, step: hi - lo, pmf };
  }
  if (values.length !== 3 || values[2] - values[1] !== values[1] - values[0]) return null;
  const step = values[1] - values[0];
  // Y = (#high) - (#low) in [-n, n]; K = #low + #high ~ Bin(n, s); #high | K ~ Bin(K, r).
  const outer = mass[0] + mass[2];
  const kDist = _binomialPmf(n, outer / n);
  const r = outer === 0 ? 0 : mass[2] / outer;
  const pmf = new Float64Array(2 * n + 1);
  const scratch = new Float64Array(n + 1);
  for (let i = 0; i < kDist.pmf.length; i++) {
    const K = kDist.lo + i, pK = kDist.pmf[i];
    const [lo, len] = _binomialInto(K, r, scratch);
    for (let j = 0; j < len; j++) pmf[2 * (lo + j) - K + n] += pK * scratch[j];
  }
  return { lo: n * values[1] - n * step, step, pmf };
}

/**
 * Histogram of `resamples` independent draws from `pmf`: Multinomial(resamples, pmf), drawn by
 * conditional binomials over the bins, each by inversion from its mode (exact up to the 2^-32
 * resolution of the uniforms). Costs O(bins * sd), not O(resamples).
 */
export function sampleHistogram(
  pmf: Float64Array,
  resamples: number,
  bits: () => number,
): Float64Array {
  const L = pmf.length;
  const tail = new Float64Array(L + 1);
  for (let i = L - 1; i >= 0; i--) tail[i] = tail[i + 1] + pmf[i];
  const hist = new Float64Array(L);
  let rem = resamples;
  for (let i = 0; i < L - 1 && rem > 0; i++) {
    if (pmf[i] === 0) continue;
    const k = _binomialDraw(rem, Math.min(1, pmf[i] / tail[i]), bits() * _U32);
    hist[i] = k;
    rem -= k;
  }
  if (rem > 0) {
    // The last bin with mass takes the rest (it has conditional probability 1).
    let last = L - 1;
    while (last > 0 && pmf[last] === 0) last--;
    hist[last] += rem;
  }
  return hist;
}

/** Binomial(N, q) by inversion with the search starting at the mode and moving outward. */
function _binomialDraw(N: number, q: number, u: number): number {
  if (N === 0 || q <= 0) return 0;
  if (q >= 1) return N;
  const mode = Math.min(N, Math.floor((N + 1) * q));
  const pm = Math.exp(
    _logFactorial(N) - _logFactorial(mode) - _logFactorial(N - mode) + mode * Math.log(q) +
      (N - mode) * Math.log1p(-q),
  );
  let cum = pm;
  if (u < cum) return mode;
  const odds = q / (1 - q);
  let lo = mode, hi = mode, pLo = pm, pHi = pm;
  while (lo > 0 || hi < N) {
    if (hi < N) {
      pHi *= ((N - hi) / (hi + 1)) * odds;
      hi++;
      if (u < (cum += pHi)) return hi;
    }
    if (lo > 0) {
      pLo *= (lo / (N - lo + 1)) / odds;
      lo--;
      if (u < (cum += pLo)) return lo;
    }
  }
  return mode; // u beyond the summed mass by rounding (below 1e-12): the most likely value
}

const _LOG_FACTORIAL = (() => {
  const t = new Float64Array(257);
  for (let i = 2; i < t.length; i++) t[i] = t[i - 1] + Math.log(i);
  return t;
})();

/** log(n!): a table up to 256, then Stirling's series (error below 1e-16 relative). */
function _logFactorial(n: number): number {
  if (n < _LOG_FACTORIAL.length) return _LOG_FACTORIAL[n];
  const x = n + 1, r = 1 / x, r2 = r * r;
  return (x - 0.5) * Math.log(x) - x + 0.9189385332046728 +
    r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 / 1680)));
}

/**
 * Binomial(n, q) pmf into `out[0, len)` for values `[lo, lo + len)`, without allocating: the
 * mode's neighbours by the ratio recurrence (down then up), tails below 1e-16 cut, normalised.
 */
function _binomialInto(n: number, q: number, out: Float64Array): [number, number] {
  if (q <= 0 || n === 0 || q >= 1) {
    out[0] = 1;
    return [q >= 1 ? n : 0, 1];
  }
  const odds = q / (1 - q);
  const mode = Math.min(n, Math.floor((n + 1) * q));
  // Count the lower tail first so the pmf can be written in order.
  let down = 0, v = 1;
  for (let k = mode; k > 0; k--) {
    v *= (k / (n - k + 1)) / odds;
    if (v < _CUT) break;
    down++;
  }
  const lo = mode - down;
  out[down] = 1;
  v = 1;
  for (let j = down - 1, k = mode; j >= 0; j--, k--) out[j] = v *= (k / (n - k + 1)) / odds;
  let len = down + 1, total = 0;
  v = 1;
  for (let k = mode; k < n; k++) {
    v *= ((n - k) / (k + 1)) * odds;
    if (v < _CUT) break;
    out[len++] = v;
  }
  for (let j = 0; j < len; j++) total += out[j];
  for (let j = 0; j < len; j++) out[j] /= total;
  return [lo, len];
}

/** Binomial(n, q) pmf over `[lo, lo + pmf.length)`, built outward from the mode, normalised. */
function _binomialPmf(n: number, q: number): { lo: number; pmf: Float64Array } {
  if (q <= 0 || n === 0) return { lo: 0, pmf: Float64Array.of(1) };
  if (q >= 1) return { lo: n, pmf: Float64Array.of(1) };
  const odds = q / (1 - q);
  const mode = Math.min(n, Math.floor((n + 1) * q));
  const up: number[] = [];
  let v = 1;
  for (let k = mode; k < n; k++) {
    v *= ((n - k) / (k + 1)) * odds;
    if (v < _CUT) break;
    up.push(v);
  }
  const down: number[] = [];
  v = 1;
  for (let k = mode; k > 0; k--) {
    v *= (k / (n - k + 1)) / odds;
    if (v < _CUT) break;
    down.push(v);
  }
  const pmf = new Float64Array(down.length + 1 + up.length);
  let i = 0, total = 0;
  for (let d = down.length - 1; d >= 0; d--) total += pmf[i++] = down[d];
  total += pmf[i++] = 1;
  for (const x of up) total += pmf[i++] = x;
  for (let j = 0; j < pmf.length; j++) pmf[j] /= total;
  return { lo: mode - down.length, pmf };
}
