/** Derive independent, named sub-seeds from a run seed, so each random draw has its own stream. */
import { createHash } from "node:crypto";

/**
 * Hash a seed and labels into a non-negative 31-bit integer seed. Two different label lists give
 * unrelated streams; the same list always gives the same seed. This is how pairs share draws:
 * both conditions derive the seed from labels that omit the condition.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deriveSeed } from "./derive_seed.ts";
 * assert.deepEqual(deriveSeed(1, "exposure+", 0.8), deriveSeed(1, "exposure+", 0.8));
 * assert.ok(deriveSeed(1, "exposure+") !== deriveSeed(1, "exposure-"));
 * ```
 */
export function deriveSeed(seed: number, ...labels: (string | number)[]): number {
  const hash = createHash("sha256").update(JSON.stringify([seed, ...labels])).digest();
  return hash.readUInt32BE(0) >>> 1;
}
