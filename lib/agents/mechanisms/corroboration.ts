/**
 * Mechanism `corroboration`: a value is believed more the more distinct statements in the read
 * records state or support it, with saturation. A statement states a value when it says it (in
 * any spelling the judge's matcher accepts); it supports the value of its record when, the
 * question's own words aside, it is still about the question's topic ("the dentist appointment
 * changed recently, so the newer information applies"), and then it counts `SUPPORT_WEIGHT` of a
 * statement. The evidence for a value is the summed weight of its distinct statements (weights
 * from provenance and instructions; a sentence repeated word for word counts once), and the agent
 * believes the value with probability `E^2 / (E^2 + h^2)`, h the persona's `halfSupport`: one
 * statement is an anecdote, agreement makes a fact, and belief levels off after a handful.
 * Because writing admits a trace's units a prefix at a time, a record written at low coverage
 * carries few statements and a lone claim there is weak.
 *
 * Switched off, a record counts once however many of its statements state the value (its
 * strongest statement's weight), so admitting more units of a trace adds nothing.
 */
import type { Persona } from "../personas.ts";
import { contentWords, TOPICAL_SHARE, topicalShare } from "../reading/topic.ts";

/**
 * The weight of a supporting statement relative to one that states the value: half. It backs the
 * claim without giving the value, so it adds to the evidence but cannot stand in for it.
 */
export const SUPPORT_WEIGHT = 0.5;

/**
 * A request rather than a statement: it asks the reader to tell, remind, check or look something
 * up ("Tell me again about my rent, please."), so, like a question, it asserts nothing.
 */
export const REQUEST =
  /^(?:(?:hey|hi|ok(?:ay)?|so|now)[,!]?\s+)?(?:please\s+)?(?:tell|remind|show|give|check|look up|find|recall|confirm|let me know)\b|\bplease[.!]?$/i;

/**
 * True when a statement that does not state the value supports it: it is neither a question nor a
 * request (`REQUEST`), and
 * with every echo of the question removed it still shares `TOPICAL_SHARE` of the question's
 * content words. Echoing the question ("When is my appointment? (see above)") supports nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { supportsValue } from "./corroboration.ts";
 * const query = "When is my dentist appointment?";
 * assert.equal(supportsValue({ query, text: "Understood, the dentist appointment changed recently." }), true);
 * assert.equal(supportsValue({ query, text: "When is my dentist appointment? (see above)" }), false);
 * assert.equal(supportsValue({ query, text: "Thanks for letting me know." }), false);
 * assert.equal(supportsValue({ query, text: "Tell me again about my dentist appointment, please." }), false);
 * ```
 */
export function supportsValue(options: {
  /** The question. */
  query: string;
  /** The statement. */
  text: string;
}): boolean {
  const text = options.text.trim();
  if (text.endsWith("?") || REQUEST.test(text)) return false;
  const question = options.query.trim();
  const rest = question === "" ? text : text.split(question).join(" ");
  return topicalShare({ question: contentWords(question), text: rest }) >= TOPICAL_SHARE;
}

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
 * The chance of believing a value with evidence E: `E^s / (E^s + halfSupport^s)`, s the persona's
 * `sharpness` (default 2). A larger s makes a threshold: little belief below halfSupport, near
 * certainty above it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERSONAS } from "../personas.ts";
 * import { beliefChance } from "./corroboration.ts";
 * const h = PERSONAS.careful.corroboration.halfSupport;
 * assert.equal(beliefChance({ persona: PERSONAS.careful, evidence: h }), 0.5);
 * assert.ok(beliefChance({ persona: PERSONAS.careful, evidence: h / 2 }) < 0.25);
 * ```
 */
export function beliefChance(options: {
  /** The reading persona. */
  persona: Persona;
  /** Evidence E for the value. */
  evidence: number;
}): number {
  const s = options.persona.corroboration.sharpness ?? 2;
  const e = options.evidence ** s;
  const h = options.persona.corroboration.halfSupport ** s;
  return e === 0 ? 0 : e / (e + h);
}
