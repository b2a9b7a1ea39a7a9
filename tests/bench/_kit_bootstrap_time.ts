/**
 * Kit side of bootstrap_vs_scipy.sh: prints seconds for MID_asr alone and for all five paired
 * metrics, each from the pairs as input (building the type counts is inside the timing).
 */
import { bootstrapRatios } from "../../lib/stats/bootstrap_ratios.ts";
import { pairedBootstrap } from "../../lib/stats/paired_bootstrap.ts";
import { benchPairs, GROUPS, RESAMPLES } from "./_bootstrap_problem.ts";

const data = Array.from({ length: GROUPS }, (_, g) => benchPairs(g));

function midOnly(): void {
  for (const [g, pairs] of data.entries()) {
    // MID_asr alone, like scipy's first run: types are the values of pt - ct.
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
}

function allFive(): void {
  for (const [g, pairs] of data.entries()) {
    pairedBootstrap(pairs, { resamples: RESAMPLES, seed: g });
  }
}

function seconds(run: () => void): number {
  const start = performance.now();
  run();
  return (performance.now() - start) / 1000;
}

// Warm up the JIT once on a small problem, as scipy's numpy kernels are precompiled.
pairedBootstrap(data[0], { resamples: RESAMPLES });
console.log(`${seconds(midOnly).toFixed(4)} ${seconds(allFive).toFixed(4)}`);
