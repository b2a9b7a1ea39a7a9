/**
 * `Fill(B, k)`: the fixed order in which task-irrelevant background records fill the context,
 * by the registered fill strategy the operating point names (`FILLS`: random, the paper's
 * default, similarity, and any plugin's).
 */
import type { Instance } from "../../schema/instance.ts";
import type { MemoryRecord } from "../../schema/memory_record.ts";
import { FILLS } from "./fills.ts";

/** How background fills the remaining slots: a registered fill id (`random`, `similarity`, ...). */
export type FillMode = string;

/**
 * The order of an instance's background records for `Fill`. `Fill(B, k)` is the first k of the
 * order restricted to the records management kept. An order that names a record twice or one
 * outside the instance's background is refused (a RangeError naming the strategy).
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
 * assert.throws(() => fillOrder({ instance, mode: "oracle", seed: 0 }), /fill: unknown id "oracle"/);
 * ```
 */
export function fillOrder(options: {
  /** The instance whose bank is ordered (reads `id`, `query`, `answer`, `target`, `background`). */
  instance: Pick<Instance, "id" | "query" | "answer" | "target" | "background">;
  /** A registered fill id: "random" (the paper's default), "similarity" or a plugin's. */
  mode: FillMode;
  /** Run seed. */
  seed: number;
}): MemoryRecord[] {
  const { instance, mode, seed } = options;
  const order = FILLS.resolve(mode).order({ instance, seed });
  const bank = new Set(instance.background.map((r) => r.id));
  const seen = new Set<string>();
  for (const record of order) {
    if (!bank.has(record?.id) || seen.has(record.id)) {
      throw new RangeError(
        `fill ${mode}: the order of instance ${instance.id} must list its background records at ` +
          `most once each, got ${JSON.stringify(record?.id)}`,
      );
    }
    seen.add(record.id);
  }
  return order;
}
