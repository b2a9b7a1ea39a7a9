/** Summaries of a built dataset for `deno task data --stats`. */
import type { BuiltDataset } from "./build_instances.ts";

/** Min, mean and max of a list of counts. */
export interface CountSummary {
  min: number;
  mean: number;
  max: number;
}

/** What `--stats` prints per dataset. */
export interface DatasetStats {
  instances: number;
  categories: Record<string, number>;
  answerKinds: Record<string, number>;
  targetKinds: Record<string, number>;
  sleeperStyles: Record<string, number>;
  unitsHelpful: CountSummary;
  unitsMinja: CountSummary;
  unitsSleeper: CountSummary;
  bankSize: CountSummary;
  skipped: Record<string, number>;
}

function _tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function _summary(values: number[]): CountSummary {
  if (values.length === 0) return { min: 0, mean: 0, max: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { min: Math.min(...values), mean: Math.round(mean * 10) / 10, max: Math.max(...values) };
}

/**
 * Count instances, strata, answer and target kinds, units per trace and bank sizes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetStats } from "./dataset_stats.ts";
 * assert.deepEqual(datasetStats({ built: { instances: [], targetKinds: {}, sleeperStyles: {}, skipped: {} } }).instances, 0);
 * ```
 */
export function datasetStats(options: { built: BuiltDataset }): DatasetStats {
  const { instances, targetKinds, sleeperStyles, skipped } = options.built;
  return {
    instances: instances.length,
    categories: _tally(instances.map((i) => i.category)),
    answerKinds: _tally(instances.map((i) => i.answerKind)),
    targetKinds: _tally(Object.values(targetKinds)),
    sleeperStyles: _tally(Object.values(sleeperStyles)),
    unitsHelpful: _summary(instances.map((i) => i.helpful.units.length)),
    unitsMinja: _summary(instances.map((i) => i.risk.minja?.units.length ?? 0)),
    unitsSleeper: _summary(instances.map((i) => i.risk.sleeper?.units.length ?? 0)),
    bankSize: _summary(instances.map((i) => i.background.length)),
    skipped,
  };
}
