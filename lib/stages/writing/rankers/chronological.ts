/** Chronological ranker: units in the order they occurred (an RQ2 baseline). */
import type { Ranker } from "../ranker.ts";

/**
 * Rank units in trace order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chronologicalRanker } from "./chronological.ts";
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [
 *   { id: "a", text: "hi", channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null },
 *   { id: "b", text: "ok", channel: "assistant" as const, trusted: true, verified: false, numbers: [], asserts: null },
 * ] };
 * assert.deepEqual(await chronologicalRanker.rank(trace, { seed: 0 }), ["a", "b"]);
 * ```
 */
export const chronologicalRanker: Ranker = {
  id: "chronological",
  rank: (trace) => Promise.resolve(trace.units.map((u) => u.id)),
};
