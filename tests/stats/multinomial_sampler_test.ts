import assert from "node:assert/strict";
import { createPrng } from "../../lib/random/prng.ts";
import { multinomialSampler } from "../../lib/stats/multinomial_sampler.ts";

Deno.test("multinomialSampler() draws counts with multinomial mean and variance", () => {
  const weights = [1, 2, 3, 4];
  const size = 50, draws = 20_000;
  const s = multinomialSampler({ weights, size, prng: createPrng(3) });
  const out = new Int32Array(4);
  const sum = [0, 0, 0, 0], sq = [0, 0, 0, 0];
  for (let b = 0; b < draws; b++) {
    s.draw(out);
    assert.equal(out.reduce((a, c) => a + c, 0), size);
    for (let t = 0; t < 4; t++) (sum[t] += out[t], sq[t] += out[t] * out[t]);
  }
  for (let t = 0; t < 4; t++) {
    const p = weights[t] / 10, mean = sum[t] / draws;
    const variance = sq[t] / draws - mean * mean;
    // Standard error of the mean is sqrt(n p (1-p) / draws) <= 0.025.
    assert.ok(Math.abs(mean - size * p) < 0.1, `mean ${mean} vs ${size * p}`);
    assert.ok(Math.abs(variance / (size * p * (1 - p)) - 1) < 0.06, `variance ${variance}`);
  }
});

Deno.test("multinomialSampler() handles large sizes without underflow", () => {
  const s = multinomialSampler({ weights: [0.5, 0.5], size: 1_000_000, prng: createPrng(1) });
  const out = s.draw(new Int32Array(2));
  assert.ok(Math.abs(out[0] - 500_000) < 5_000);
});

Deno.test("multinomialSampler() rejects bad sizes and weights", () => {
  assert.throws(
    () => multinomialSampler({ weights: [1], size: -1, prng: createPrng(1) }),
    RangeError,
  );
  assert.throws(
    () => multinomialSampler({ weights: [0, 0], size: 3, prng: createPrng(1) }),
    /positive sum, got 0/,
  );
});
