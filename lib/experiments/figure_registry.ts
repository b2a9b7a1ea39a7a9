/**
 * The figure registry: every figure drawn from its own experiment, in the order `deno task
 * reproduce` writes them (Figure 3, its columns and the mid-range intervals come first, from
 * the three stage sweeps they share).
 */
import { createRegistry, type Registry } from "../schema/registry.ts";
import type { ExperimentOptions } from "./experiment_setup.ts";
import { existingSystems } from "../figures/existing_systems.ts";
import type { FigureResult } from "../figures/figure_result.ts";
import {
  asymmetricExposure,
  figure4TraceLoad,
  figure5Rankers,
  figure6BudgetFill,
  figure7MemorySize,
} from "./rq2_figures.ts";

/**
 * Every registered figure by file name (reproduce and its index read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FIGURES } from "./figure_registry.ts";
 * assert.deepEqual(FIGURES.ids(), ["figure4_trace_load", "figure5_rankers", "figure6_k_fill", "asymmetric_exposure", "figure7_memory_size", "topk_curves"]);
 * ```
 */
export const FIGURES: Registry<(options: ExperimentOptions) => Promise<FigureResult>> =
  createRegistry({ kind: "figure" });

// A new figure is its spec's file, its snapshot test and one line here.
FIGURES.register({
  id: "figure4_trace_load",
  description: "Figure 4: writing coverage by trace load.",
  value: figure4TraceLoad,
});
FIGURES.register({
  id: "figure5_rankers",
  description: "Figure 5: writing coverage by ranker.",
  value: figure5Rankers,
});
FIGURES.register({
  id: "figure6_k_fill",
  description: "Figure 6: retrieval budget K and context fill.",
  value: figure6BudgetFill,
});
FIGURES.register({
  id: "asymmetric_exposure",
  description: "Asymmetric exposure: theta_r- with theta_r+ fixed.",
  value: asymmetricExposure,
});
FIGURES.register({
  id: "figure7_memory_size",
  description: "Figure 7: management policy by memory size |B|.",
  value: figure7MemorySize,
});
FIGURES.register({
  id: "topk_curves",
  description: "Existing memory systems: the paper's Tables 1-2 and top-K curves.",
  value: () => existingSystems({}),
});
