/**
 * The reference agent's random draws. Every draw is keyed by what it is about (the run seed, the
 * repeat, the persona, the instance and a label such as a record or a value), never by the
 * condition or the operating point: a clean run and its poisoned twin, and every operating point
 * of a sweep, see the same dice for the same record (common random numbers), so a curve moves
 * because the stage moved.
 */
import { deriveSeed } from "../../random/derive_seed.ts";
import { createPrng } from "../../random/prng.ts";

/** What keys a trial's draws: everything but the label. */
export interface DrawKey {
  /** Run seed. */
  seed: number;
  /** Independent repeat index (`--trials`); 0 for the first. */
  trial: number;
  /** Persona id (personas stand for different models, so they draw apart). */
  persona: string;
  /** Instance id. */
  instance: string;
}

/**
 * One uniform draw in [0, 1) for `labels` under `key`; the same arguments give the same number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draw } from "./draw.ts";
 * const key = { seed: 1, trial: 0, persona: "careful", instance: "i" };
 * assert.equal(draw(key, "notice", "r1"), draw(key, "notice", "r1"));
 * assert.notEqual(draw(key, "notice", "r1"), draw(key, "notice", "r2"));
 * ```
 */
export function draw(key: DrawKey, ...labels: string[]): number {
  return createPrng(deriveSeed(key.seed, key.trial, key.persona, key.instance, ...labels)).float();
}
