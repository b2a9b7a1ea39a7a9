/** deno bench: the 60 operating points x 200 pairs x 10,000 resamples. */
import { pairedBootstrap } from "../../lib/stats/paired_bootstrap.ts";
import { benchPairs, GROUPS, RESAMPLES } from "./_bootstrap_problem.ts";

const data = Array.from({ length: GROUPS }, (_, g) => benchPairs(g));

Deno.bench("pairedBootstrap() 60 x 200 x 10,000, percentile, all five metrics", () => {
  for (const [g, pairs] of data.entries()) {
    pairedBootstrap(pairs, { resamples: RESAMPLES, seed: g });
  }
});

Deno.bench("pairedBootstrap() 60 x 200 x 10,000, BCa, all five metrics", () => {
  for (const [g, pairs] of data.entries()) {
    pairedBootstrap(pairs, { resamples: RESAMPLES, seed: g, ci: "bca" });
  }
});
