/** Kit side of bootstrap_vs_scipy.sh: prints seconds for MID_asr only and for all 5 metrics. */
import { bootstrapRatios } from "../../lib/stats/bootstrap_ratios.ts";
import { pairedBootstrap } from "../../lib/stats/paired_bootstrap.ts";
import { benchPairs, GROUPS, RESAMPLES } from "./_bootstrap_problem.ts";

const data = Array.from({ length: GROUPS }, (_, g) => benchPairs(g));
// Warm up the JIT once, as scipy's numpy kernels are precompiled.
pairedBootstrap(data[0], { resamples: RESAMPLES });

let start = performance.now();
for (const [g, pairs] of data.entries()) {
  // MID_asr alone, like the scipy side: types are the (pt - ct) values.
  const counts = [0, 0, 0];
  for (const p of pairs) counts[+p.poisonedTarget - +p.cleanTarget + 1]++;
  bootstrapRatios({
    counts,
    sizes: [1, 1, 1],
    numerators: [[-1, 0, 1]],
    resamples: RESAMPLES,
    seed: g,
  });
}
const midOnly = (performance.now() - start) / 1000;
start = performance.now();
for (const [g, pairs] of data.entries()) pairedBootstrap(pairs, { resamples: RESAMPLES, seed: g });
const allFive = (performance.now() - start) / 1000;
console.log(`${midOnly.toFixed(4)} ${allFive.toFixed(4)}`);
