/** The one bounded worker pool: the stage sweep's pairs and the systems' tasks run through it. */
import { FieldError } from "../schema/field_error.ts";
import { isSpendCapReached } from "../models/spend_cap.ts";

/**
 * Run `run` over every item with at most `concurrency` in flight, and hand each result to
 * `onResult` strictly in item order (a finished item waits for its predecessors), so a run's
 * output does not depend on which call returned first. Returns the results in item order.
 *
 * A `run` that throws `SpendCapReached` (`--max-cost`) stops the pool: no item starts after
 * it, the items in flight finish, every result up to the first item that did not finish is
 * handed on, then the error is rethrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { orderedPool } from "./worker_pool.ts";
 * const seen: number[] = [];
 * const out = await orderedPool({
 *   items: [30, 10, 20],
 *   concurrency: 2,
 *   run: (ms) => new Promise<number>((r) => setTimeout(() => r(ms), ms)),
 *   onResult: (ms) => void seen.push(ms),
 * });
 * assert.deepEqual(out, [30, 10, 20]);
 * assert.deepEqual(seen, [30, 10, 20]);
 * ```
 */
export async function orderedPool<T, R>(options: {
  /** The work, in the order results are delivered. */
  items: readonly T[];
  /** Items in flight at once, an integer >= 1. */
  concurrency: number;
  /** Does one item. */
  run: (item: T, index: number) => Promise<R>;
  /** Receives each result in item order; default none. */
  onResult?: (result: R, index: number) => void | Promise<void>;
  /**
   * Keep the results and return them; default true. False: each result is dropped once
   * `onResult` has it and the pool returns an empty array (a long run's memory stays flat).
   */
  keepResults?: boolean;
}): Promise<R[]> {
  const { items, concurrency, run, onResult } = options;
  const keep = options.keepResults ?? true;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new FieldError({
      field: "concurrency",
      detail: `expected an integer >= 1, got ${concurrency}`,
    });
  }
  const done: { result: R }[] = new Array(items.length);
  const results: R[] = [];
  let next = 0;
  let flushing = Promise.resolve();
  let flushed = 0;
  const flush = async () => {
    while (flushed < items.length && done[flushed]) {
      const index = flushed++;
      const { result } = done[index];
      if (keep) results.push(result);
      // Handed on: the pool holds only results that wait for a predecessor.
      delete done[index];
      await onResult?.(result, index);
    }
  };
  let stop: unknown = undefined;
  const worker = async () => {
    while (next < items.length && stop === undefined) {
      const index = next++;
      try {
        done[index] = { result: await run(items[index], index) };
      } catch (e) {
        if (!isSpendCapReached(e)) throw e;
        stop ??= e;
        return;
      }
      // Serialise flushes so each result reaches the sink once and in order.
      flushing = flushing.then(flush);
      await flushing;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  await flushing;
  if (stop !== undefined) throw stop;
  return results;
}
