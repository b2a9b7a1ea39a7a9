/** Run planned pair tasks, handing rows to a sink as they finish, in plan order. */
import type { TrialRow } from "../model/trial_row.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { type PairTask, runPair } from "./run_pair.ts";
import type { SweepResources } from "./sweep_resources.ts";

/**
 * Run every task and pass each pair's rows to `onRows` in plan order, so the same seed always
 * yields the same file. Returns all rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deterministicJudge } from "../judges/deterministic_judge.ts";
 * import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";
 * import { runSweep } from "./run_sweep.ts";
 * import { sweepResources } from "./sweep_resources.ts";
 * const resources = sweepResources({ judge: deterministicJudge, writer: verbatimWriter });
 * assert.deepEqual(await runSweep({ tasks: [], resources }), []);
 * ```
 */
export async function runSweep(options: {
  /** Pair tasks from `planSweep`. */
  tasks: readonly PairTask[];
  /** Shared caches and stage implementations. */
  resources: SweepResources;
  /** Receives each pair's rows as soon as they are ready; default none. */
  onRows?: (rows: TrialRow[]) => void | Promise<void>;
  /** Progress sink; default silent. */
  progress?: Progress;
}): Promise<TrialRow[]> {
  const { tasks, resources, onRows, progress = silentProgress } = options;
  const all: TrialRow[] = [];
  let errors = 0;
  progress.start(tasks.length * 2);
  try {
    for (const task of tasks) {
      const rows = await runPair(task, resources);
      errors += rows.filter((r) => r.error !== null).length;
      await onRows?.(rows);
      all.push(...rows);
      progress.update(all.length, { errors });
    }
  } finally {
    progress.stop();
  }
  return all;
}
