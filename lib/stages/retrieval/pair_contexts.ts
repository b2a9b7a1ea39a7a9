/**
 * The retrieval exposure rule for one clean/poisoned pair:
 * `X_c = a+{e+} ∪ Fill(B, K - a+)`, `X_p = a+{e+} ∪ a-{e-} ∪ Fill(B, K - a+ - a-)`.
 */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import { deriveSeed } from "../../random/derive_seed.ts";
import { createPrng } from "../../random/prng.ts";
import { shuffle } from "../../random/shuffle.ts";

/** The two contexts of a pair, in slot order. */
export interface PairContexts {
  clean: MemoryRecord[];
  poisoned: MemoryRecord[];
}

/**
 * Build both contexts from the same draws. Construction, in the order the guarantees need it:
 * 1. The clean items are the helpful record (when `a+` and it survived management) followed by
 *    the first `K - a+` background records of the fill order.
 * 2. The poisoned items are the same list with the risk record (when `a-` and it survived)
 *    taking the place of the LAST background record: it replaces background, never the helpful
 *    record. With no background in the list there is no slot and the risk stays out. When
 *    memory held fewer than K records, the risk record is added instead of replacing.
 * 3. One seeded slot permutation per draw key places item j at slot `perm[j]` in both conditions.
 * So both contexts hold exactly K records (or all of memory when it holds fewer), share the
 * helpful record, the background order and every position except the one slot the risk takes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairContexts } from "./pair_contexts.ts";
 * const rec = (id: string, role: "helpful" | "risk" | "background") => ({ id, text: id, role, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "s", channels: ["user" as const], trusted: true, verified: true, writtenAt: 0 } });
 * const { clean, poisoned } = pairContexts({
 *   k: 3, helpful: rec("h", "helpful"), risk: rec("r", "risk"), helpfulExposed: true, riskExposed: true,
 *   cleanFill: ["b1", "b2", "b3"].map((id) => rec(id, "background")), seed: 1, drawKey: "i",
 * });
 * assert.equal(clean.length, 3);
 * assert.deepEqual(poisoned.map((r) => r.id).toSorted(), ["b1", "h", "r"]);
 * ```
 */
export function pairContexts(options: {
  /** Retrieval budget K >= 1. */
  k: number;
  /** The helpful record if it survived writing and management, else null. */
  helpful: MemoryRecord | null;
  /** The risk record if it survived writing and management in the poisoned memory, else null. */
  risk: MemoryRecord | null;
  /** `a+`, the scheduled helpful exposure. */
  helpfulExposed: boolean;
  /** `a-`, the scheduled risk exposure. */
  riskExposed: boolean;
  /** Kept background of the clean memory in fill order. */
  cleanFill: readonly MemoryRecord[];
  /** Kept background of the poisoned memory in fill order; default `cleanFill`. */
  poisonedFill?: readonly MemoryRecord[];
  /** Run seed. */
  seed: number;
  /**
   * Key of the slot permutation, shared by both conditions. The runner passes the instance id,
   * so slots are also common across operating points and agents (common random numbers).
   */
  drawKey: string;
}): PairContexts {
  const { k, helpful, risk, helpfulExposed, riskExposed, cleanFill, seed, drawKey } = options;
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError(`Cannot retrieve: K must be an integer >= 1, got ${k}`);
  }
  const poisonedFill = options.poisonedFill ?? cleanFill;
  const head = helpfulExposed && helpful ? [helpful] : [];
  const clean = [...head, ...cleanFill.slice(0, k - head.length)];
  const poisoned = [...head, ...poisonedFill.slice(0, k - head.length)];
  if (riskExposed && risk) {
    if (poisoned.length < k) poisoned.push(risk);
    else if (poisoned.length > head.length) poisoned[poisoned.length - 1] = risk;
  }
  const slots = shuffle(
    Array.from({ length: Math.max(clean.length, poisoned.length) }, (_, i) => i),
    { prng: createPrng(deriveSeed(seed, "slots", drawKey)) },
  );
  const place = (items: MemoryRecord[]) =>
    items.map((record, j) => ({ record, slot: slots[j] }))
      .sort((a, b) => a.slot - b.slot)
      .map((x) => x.record);
  return { clean: place(clean), poisoned: place(poisoned) };
}
