/** The background bank B: benign records from other sessions that state neither y* nor y_adv. */
import { matchesAnswer } from "../text/matches.ts";
import type { MemoryRecord } from "../model/memory_record.ts";
import type { Prng } from "../random/prng.ts";
import type { BankCandidate } from "./question_source.ts";

/** Options for {@link sampleBackground}. */
export interface SampleBackgroundOptions {
  /** Candidate records of the dataset. */
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
 * Draw `count` candidates in random order, skipping excluded sessions and any text that the
 * judge's matcher finds stating an avoided answer. Returns fewer when the pool runs out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { sampleBackground } from "./background_bank.ts";
 * const pool = [{ id: "b1", session: "s1", text: "I like tea.", channels: ["user" as const] },
 *   { id: "b2", session: "s2", text: "My cat is Tom.", channels: ["user" as const] }];
 * const texts = sampleBackground({ pool, count: 2, excludeSessions: [], avoid: ["Tom"], prng: createPrng(1) }).map((r) => r.text);
 * assert.deepEqual(texts, ["I like tea."]);
 * ```
 */
export function sampleBackground(options: SampleBackgroundOptions): MemoryRecord[] {
  const { pool, prng } = options;
  const exclude = new Set(options.excludeSessions);
  const index = pool.map((_, i) => i);
  const out: MemoryRecord[] = [];
  // Lazy Fisher-Yates: only as many swaps as records inspected.
  for (let n = 0; n < index.length && out.length < options.count; n++) {
    const j = prng.int(n, index.length - 1);
    [index[n], index[j]] = [index[j], index[n]];
    const c = pool[index[n]];
    if (exclude.has(c.session) || options.avoid.some((a) => matchesAnswer(c.text, a))) continue;
    out.push({
      id: c.id,
      text: c.text,
      role: "background",
      sourceUnitIds: [],
      provenance: {
        session: "background",
        channels: c.channels,
        trusted: true,
        verified: true,
        writtenAt: 0,
      },
      numbers: [],
      asserts: null,
    });
  }
  return out;
}
