/** The ranker registry: the offline rankers, then any plugin's (`llm:self`, `llm:MODEL` are built on demand). */
import { createRegistry, type Registry } from "../../schema/registry.ts";
import type { Ranker } from "./ranker.ts";
import { chronologicalRanker } from "./rankers/chronological.ts";
import { distinctivenessRanker } from "./rankers/distinctiveness.ts";
import { randomRanker } from "./rankers/random.ts";
import { usefulnessRanker } from "./rankers/usefulness.ts";

/**
 * Every registered offline ranker by id (`--ranker`, Figure 5 and `deno task data` read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RANKERS } from "./rankers.ts";
 * assert.deepEqual(RANKERS.ids().slice(0, 4), ["usefulness", "random", "chronological", "distinctiveness"]);
 * assert.equal(RANKERS.resolve("random").id, "random");
 * ```
 */
export const RANKERS: Registry<Ranker> = createRegistry({ kind: "ranker" });

/** Register a ranker under its own id (`source`: the plugin file). */
export function registerRanker(
  options: { ranker: Ranker; description: string; source?: string },
): void {
  const { ranker, description, source } = options;
  RANKERS.register({ id: ranker.id, description, value: ranker, source });
}

// The built-ins; a new offline ranker is its own file, its test and one line here.
registerRanker({
  ranker: usefulnessRanker,
  description: "Usefulness: the query-answer, recent and distinctive units first.",
});
registerRanker({ ranker: randomRanker, description: "Random order, seeded per trace." });
registerRanker({ ranker: chronologicalRanker, description: "Trace order, first unit first." });
registerRanker({
  ranker: distinctivenessRanker,
  description: "Distinctiveness: units with rare words first.",
});

/** The built-in offline rankers by id (plugins not included). */
export const OFFLINE_RANKERS: Readonly<Record<string, Ranker>> = Object.fromEntries(
  RANKERS.entries().map((e) => [e.id, e.value]),
);
