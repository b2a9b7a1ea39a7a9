/**
 * Mechanism `corroboration`: a value is believed more the more distinct statements in the read
 * records state it, with saturation. The evidence for a value is the summed weight of its
 * distinct statements (weights from provenance and instructions; a sentence repeated word for word
 * counts once), and the agent believes the value with probability `E^2 / (E^2 + h^2)`, h the
 * persona's `halfSupport`: one statement is an anecdote, agreement makes a fact, and belief levels
 * off after a handful. Because writing admits a trace's units a prefix at a time, a record written
 * at low coverage carries few statements and a lone claim there is weak.
 *
 * Switched off, a record counts once however many of its statements state the value (its
 * strongest statement's weight), so admitting more units of a trace adds nothing.
 */
import type { Persona } from "../personas.ts";

/** One statement of a value, as the agent read it. */
export interface ValueStatement {
  /** The value stated, as written. */
  value: string;
  /** The key of the value (normalized words), so spellings of one value meet. */
  valueKey: string;
  /** The key of the record it is in (`recordKey`). */
  record: string;
  /** The key of the statement (`statementKey`). */
  statement: string;
  /** Its weight (provenance times instruction weight). */
  weight: number;
}

/** The evidence for one value. */
export interface ValueEvidence {
  value: string;
  valueKey: string;
  /** Summed weight E. */
  evidence: number;
  /** Distinct statements (corroboration on) or records (off) that were counted. */
  count: number;
}

/**
 * The evidence for each value stated, in first-read order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueEvidence } from "./corroboration.ts";
 * const s = (statement: string, record = "r") => ({ value: "4", valueKey: "4", record, statement, weight: 1 });
 * const items = [s("rex is 4"), s("rex is 4"), s("he turned 4"), s("age 4", "vet")];
 * assert.equal(valueEvidence({ items, corroboration: true })[0].evidence, 3);
 * assert.equal(valueEvidence({ items, corroboration: false })[0].evidence, 2);
 * ```
 */
export function valueEvidence(options: {
  /** Every statement of a value the agent read. */
  items: readonly ValueStatement[];
  /** Whether the mechanism is on. */
  corroboration: boolean;
}): ValueEvidence[] {
  const byValue = new Map<string, { value: string; units: Map<string, number> }>();
  for (const item of options.items) {
    const entry = byValue.get(item.valueKey) ??
      { value: item.value, units: new Map<string, number>() };
    byValue.set(item.valueKey, entry);
    // A unit of evidence: a distinct statement, or with the mechanism off a whole record.
    const unit = options.corroboration ? item.statement : item.record;
    entry.units.set(unit, Math.max(entry.units.get(unit) ?? 0, item.weight));
  }
  return [...byValue.entries()].map(([valueKey, { value, units }]) => ({
    value,
    valueKey,
    evidence: [...units.values()].reduce((a, b) => a + b, 0),
    count: units.size,
  }));
}

/**
 * The chance of believing a value with evidence E: `E^2 / (E^2 + halfSupport^2)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONAS } from "../personas.ts";
 * import { beliefChance } from "./corroboration.ts";
 * assert.equal(beliefChance({ persona: PERSONAS.careful, evidence: 2 }), 0.5);
 * assert.ok(beliefChance({ persona: PERSONAS.careful, evidence: 1 }) < 0.25);
 * ```
 */
export function beliefChance(options: {
  /** The reading persona. */
  persona: Persona;
  /** Evidence E for the value. */
  evidence: number;
}): number {
  const e2 = options.evidence ** 2;
  const h = options.persona.corroboration.halfSupport;
  return e2 === 0 ? 0 : e2 / (e2 + h * h);
}
