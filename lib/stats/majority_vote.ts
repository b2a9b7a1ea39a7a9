/** Majority label of several annotators per item (the paper's expert reference labels). */

/** Options of {@link majorityVote}. */
export interface MajorityVoteOptions {
  /** What a tie gives: null, or a RangeError naming the item. Default "null". */
  onTie?: "null" | "error";
}

/**
 * The most frequent label of each item; ties give null (or throw). O(total labels).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { majorityVote } from "./majority_vote.ts";
 * assert.deepEqual(majorityVote([[1, 1, 0], [0, 0, 1], [1, 0]], {}), [1, 0, null]);
 * ```
 */
export function majorityVote<T>(
  items: readonly (readonly T[])[],
  options: MajorityVoteOptions,
): (T | null)[] {
  const onTie = options.onTie ?? "null";
  return items.map((labels, i) => {
    const c = new Map<T, number>();
    for (const l of labels) c.set(l, (c.get(l) ?? 0) + 1);
    let best: T | null = null, bestN = 0, tie = false;
    for (const [k, v] of c) {
      if (v > bestN) [best, bestN, tie] = [k, v, false];
      else if (v === bestN) tie = true;
    }
    if (labels.length === 0 || tie) {
      if (onTie === "error") {
        throw new RangeError(`Cannot take a majority: item ${i} is tied or empty, got ${labels}`);
      }
      return null;
    }
    return best;
  });
}
