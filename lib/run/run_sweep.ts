/** Run planned pair tasks concurrently, handing rows to a sink in plan order. */
import type { TrialRow } from "../model/trial_row.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { type PairTask, runPair, trialKey } from "./run_pair.ts";
import type { SweepResources } from "./sweep_resources.ts";
import { orderedPool } from "./worker_pool.ts";

/**
 * Run every task (times `trials`) with up to `concurrency` pairs in flight, and pass each
 * pair's rows to `onRows` strictly in plan order (finished pairs wait in a buffer for their
 * predecessors), so the same seed always yields the same file. Returns the rows it ran.
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
  /** Receives each pair's rows in plan order; default none. */
  onRows?: (rows: TrialRow[]) => void | Promise<void>;
  /** Progress sink; default silent. */
  progress?: Progress;
  /** Pairs in flight at once; default 8 (model calls are further bounded by the client). */
  concurrency?: number;
  /** Independent repeats per pair (`trial` 0..trials-1); default 1. */
  trials?: number;
  /** Which pair trials to run, by `trialKey`; default all (resume passes the missing ones). */
  select?: (key: string) => boolean;
}): Promise<TrialRow[]> {
  const { resources, onRows, progress = silentProgress, select } = options;
  const concurrency = options.concurrency ?? 8;
  const trials = options.trials ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`--concurrency: expected an integer >= 1, got ${concurrency}`);
  }
  if (!Number.isInteger(trials) || trials < 1) {
    throw new RangeError(`--trials: expected an integer >= 1, got ${trials}`);
  }
  const work: PairTask[] = options.tasks
    .flatMap((task) => Array.from({ length: trials }, (_, trial) => ({ ...task, trial })))
    .filter((task) => !select || select(trialKey(task)));
  const all: TrialRow[] = [];
  let errors = 0, cacheHits = 0;
  progress.start(work.length * 2);
  try {
    await orderedPool({
      items: work,
      concurrency,
      run: async (task) => {
        const rows = await runPair(task, resources);
        // Counterfactual reruns are known only once a pair's decisions are: count them as found.
        if (rows.length > 2) progress.extend?.(rows.length - 2);
        errors += rows.filter((r) => r.error !== null).length;
        cacheHits += rows.filter((r) => r.cacheHit === true).length;
        return rows;
      },
      onResult: async (rows) => {
        await onRows?.(rows);
        all.push(...rows);
        progress.update(all.length, { errors, cacheHits });
      },
    });
  } finally {
    progress.stop();
  }
  return all;
}
