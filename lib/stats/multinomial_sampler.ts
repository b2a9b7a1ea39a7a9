/** Exact, seeded multinomial draws: the engine behind the count-based bootstrap. */
import type { Prng } from "../random/prng.ts";

/** Options of {@link multinomialSampler}. */
export interface MultinomialSamplerOptions {
  /** Non-negative category weights; probabilities are `weights / sum(weights)`. Required. */
  weights: ArrayLike<number>;
  /** Trials per draw, a non-negative integer (the `n` of the multinomial). Required. */
  size: number;
  /** Seeded source of uniforms; one uniform is used per category with positive weight. Required. */
  prng: Prng;
}

/** Draws multinomial count vectors; see {@link multinomialSampler}. */
export interface MultinomialSampler {
  /** Fill `out` (length = number of categories) with one draw of counts and return it. */
  draw(out: Int32Array): Int32Array;
}

/** Cumulative probabilities of Binomial(n, q) over `[lo, lo + cdf.length)`; tails below 1e-20
 * of the mode's mass are cut, and the last entry is exactly 1. */
interface _Table {
  lo: number;
  cdf: Float64Array;
  /** guide[i] = first index whose cdf exceeds i / guide.length: search starts there (O(1)). */
  guide: Int32Array;
}

/**
 * Exact multinomial sampler by conditional binomials: category `t` gets
 * `Binomial(remaining, p_t / (p_t + ... + p_T))`, the last category the rest. Each binomial is
 * drawn by inversion of its CDF, which is built once per (category, remaining) pair and cached,
 * so after warm-up a draw costs one uniform and a guide-table lookup (O(1) expected, the
 * index method of Chen and Asau) per category, independent of `size`. The CDF is built outward from the mode by the pmf
 * ratio recurrence and normalised by its sum, so it never underflows for large `size`;
 * truncated tails hold less than 1e-12 of the mass, far below the 2^-32 resolution of the
 * uniforms. Memory: one table of at most
 * `min(size, ~40 sd)` doubles per cached pair.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { multinomialSampler } from "./multinomial_sampler.ts";
 * const s = multinomialSampler({ weights: [1, 2, 0, 1], size: 20, prng: createPrng(1) });
 * const counts = s.draw(new Int32Array(4));
 * assert.equal(counts.reduce((a, b) => a + b, 0), 20);
 * assert.equal(counts[2], 0);
 * ```
 */
export function multinomialSampler(options: MultinomialSamplerOptions): MultinomialSampler {
  const { weights, size, prng } = options;
  if (!Number.isInteger(size) || size < 0) {
    throw new RangeError(`Cannot sample: size must be a non-negative integer, got ${size}`);
  }
  const T = weights.length;
  let total = 0;
  for (let t = 0; t < T; t++) {
    const w = weights[t];
    if (!(w >= 0) || !Number.isFinite(w)) {
      throw new RangeError(`Cannot sample: weights must be finite and >= 0, got ${w} at ${t}`);
    }
    total += w;
  }
  if (T === 0 || (total === 0 && size > 0)) {
    throw new RangeError(`Cannot sample: weights must have a positive sum, got ${total}`);
  }
  // Conditional probability q_t = p_t / (p_t + ... + p_{T-1}) over positive categories only.
  const active: number[] = [];
  for (let t = 0; t < T; t++) if (weights[t] > 0) active.push(t);
  const q = new Float64Array(active.length);
  let rest = total;
  for (let j = 0; j < active.length; j++) {
    const w = weights[active[j]];
    q[j] = j === active.length - 1 ? 1 : Math.min(1, w / rest);
    rest -= w;
  }
  // Tables live in one packed array; slot[j * (size + 1) + remaining] holds index + 1 (0 = not
  // built yet). Typed-array slots keep the hot loop monomorphic.
  const slot = new Int32Array(active.length * (size + 1));
  const pool: _Table[] = [];
  const last = active.length - 1;
  const float = prng.float;

  return {
    draw(out: Int32Array): Int32Array {
      out.fill(0);
      let remaining = size;
      for (let j = 0; j < last && remaining > 0; j++) {
        const at = j * (size + 1) + remaining;
        let id = slot[at] - 1;
        if (id < 0) {
          id = pool.length;
          pool.push(_binomialTable(remaining, q[j]));
          slot[at] = id + 1;
        }
        const table = pool[id];
        const cdf = table.cdf, u = float();
        let i = table.guide[(u * cdf.length) | 0];
        while (cdf[i] <= u) i++;
        const k = table.lo + i;
        out[active[j]] = k;
        remaining -= k;
      }
      if (remaining > 0) out[active[last]] = remaining;
      return out;
    },
  };
}

function _withGuide(lo: number, cdf: Float64Array): _Table {
  const guide = new Int32Array(cdf.length);
  let k = 0;
  for (let i = 0; i < guide.length; i++) {
    while (cdf[k] <= i / guide.length) k++;
    guide[i] = k;
  }
  return { lo, cdf, guide };
}

function _binomialTable(n: number, q: number): _Table {
  if (q <= 0) return _withGuide(0, Float64Array.of(1));
  if (q >= 1) return _withGuide(n, Float64Array.of(1));
  const odds = q / (1 - q);
  const mode = Math.min(n, Math.floor((n + 1) * q));
  // Uniforms have 2^-32 resolution, so mass beyond 1e-14 of the mode never changes a draw.
  const cut = 1e-14;
  const up: number[] = [];
  let v = 1;
  for (let k = mode; k < n;) {
    v *= ((n - k) / (k + 1)) * odds;
    k++;
    if (v < cut) break;
    up.push(v);
  }
  const down: number[] = [];
  v = 1;
  for (let k = mode; k > 0;) {
    v *= (k / (n - k + 1)) / odds;
    k--;
    if (v < cut) break;
    down.push(v);
  }
  const len = down.length + 1 + up.length;
  const cdf = new Float64Array(len);
  let acc = 0, i = 0;
  for (let d = down.length - 1; d >= 0; d--) cdf[i++] = acc += down[d];
  cdf[i++] = acc += 1;
  for (const u of up) cdf[i++] = acc += u;
  for (let j = 0; j < len; j++) cdf[j] /= acc;
  cdf[len - 1] = 1;
  return _withGuide(mode - down.length, cdf);
}
