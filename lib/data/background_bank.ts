/** The background bank B: records from other sessions that state neither y* nor y_adv. */
import { matchesAnswer } from "../text/matches.ts";
import type { MemoryRecord } from "../schema/memory_record.ts";
import type { Prng } from "../random/prng.ts";
import { lazyShuffle } from "../random/shuffle.ts";
import { type BankCandidate, bankRecord } from "./bank_record.ts";

/** Options for {@link sampleBackground}. */
export interface SampleBackgroundOptions {
  /** Candidate windows of the dataset. */
  pool: readonly BankCandidate[];
  /** How many records to return. */
  count: number;
  /** Sessions to skip (the instance's evidence sessions). */
  excludeSessions: readonly string[];
  /** Answers no record may state (y* and y_adv). */
  avoid: readonly string[];
  /** Generator; the same generator state gives the same records, and a larger count extends a smaller one. */
  prng: Prng;
}

/**
 * Draw `count` candidates in random order, skipping excluded sessions and any record whose text
 * the judge's matcher finds stating an avoided answer, and build each into a record with its
 * real provenance (`bankRecord`). Returns fewer when the pool runs out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { sampleBackground } from "./background_bank.ts";
 * const turn = (text: string) => ({ speaker: "Ann", channel: "user" as const, text, trusted: true, verified: false });
 * const pool = [{ id: "b1", session: "s1", turns: [turn("I like tea.")] }, { id: "b2", session: "s2", turns: [turn("My cat is Tom.")] }];
 * const texts = sampleBackground({ pool, count: 2, excludeSessions: [], avoid: ["Tom"], prng: createPrng(1) }).map((r) => r.text);
 * assert.deepEqual(texts, ["Ann: I like tea."]);
 * ```
 */
export function sampleBackground(
  options: SampleBackgroundOptions,
): (MemoryRecord & { role: "background" })[] {
  const { pool, prng } = options;
  const exclude = new Set(options.excludeSessions);
  const out: (MemoryRecord & { role: "background" })[] = [];
  // Drawn one at a time: only as many draws as records inspected.
  const order = lazyShuffle(pool, { prng });
  while (out.length < options.count) {
    const next = order.next();
    if (next.done) break;
    const c = next.value;
    if (exclude.has(c.session)) continue;
    const record = bankRecord({ candidate: c });
    if (options.avoid.some((a) => matchesAnswer(record.text, a))) continue;
    out.push(record);
  }
  return out;
}
