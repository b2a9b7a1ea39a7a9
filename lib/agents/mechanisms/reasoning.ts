/**
 * Mechanism `reasoning`: a record can be evidence for an answer without stating it: "I went
 * yesterday" on 8 May for "When did she go?", the two trips a total is summed from, the newer of
 * two values. A reader works the answer out with a chance, its persona's `reasoning.skill`,
 * scaled by how much of the answer's evidence the record holds (`supportShare`: writing may have
 * admitted only some of it). A value worked out counts like one stated; one not worked out is
 * not offered at all. Switched off, every such record yields its value, as if stated.
 */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { Persona } from "../personas.ts";

/**
 * The chance of working a record's value out: `skill * share`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONAS } from "../personas.ts";
 * import { workedOutChance } from "./reasoning.ts";
 * const persona = { ...PERSONAS.balanced, reasoning: { skill: 0.8 } };
 * assert.equal(workedOutChance({ persona, record: { supportShare: 0.5 } }), 0.4);
 * assert.equal(workedOutChance({ persona, record: {} }), 0.8);
 * ```
 */
export function workedOutChance(options: {
  /** The reading persona. */
  persona: Persona;
  /** The record (its `supportShare`; absent: all of the evidence). */
  record: Pick<MemoryRecord, "supportShare">;
}): number {
  return (options.persona.reasoning?.skill ?? 1) * (options.record.supportShare ?? 1);
}
