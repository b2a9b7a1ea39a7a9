/**
 * Coverage of the summary's 95% intervals where the paper's claims live (ASR near 0).
 *
 * Run: deno run -A tests/bench/interval_coverage.ts   (about a minute; CLUSTER_SETS=n, default
 * 1000, sets the Monte Carlo size of part 3)
 *
 * 1. The percentile bootstrap, the old default, reproduced at p = 0.02, n = 100: 1,000 simulated
 *    data sets through pairedBootstrap (10,000 resamples), and the same quantity exactly.
 * 2. The table: p in {0, 0.01, 0.02, 0.05, 0.1, 0.3, 0.5} x n in {30, 100, 200}, exact (every
 *    data set enumerated with its probability, no Monte Carlo error). Columns: the kit's Wilson
 *    interval for a single proportion (ASR at p), the textbook Wilson interval, the percentile
 *    bootstrap (one bootstrap per outcome x, 10,000 resamples); Newcombe's method 10 for the
 *    paired difference MID_asr with poisoned rate p and clean rate p/2, independent or
 *    correlated pairs (a shared draw, the strongest correlation). `min w` is the smallest
 *    interval width over every outcome; a `*` marks a coverage below 0.93.
 * 3. Instances with 3 trials (clusters): the summary's rule (`--ci auto`: BCa cluster bootstrap,
 *    the score interval over instances where the bootstrap has no spread) for ASR, instance
 *    rates drawn from a beta distribution with mean p and intra-instance correlation rho,
 *    Monte Carlo over CLUSTER_SETS data sets with 2,000 resamples each.
 */
import { createPrng, type Prng } from "../../lib/random/prng.ts";
import { groupIntervals } from "../../lib/stats/_summarize_frame.ts";
import { bootstrapRatios } from "../../lib/stats/bootstrap_ratios.ts";
import { newcombeInterval } from "../../lib/stats/newcombe_interval.ts";
import { pairedBootstrap } from "../../lib/stats/paired_bootstrap.ts";
import { SUMMARY_METRIC_SPECS } from "../../lib/stats/summary_metrics.ts";
import { wilsonInterval } from "../../lib/stats/wilson_interval.ts";
import { differenceCoverage, NS, proportionCoverage, PS } from "./_exact_coverage.ts";

const f3 = (x: number) => x.toFixed(3);
const mark = (c: number) => `${f3(c)}${c < 0.93 ? "*" : " "}`;

// 1. The figure.
{
  const prng = createPrng(2024);
  const p = 0.02, n = 100, sets = 1000;
  let covered = 0, zero = 0;
  for (let s = 0; s < sets; s++) {
    const pairs = Array.from({ length: n }, (_, i) => ({
      instanceId: `${i}`,
      cleanCorrect: false,
      poisonedCorrect: false,
      cleanTarget: false,
      poisonedTarget: prng.float() < p,
    }));
    const r = pairedBootstrap(pairs, { resamples: 10_000, seed: s });
    if (r.asr.lo <= p && p <= r.asr.hi) covered++;
    if (r.asr.lo === r.asr.hi) zero++;
  }
  const [exact] = proportionCoverage(n, [p], _percentile);
  console.log(
    `1. Percentile bootstrap, ASR at p = ${p}, n = ${n}: ${sets} simulated data sets cover ` +
      `${f3(covered / sets)}, zero width in ${f3(zero / sets)}; exactly: coverage ` +
      `${f3(exact.coverage)}, zero width ${f3(exact.zeroWidth)} (= 0.98^100, no target at all)\n`,
  );
}

// 2. The table.
console.log("2. Exact coverage of 95% intervals (* below 0.93)");
console.log(
  "  n     p    | ASR: kit Wilson  min w   textbook  percentile zero-w | " +
    "MID_asr Newcombe: indep.  min w   correl.  min w",
);
let worst = 1, narrowest = Infinity;
for (const n of NS) {
  const kit = proportionCoverage(n, PS, (x, n) => wilsonInterval({ successes: x, trials: n }));
  const plain = proportionCoverage(
    n,
    PS,
    (x, n) => wilsonInterval({ successes: x, trials: n, modified: false }),
  );
  const boot = proportionCoverage(n, PS, _percentile);
  const cases = PS.flatMap((p) =>
    (["independent", "correlated"] as const).map((pairing) => ({ p, pairing }))
  );
  const mid = differenceCoverage(
    n,
    cases,
    (e, f, g, h) => newcombeInterval({ both: e, firstOnly: f, secondOnly: g, neither: h }),
  );
  PS.forEach((p, i) => {
    const [ind, cor] = [mid[2 * i], mid[2 * i + 1]];
    worst = Math.min(worst, kit[i].coverage, ind.coverage, cor.coverage);
    narrowest = Math.min(narrowest, kit[i].minWidth, ind.minWidth, cor.minWidth);
    console.log(
      `  ${String(n).padStart(3)}  ${p.toFixed(2)}  |      ${mark(kit[i].coverage)}     ` +
        `${f3(kit[i].minWidth)}   ${mark(plain[i].coverage)}    ${mark(boot[i].coverage)}  ` +
        `${f3(boot[i].zeroWidth)} |                  ${mark(ind.coverage)}  ${f3(ind.minWidth)}` +
        `   ${mark(cor.coverage)} ${f3(cor.minWidth)}`,
    );
  });
}
console.log(
  `  kit intervals: lowest coverage ${worst.toFixed(4)}, narrowest interval ${
    narrowest.toFixed(4)
  }\n`,
);

// 3. Clustered instances.
{
  const sets = Number(Deno.env.get("CLUSTER_SETS") ?? 1000), m = 3;
  const asr = SUMMARY_METRIC_SPECS.filter((s) => s.name === "asr");
  console.log(
    `3. ASR with ${m} trials per instance, --ci auto (BCa cluster bootstrap, 2,000 resamples), ` +
      `${sets} simulated data sets per cell`,
  );
  console.log("  instances  rho   p     coverage  zero width  mean width  methods");
  const prng = createPrng(11);
  for (const instances of [30, 100]) {
    for (const rho of [0.2, 0.8]) {
      for (const p of PS) {
        let covered = 0, zero = 0, width = 0;
        const methods = new Map<string, number>();
        for (let s = 0; s < sets; s++) {
          const counts = [0, 0, 0, 0]; // instances with 0..3 target decisions
          for (let i = 0; i < instances; i++) {
            const pi = _beta(prng, p * (1 / rho - 1), (1 - p) * (1 / rho - 1));
            let k = 0;
            for (let t = 0; t < m; t++) if (prng.float() < pi) k++;
            counts[k]++;
          }
          const keep = [0, 1, 2, 3].filter((k) => counts[k] > 0);
          const types = {
            m: keep.map(() => m),
            w: keep.map((k) => counts[k]),
            sums: { poisonedTarget: keep },
          };
          const [r, method] = groupIntervals(
            types,
            asr,
            { resamples: 2000, ci: "auto", seed: s, level: 0.95 },
            s,
            "bench",
          ).get("asr")!;
          if (r.lo <= p && p <= r.hi) covered++;
          if (r.hi === r.lo) zero++;
          width += r.hi - r.lo;
          methods.set(method!, (methods.get(method!) ?? 0) + 1);
        }
        const used = [...methods].map(([k, v]) => `${k} ${v}`).join(", ");
        console.log(
          `  ${String(instances).padStart(9)}  ${rho.toFixed(1)}  ${p.toFixed(2)}  ` +
            `${mark(covered / sets)}    ${f3(zero / sets)}       ${(width / sets).toFixed(4)}` +
            `      ${used}`,
        );
      }
    }
  }
}

/** The percentile bootstrap interval of x of n (10,000 resamples, seed x). */
function _percentile(x: number, n: number) {
  const [r] = bootstrapRatios({
    counts: [x, n - x],
    sizes: [1, 1],
    numerators: [[1, 0]],
    resamples: 10_000,
    seed: x,
  });
  return r;
}

/** A Beta(a, b) draw from two gamma draws (Marsaglia and Tsang); 0 when a is 0. */
function _beta(prng: Prng, a: number, b: number): number {
  if (a === 0) return 0;
  const x = _gamma(prng, a), y = _gamma(prng, b);
  return x / (x + y);
}

function _gamma(prng: Prng, k: number): number {
  if (k < 1) return _gamma(prng, k + 1) * Math.pow(prng.float(), 1 / k);
  const d = k - 1 / 3, c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      const u1 = 1 - prng.float(), u2 = prng.float();
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = prng.float();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
      return d * v;
    }
  }
}
