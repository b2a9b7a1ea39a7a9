/** A plan made on a sample of instances, scaled to the full set; plans of several runs added up. */
import type { PlanEntry } from "./request_plan.ts";

const _COUNTS = [
  "asked",
  "unique",
  "cached",
  "toSend",
  "promptTokens",
  "completionTokens",
] as const;

/**
 * The entries of a plan made on `sample` instances, scaled to `full`: every count and token
 * total times `full / sample`, rounded. Requests merge within an instance (its traces, its
 * contexts), never across instances, so a plan grows with the instances it covers; a stratified
 * sample (the benchmark builder's own draw) scales to the full set up to its sampling error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scaleEntries } from "./scale_plan.ts";
 * const entry = { phase: "agent" as const, model: "m", asked: 10, unique: 6, cached: 0, toSend: 6,
 *   promptTokens: 600, completionTokens: 60, completionBasis: "stand-in" as const, promptScale: 1 };
 * assert.equal(scaleEntries({ entries: [entry], sample: 10, full: 100 })[0].toSend, 60);
 * ```
 */
export function scaleEntries(options: {
  entries: readonly PlanEntry[];
  /** Instances the plan covers. */
  sample: number;
  /** Instances of the full run. */
  full: number;
}): PlanEntry[] {
  const factor = options.full / options.sample;
  return options.entries.map((e) => {
    const out = { ...e };
    for (const k of _COUNTS) out[k] = Math.round(e[k] * factor);
    return out;
  });
}

/**
 * Add up the entries of several plans by phase and model (plans of runs that share no request).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addEntries } from "./scale_plan.ts";
 * const entry = { phase: "judge" as const, model: "m", asked: 2, unique: 2, cached: 0, toSend: 2,
 *   promptTokens: 20, completionTokens: 2, completionBasis: "stand-in" as const, promptScale: 1 };
 * assert.equal(addEntries([[entry], [entry]])[0].toSend, 4);
 * ```
 */
export function addEntries(plans: readonly (readonly PlanEntry[])[]): PlanEntry[] {
  const cells = new Map<string, PlanEntry>();
  for (const entries of plans) {
    for (const e of entries) {
      const id = `${e.phase}\0${e.model}`;
      const known = cells.get(id);
      if (!known) {
        cells.set(id, { ...e });
        continue;
      }
      for (const k of _COUNTS) known[k] += e[k];
      if (e.completionBasis === "cache") known.completionBasis = "cache";
      if (e.promptScale !== 1) known.promptScale = e.promptScale;
    }
  }
  return [...cells.values()];
}
