/**
 * The experiments behind every figure and table, in the order `deno task reproduce` runs them:
 * the three stage sweeps (Figure 3, its columns, the mid-range intervals), then every
 * registered figure. One sequence for the run, its dry run and the paper's grid plan.
 */
import type { ExperimentOptions } from "./experiment_setup.ts";
import { figure3, figure3Column } from "./figure3.ts";
import type { FigureResult } from "../figures/figure_result.ts";
import { FIGURES } from "./figure_registry.ts";
import { midIntervals } from "./mid_intervals.ts";
import { stageExperiment } from "./stage_experiments.ts";

/**
 * Run every experiment of the paper's figures and hand each figure to `onFigure` as it is
 * ready. `figures` limits the registered figures run after Figure 3 (default all, by id);
 * `stages: false` skips the stage sweeps (a plan of the RQ2 figures alone).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reproduceExperiments } from "./reproduce_experiments.ts";
 * const names: string[] = [];
 * await reproduceExperiments({ n: 1, resamples: 5, figures: [], onFigure: (f) => void names.push(f.name) });
 * assert.deepEqual(names.slice(0, 2), ["figure3_stages", "figure3_writing"]);
 * ```
 */
export async function reproduceExperiments(
  options: ExperimentOptions & {
    /** Receives each figure as it is ready. */
    onFigure: (result: FigureResult, options: { csv: boolean }) => void | Promise<void>;
    /** Registered figures to run after Figure 3, by id; default all. */
    figures?: readonly string[];
    /** Run the stage sweeps (Figure 3, its columns, the mid-range intervals); default true. */
    stages?: boolean;
  },
): Promise<void> {
  const { onFigure } = options;
  if (options.stages ?? true) {
    const stages = {
      writing: await stageExperiment({ ...options, stage: "writing" }),
      management: await stageExperiment({ ...options, stage: "management" }),
      retrieval: await stageExperiment({ ...options, stage: "retrieval" }),
    };
    // The whole figure has no tables of its own: its columns carry them.
    await onFigure(await figure3({ results: stages }), { csv: false });
    for (const stage of ["writing", "management", "retrieval"] as const) {
      await onFigure(await figure3Column({ stage, result: stages[stage] }), { csv: true });
    }
    const mid = await midIntervals({ results: stages, seed: options.seed ?? 0 });
    await onFigure({ ...mid, rows: [] }, { csv: true });
  }
  const wanted = options.figures && new Set(options.figures);
  for (const entry of FIGURES.entries()) {
    if (wanted && !wanted.has(entry.id)) continue;
    await onFigure(await entry.value(options), { csv: true });
  }
}
