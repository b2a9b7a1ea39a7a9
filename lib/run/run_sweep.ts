/** Run planned pair tasks concurrently, handing rows to a sink in plan order. */
import { FieldError } from "../schema/field_error.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { callScope, withCallScope } from "../models/call_scope.ts";
import type { ResponseCache } from "../models/response_cache.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { type PairTask, ROW_CALLS, runPair, trialKey } from "./run_pair.ts";
import type { SweepResources } from "./sweep_resources.ts";
import { orderedPool } from "./worker_pool.ts";

/** Rows a pair trial may have (two conditions and their counterfactual reruns): spaces `ord`s. */
const _ROWS_PER_PAIR = 4096;

/**
 * Settle the `cacheHit` of a pair's rows, in plan order: a row is a cache hit when each of its
 * model calls was answered by a reply another run put in the cache, or one an earlier row of
 * this run asked for (`ResponseCache.claim`). The answer does not depend on which request
 * finished first, on the concurrency, or on where the run was interrupted and resumed. Rows
 * without model calls (the offline agent) and error rows keep theirs.
 */
function _settleHits(rows: TrialRow[], pairOrd: number, run: string | undefined): void {
  if (run === undefined) return;
  const caches = new Set<ResponseCache>();
  rows.forEach((row, i) => {
    const calls = ROW_CALLS.get(row);
    if (!calls || row.error !== null) return;
    const ord = pairOrd * _ROWS_PER_PAIR + i;
    let hit = true;
    for (const call of calls) {
      // Every call is settled (each claims what it asked for), not only up to the first miss.
      const reused = call.cache !== undefined && call.cache.claim({ key: call.key, run, ord });
      hit &&= reused;
      if (call.cache) caches.add(call.cache);
    }
    row.cacheHit = hit;
  });
  // Claims are stored before the rows are written, so a resume settles the same way.
  for (const cache of caches) cache.flush();
}

/**
 * Run every task (times `trials`) and pass each pair's rows to `onRows` strictly in plan order
 * (finished pairs wait in a buffer for their predecessors), so the same seed always yields the
 * same file. Requests, not pairs, are what is scheduled: many pairs are in progress at once,
 * each endpoint's limiter keeps `concurrency` requests in flight, and it serves the requests of
 * earlier pairs first. Returns the rows it ran.
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
  /**
   * Model requests in flight per endpoint (`--concurrency`), which each endpoint's limiter
   * enforces; pairs in progress: enough to keep every endpoint busy (8 per request slot and
   * agent, at least 64). Default 8.
   */
  concurrency?: number;
  /** Independent repeats per pair (`trial` 0..trials-1); default 1. */
  trials?: number;
  /** Which pair trials to run, by `trialKey`; default all (resume passes the missing ones). */
  select?: (key: string) => boolean;
  /**
   * Keep the rows and return them; default true. False: rows go to `onRows` only and the
   * result is empty, so a long run's memory does not grow with its rows (about 2 KB each).
   */
  keepRows?: boolean;
}): Promise<TrialRow[]> {
  const { resources, onRows, progress = silentProgress, select } = options;
  const concurrency = options.concurrency ?? 8;
  const trials = options.trials ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new FieldError({
      field: "concurrency",
      detail: `expected an integer >= 1, got ${concurrency}`,
    });
  }
  if (!Number.isInteger(trials) || trials < 1) {
    throw new RangeError(`--trials: expected an integer >= 1, got ${trials}`);
  }
  const work = sweepWork({ tasks: options.tasks, trials, select });
  const keep = options.keepRows ?? true;
  const agents = new Set(options.tasks.map((t) => t.agent.id)).size;
  const window = Math.max(64, 8 * concurrency * Math.max(1, agents));
  const run = callScope()?.run;
  const all: TrialRow[] = [];
  let errors = 0, cacheHits = 0, done = 0;
  progress.start(work.length * 2);
  try {
    await orderedPool({
      items: work,
      concurrency: window,
      keepResults: false,
      // Requests of earlier pairs go first at every endpoint.
      run: async ({ task, ord }) => {
        const rows = await withCallScope({ rank: ord }, () => runPair(task, resources));
        // Counterfactual reruns are known only once a pair's decisions are: count them as found.
        if (rows.length > 2) progress.extend?.(rows.length - 2);
        return rows;
      },
      onResult: async (rows, index) => {
        _settleHits(rows, work[index].ord, run);
        errors += rows.filter((r) => r.error !== null).length;
        cacheHits += rows.filter((r) => r.cacheHit === true).length;
        await onRows?.(rows);
        if (keep) all.push(...rows);
        done += rows.length;
        progress.update(done, { errors, cacheHits });
      },
    });
  } finally {
    progress.stop();
  }
  return all;
}

/**
 * The pair trials a sweep runs, in plan order: each task times `trials`, with its place `ord` in
 * the whole plan (resumed or retried runs keep their places), those `select` keeps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweepWork } from "./run_sweep.ts";
 * assert.deepEqual(sweepWork({ tasks: [], trials: 2 }), []);
 * ```
 */
export function sweepWork<T extends { pairId: string; trial?: number }>(options: {
  /** Pair tasks from `planSweep`. */
  tasks: readonly T[];
  /** Independent repeats per pair. */
  trials: number;
  /** Which pair trials to keep, by `trialKey`; default all. */
  select?: (key: string) => boolean;
}): { task: T & { trial: number }; ord: number }[] {
  const { tasks, trials, select } = options;
  return tasks
    .flatMap((task) => Array.from({ length: trials }, (_, trial) => ({ ...task, trial })))
    .map((task, ord) => ({ task, ord }))
    .filter(({ task }) => !select || select(trialKey(task)));
}
