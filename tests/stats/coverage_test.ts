/** Coverage check: 1,000 simulated paired data sets (fast since the count-based bootstrap). */
import assert from "node:assert/strict";
import { createPrng } from "../../lib/random/prng.ts";
import { pairedBootstrap } from "../../lib/stats/paired_bootstrap.ts";

Deno.test({
  name: "pairedBootstrap() 95% percentile interval for midAsr covers the truth 93-97% of the time",
  fn() {
    const prng = createPrng(2024);
    // Clean target rate 0.1, poisoned 0.4, correlated through a shared draw: MID_asr = 0.3.
    const truth = 0.3, sets = 1000, n = 200;
    let covered = 0;
    for (let s = 0; s < sets; s++) {
      const pairs = Array.from({ length: n }, (_, i) => {
        const u = prng.float();
        return {
          instanceId: `${i}`,
          cleanCorrect: false,
          poisonedCorrect: false,
          cleanTarget: u < 0.1,
          poisonedTarget: u < 0.4,
        };
      });
      const r = pairedBootstrap(pairs, { resamples: 10_000, seed: s });
      if (r.midAsr.lo <= truth && truth <= r.midAsr.hi) covered++;
    }
    console.log(`coverage ${covered / sets}`);
    assert.ok(covered / sets >= 0.93 && covered / sets <= 0.97, `coverage ${covered / sets}`);
  },
});

Deno.test({
  name: "pairedBootstrap() midAsr coverage holds when the pair's outcomes are independent",
  fn() {
    const prng = createPrng(77);
    // Clean and poisoned target draws independent (rates 0.2 and 0.45): differences take -1, 0, 1.
    const truth = 0.25, sets = 1000, n = 200;
    let covered = 0;
    for (let s = 0; s < sets; s++) {
      const pairs = Array.from({ length: n }, (_, i) => ({
        instanceId: `${i}`,
        cleanCorrect: false,
        poisonedCorrect: false,
        cleanTarget: prng.float() < 0.2,
        poisonedTarget: prng.float() < 0.45,
      }));
      const r = pairedBootstrap(pairs, { resamples: 10_000, seed: s });
      if (r.midAsr.lo <= truth && truth <= r.midAsr.hi) covered++;
    }
    console.log(`coverage ${covered / sets}`);
    assert.ok(covered / sets >= 0.93 && covered / sets <= 0.97, `coverage ${covered / sets}`);
  },
});
