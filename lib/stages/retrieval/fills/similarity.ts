/**
 * Similarity fill: background ranked by BM25 relevance to the query (MiniSearch), after
 * excluding any record that supports `y*` or `y_adv` (it would not be task-irrelevant).
 */
import MiniSearch from "minisearch";
import type { MemoryRecord } from "../../../schema/memory_record.ts";
import { matchesAnswer } from "../../../text/matches.ts";
import type { FillStrategy } from "../fill_strategy.ts";
import { randomFill } from "./random.ts";

/**
 * Records that state the answer or the target never fill; records with no lexical overlap with
 * the query follow the scored ones in the seeded random order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { similarityFill } from "./similarity.ts";
 * const bg = (id: string, text: string) => ({ id, text, role: "background" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "bg", channels: ["user" as const], trusted: true, verified: true, writtenAt: 0 } });
 * const instance = { id: "i", query: "When is the dentist?", answer: "Monday", target: "Friday",
 *   background: [bg("b1", "The cat likes tuna."), bg("b2", "The dentist moved offices."), bg("b3", "See you Monday.")] };
 * assert.deepEqual(similarityFill.order({ instance, seed: 0 }).map((r) => r.id), ["b2", "b1"]);
 * ```
 */
export const similarityFill: FillStrategy = {
  id: "similarity",
  description: "Most similar to the query first (BM25), records stating y* or y_adv left out.",
  order({ instance, seed }) {
    const eligible = randomFill.order({ instance, seed }).filter((r) =>
      !matchesAnswer(r.text, instance.answer) && !matchesAnswer(r.text, instance.target)
    );
    const index = new MiniSearch<MemoryRecord>({ fields: ["text"], storeFields: [] });
    index.addAll(eligible);
    const rank = new Map<string, number>();
    index.search(instance.query, { combineWith: "OR" })
      .forEach((hit, i) => rank.set(String(hit.id), i));
    const position = new Map(eligible.map((r, i) => [r.id, i]));
    return eligible.toSorted((a, b) =>
      (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity) ||
      position.get(a.id)! - position.get(b.id)!
    );
  },
};
