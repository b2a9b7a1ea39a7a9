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
  const tables = new BinomialTables(weights, size);
  const { active } = tables;
  const last = active.length - 1;
  const float = prng.float;

  return {
    draw(out: Int32Array): Int32Array {
      out.fill(0);
      let remaining = size;
      for (let j = 0; j < last && remaining > 0; j++) {
        const k = tables.draw(j, remaining, float());
        out[active[j]] = k;
        remaining -= k;
      }
      if (remaining > 0) out[active[last]] = remaining;
      return out;
    },
  };
}

/**
 * Inverse-CDF tables of the conditional binomials `Binomial(remaining, q_j)`, built on first use
 * per (category j, remaining) and packed in typed arrays, so hot loops (the bootstrap kernel
 * reads the fields directly) stay monomorphic and allocation-free after warm-up. Table `id`
 * covers values `lo[id] + i` for `i < len[id]`, with cumulative probabilities at
 * `cdf[start[id] + i]` (tails below 1e-14 of the mode's mass cut, last entry exactly 1) and a
 * guide table (index method of Chen and Asau) at `guide[start[id] + i]`: the first absolute
 * index whose cdf exceeds `i / len[id]`, so a draw is O(1) expected.
 */
export class BinomialTables {
  /** Categories with positive weight, in order; q_j refers to `active[j]`. */
  readonly active: Int32Array;
  /** q_j = p_j / (p_j + ... + p_last) over active categories; the last is 1. */
  readonly q: Float64Array;
  /** Trials per multinomial draw. */
  readonly size: number;
  /** slot[j * (size + 1) + remaining] = table id + 1, or 0 if not built. */
  readonly slot: Int32Array;
  start = new Int32Array(64);
  len = new Int32Array(64);
  lo = new Int32Array(64);
  cdf = new Float64Array(4096);
  guide = new Int32Array(4096);
  tables = 0;
  used = 0;

  constructor(weights: ArrayLike<number>, size: number) {
    const act: number[] = [];
    let total = 0;
    for (let t = 0; t < weights.length; t++) {
      if (weights[t] > 0) act.push(t);
      total += weights[t];
    }
    this.active = Int32Array.from(act);
    this.q = new Float64Array(act.length);
    let rest = total;
    for (let j = 0; j < act.length; j++) {
      const w = weights[act[j]];
      this.q[j] = j === act.length - 1 ? 1 : Math.min(1, w / rest);
      rest -= w;
    }
    this.size = size;
    this.slot = new Int32Array(act.length * (size + 1));
  }

  /** Table id of `Binomial(remaining, q_j)`, building it on first use. */
  id(j: number, remaining: number): number {
    const at = j * (this.size + 1) + remaining;
    const id = this.slot[at] - 1;
    return id >= 0 ? id : (this.slot[at] = this._build(remaining, this.q[j]) + 1) - 1;
  }

  /** One draw of `Binomial(remaining, q_j)` from the uniform `u` in [0, 1). */
  draw(j: number, remaining: number, u: number): number {
    const id = this.id(j, remaining);
    const s = this.start[id], cdf = this.cdf;
    let i = this.guide[s + ((u * this.len[id]) | 0)];
    while (cdf[i] <= u) i++;
    return this.lo[id] + i - s;
  }

  private _build(n: number, q: number): number {
    let lo = 0, cdf: Float64Array;
    if (q <= 0) cdf = Float64Array.of(1);
    else if (q >= 1) (lo = n, cdf = Float64Array.of(1));
    else [lo, cdf] = _binomialCdf(n, q);
    const id = this.tables++;
    if (id === this.start.length) {
      this.start = _grow(this.start, 2 * id);
      this.len = _grow(this.len, 2 * id);
      this.lo = _grow(this.lo, 2 * id);
    }
    const s = this.used, L = cdf.length;
    if (s + L > this.cdf.length) {
      const cap = Math.max(2 * this.cdf.length, s + L);
      this.cdf = _grow(this.cdf, cap);
      this.guide = _grow(this.guide, cap);
    }
    this.cdf.set(cdf, s);
    let k = 0;
    for (let i = 0; i < L; i++) {
      while (cdf[k] <= i / L) k++;
      this.guide[s + i] = s + k;
    }
    this.start[id] = s;
    this.len[id] = L;
    this.lo[id] = lo;
    this.used = s + L;
    return id;
  }
}

function _grow<T extends Int32Array | Float64Array>(a: T, cap: number): T {
  const b = (a instanceof Int32Array ? new Int32Array(cap) : new Float64Array(cap)) as T;
  b.set(a);
  return b;
}

/** Cumulative probabilities of Binomial(n, q), 0 < q < 1, over `[lo, lo + cdf.length)`. */
function _binomialCdf(n: number, q: number): [number, Float64Array] {
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
  return [mode - down.length, cdf];
}
