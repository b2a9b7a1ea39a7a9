import assert from "node:assert/strict";
import { latticePmf, sampleHistogram } from "../../lib/stats/_lattice_bootstrap.ts";
import { createPrng } from "../../lib/random/prng.ts";

/** Exact pmf of sum(a over n draws with replacement) by enumerating all K^n draws. */
function bruteForce(w: number[], a: number[], n: number): Map<number, number> {
  const total = w.reduce((x, y) => x + y, 0);
  let dist = new Map<number, number>([[0, 1]]);
  for (let i = 0; i < n; i++) {
    const next = new Map<number, number>();
    for (const [v, p] of dist) {
      w.forEach((wt, t) => next.set(v + a[t], (next.get(v + a[t]) ?? 0) + (p * wt) / total));
    }
    dist = next;
  }
  return dist;
}

Deno.test("latticePmf() equals enumeration for two and three equally spaced values", () => {
  const cases: [number[], number[]][] = [
    [[3, 5], [0, 1]],
    [[2, 4, 1], [-1, 0, 1]],
    [[1, 2, 3, 2], [1, 1, 3, 5]], // values 1, 3, 5: spacing 2
    [[4, 1, 2], [-1, 0, 1]],
  ];
  for (const [w, a] of cases) {
    const n = w.reduce((x, y) => x + y, 0);
    const l = latticePmf(Float64Array.from(w), Float64Array.from(a), n)!;
    const want = bruteForce(w, a, n);
    for (let i = 0; i < l.pmf.length; i++) {
      const v = l.lo + l.step * i;
      assert.ok(Math.abs(l.pmf[i] - (want.get(v) ?? 0)) < 1e-12, `w=${w} a=${a} value ${v}`);
    }
  }
  assert.equal(latticePmf(Float64Array.of(1, 1, 1), Float64Array.of(0, 1, 3), 3), null);
});

Deno.test("sampleHistogram() draws multinomial bin counts with the pmf's mean", () => {
  const pmf = Float64Array.of(0.1, 0.2, 0, 0.3, 0.4);
  const rng = createPrng(5);
  const bits = () => Math.floor(rng.float() * 2 ** 32);
  const sum = new Float64Array(5);
  const reps = 400, B = 1000;
  for (let r = 0; r < reps; r++) {
    const h = sampleHistogram(pmf, B, bits);
    assert.equal(h.reduce((x, y) => x + y, 0), B);
    assert.equal(h[2], 0);
    h.forEach((c, i) => (sum[i] += c));
  }
  // Standard error of each mean count is at most sqrt(B * 0.25 / reps) = 0.8.
  pmf.forEach((p, i) => assert.ok(Math.abs(sum[i] / reps - B * p) < 4, `bin ${i}`));
});
