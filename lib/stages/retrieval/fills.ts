/** The fill-strategy registry: random (the paper's default) and similarity, then any plugin's. */
import { createRegistry, type Registry } from "../../schema/registry.ts";
import type { FillStrategy } from "./fill_strategy.ts";
import { randomFill } from "./fills/random.ts";
import { similarityFill } from "./fills/similarity.ts";

/**
 * Every registered fill strategy by id (`--fill`, Figure 6 and the sweep read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FILLS } from "./fills.ts";
 * assert.deepEqual(FILLS.ids().slice(0, 2), ["random", "similarity"]);
 * assert.equal(FILLS.resolve("similarity").id, "similarity");
 * ```
 */
export const FILLS: Registry<FillStrategy> = createRegistry({ kind: "fill" });

/** Register a fill strategy under its own id (`source`: the plugin file). */
export function registerFill(options: { fill: FillStrategy; source?: string }): void {
  const { fill, source } = options;
  FILLS.register({ id: fill.id, description: fill.description, value: fill, source });
}

// The built-ins, registered as a plugin's are; a new one is its own file, its test, one line here.
registerFill({ fill: randomFill });
registerFill({ fill: similarityFill });
