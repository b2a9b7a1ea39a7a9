/**
 * Coverage checks: 1,000 simulated paired data sets for the bootstrap (fast since the count-based
 * bootstrap), and the exact coverage of the score intervals (tests/bench/interval_coverage.ts
 * prints the full table).
 */
import assert from "node:assert/strict";
import { createPrng } from "../../lib/random/prng.ts";
import { newcombeInterval } from "../../lib/stats/newcombe_interval.ts";
import { pairedBootstrap } from "../../lib/stats/paired_bootstrap.ts";
import { wilsonInterval } from "../../lib/stats/wilson_interval.ts";
import { differenceCoverage, proportionCoverage, PS } from "../bench/_exact_coverage.ts";

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

Deno.test("Wilson and Newcombe intervals cover at least 93% exactly for n = 30 and 100 and never have zero width", () => {
  for (const n of [30, 100]) {
    const single = proportionCoverage(n, PS, (x, n) => wilsonInterval({ successes: x, trials: n }));
    PS.forEach((p, i) => {
      const { coverage, minWidth } = single[i];
      // The one exception, a property of the Wilson interval itself (statsmodels' gives the same
      // intervals): at n = 30, p = 0.3 its exact coverage is 0.9298.
      const floor = n === 30 && p === 0.3 ? 0.9295 : 0.93;
      assert.ok(coverage >= floor, `Wilson n ${n} p ${p}: ${coverage}`);
      assert.ok(minWidth > 0);
    });
    const cases = PS.flatMap((p) =>
      (["independent", "correlated"] as const).map((pairing) => ({ p, pairing }))
    );
    const mid = differenceCoverage(
      n,
      cases,
      (e, f, g, h) => newcombeInterval({ both: e, firstOnly: f, secondOnly: g, neither: h }),
    );
    cases.forEach(({ p, pairing }, i) => {
      assert.ok(mid[i].coverage >= 0.93, `Newcombe n ${n} p ${p} ${pairing}: ${mid[i].coverage}`);
      assert.ok(mid[i].minWidth > 0);
    });
  }
});
