/**
 * `Fill(B, k)`: the fixed order in which task-irrelevant background records fill the context.
 * Random (the paper's default) is a seeded shuffle; similarity ranks by BM25 relevance to the
 * query (MiniSearch) after excluding any record that supports `y*` or `y_adv`.
 */
import MiniSearch from "minisearch";
import { matchesAnswer } from "../../text/matches.ts";
import type { Instance } from "../../schema/instance.ts";
import type { MemoryRecord } from "../../schema/memory_record.ts";
import { deriveSeed } from "../../random/derive_seed.ts";
import { createPrng } from "../../random/prng.ts";
import { shuffle } from "../../random/shuffle.ts";

/** How background fills the remaining slots. */
export type FillMode = "random" | "similarity";

/**
 * The order of an instance's background records for `Fill`. `Fill(B, k)` is the first k of the
 * order restricted to the records management kept. Records that state the answer or the
 * target are never used as filler in similarity mode (they are not task-irrelevant); records
 * with no lexical overlap follow the scored ones in the seeded random order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fillOrder } from "./fill_order.ts";
 * const bg = (id: string, text: string) => ({ id, text, role: "background" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "bg", channels: ["user" as const], trusted: true, verified: true, writtenAt: 0 } });
 * const instance = { id: "i", query: "When is the dentist?", answer: "Monday", target: "Friday",
 *   background: [bg("b1", "The cat likes tuna."), bg("b2", "The dentist moved offices.")] };
 * const order = fillOrder({ instance, mode: "similarity", seed: 0 });
 * assert.deepEqual(order.map((r) => r.id), ["b2", "b1"]);
 * ```
 */
export function fillOrder(options: {
  /** The instance whose bank is ordered (reads `id`, `query`, `answer`, `target`, `background`). */
  instance: Pick<Instance, "id" | "query" | "answer" | "target" | "background">;
  /** "random" (default in the paper) or "similarity". */
  mode: FillMode;
  /** Run seed. */
  seed: number;
}): MemoryRecord[] {
  const { instance, mode, seed } = options;
  const randomOrder = shuffle(instance.background, {
    prng: createPrng(deriveSeed(seed, "fill", instance.id)),
  });
  if (mode === "random") return randomOrder;
  const eligible = randomOrder.filter((r) =>
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
}
