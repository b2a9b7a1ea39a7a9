/**
 * Whether a source unit's information is retained in memory records (WR, Table 1): the facts the
 * unit states must be recoverable from the live records that trace to it. One rule for every
 * system, read from text, so a record that traces to a unit but drops what it said does not count.
 */
import { contentWords } from "../agents/reading/topic.ts";
import type { SourceUnit } from "../schema/source_unit.ts";
import { matchesAnswer } from "../text/matches.ts";
import { MONTH_NAMES } from "../text/months.ts";
import { normalizeTokens, stemToken } from "../text/normalize.ts";

/** What a unit states, as the retention rule checks it. */
export interface UnitFacts {
  /** The answer the unit asserts (`asserts`), or null. */
  answer: string | null;
  /** Its keyed numbers (`numbers`), as normalized tokens: `800`, `date:2025-03-14`. */
  numbers: string[];
  /** Named entities: capitalized words inside a sentence, lower-cased (`nkemelu`, `bali`). */
  entities: string[];
  /** Content words, used only when the unit states none of the above. */
  words: string[];
}

// Capitalized words that are not names: the pronoun, titles, calendar words, speaker labels.
const _NOT_NAMES = new Set([
  "i",
  "i'm",
  "i've",
  "i'll",
  "i'd",
  "ok",
  "dr",
  "mr",
  "mrs",
  "ms",
  "prof",
  "st",
  "user",
  "assistant",
  ...MONTH_NAMES.map((m) => m.toLowerCase()),
  ...["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
]);

/** A keyed number as the normalized token a text stating it would contain. */
function _numberToken(n: SourceUnit["numbers"][number]): string {
  const v = n.value;
  // Dates are keyed `...:date:...` with the value yyyymmdd (`answerKey`).
  if (/:date:/.test(n.key) && Number.isInteger(v) && v >= 1000_01_01 && v <= 9999_12_31) {
    const s = String(v);
    return `date:${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  }
  return normalizeTokens(String(v))[0] ?? String(v);
}

/**
 * The named entities of a text: capitalized words that do not start a sentence, without the
 * kit's scaffolding (a `[8 May 2023]` stamp, a leading `Name:` speaker tag), titles, months,
 * weekdays and `I`. Lower-cased, in order, each once.
 */
function _entities(text: string): string[] {
  const body = text.replace(/\[[^\]]*\]/g, " ").replace(/^\s*[A-Z][\w .'-]{0,40}?:\s/, " ")
    // A title's period ends no sentence ("Dr. Nkemelu").
    .replace(/\b(Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr)\./g, "$1");
  const out: string[] = [];
  // A sentence, a clause after a colon, a quotation, a parenthesis or a list item starts with a
  // capital whatever the word is, so its first word is not read as a name.
  for (
    const sentence of body.split(/(?<=[.!?:;])\s+|\n+|["\u201c\u201d()*]+|\s[-\u2013\u2014]\s/)
  ) {
    const words = sentence.match(/[A-Za-z][A-Za-z'-]*/g) ?? [];
    words.forEach((w, i) => {
      const lower = w.toLowerCase().replace(/'s$/, "");
      if (i === 0 || !/^[A-Z]/.test(w) || lower.length < 2 || _NOT_NAMES.has(lower)) return;
      // A function word in capitals ("The", "What") is no name.
      if (contentWords(lower).size === 0) return;
      if (!out.includes(lower)) out.push(lower);
    });
  }
  return out;
}

/**
 * What a unit states: its answer assertion, its keyed numbers, the named entities in its text,
 * and (for a unit that states none of these) its content words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitFacts } from "./retained_information.ts";
 * const facts = unitFacts({ text: "[8 May 2023] Ann: My dentist, Dr. Nkemelu, is on Elm Street.",
 *   asserts: null, numbers: [{ key: "user:date:when", value: 20250314 }] });
 * assert.deepEqual(facts.entities, ["nkemelu", "elm", "street"]);
 * assert.deepEqual(facts.numbers, ["date:2025-03-14"]);
 * assert.deepEqual(unitFacts({ text: "Hi, I had such a long day.", asserts: null, numbers: [] }).words, ["long", "day"]);
 * ```
 */
export function unitFacts(unit: Pick<SourceUnit, "text" | "asserts" | "numbers">): UnitFacts {
  const entities = _entities(unit.text);
  const numbers = [...new Set(unit.numbers.map(_numberToken))];
  const states = unit.asserts !== null || numbers.length > 0 || entities.length > 0;
  return {
    answer: unit.asserts,
    numbers,
    entities,
    words: states ? [] : [...contentWords(unit.text)],
  };
}

/** Options of {@link informationRetained}. */
export interface InformationRetainedOptions {
  /** The source unit. */
  unit: Pick<SourceUnit, "text" | "asserts" | "numbers">;
  /** Texts of the live records that trace to the unit (provenance), in any order. */
  records: readonly string[];
}

/**
 * WR's rule for one unit: its information is retained when some live record traces to it and
 * every fact it states is recoverable from those records together:
 * - its answer assertion, matched as the data builders match answers (`matchesAnswer`: dates,
 *   number words and inflections normalized);
 * - each keyed number, as a normalized token (`$1,200` and `1200`, `March 14, 2025` and
 *   `2025-03-14` are the same);
 * - each named entity (a capitalized word inside a sentence), by its stem;
 * - for a unit that states none of these (small talk, a question), at least half of its content
 *   words; a unit with no content word at all is retained when a record traces to it.
 * Records that trace to the unit but drop what it said (a summary without the date, an
 * extraction that kept the topic and lost the name) do not count. Cost: linear in the text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { informationRetained } from "./retained_information.ts";
 * const unit = { text: "My dentist appointment with Dr. Nkemelu is on March 14, 2025.", asserts: "March 14, 2025",
 *   numbers: [{ key: "user:date:when-is-my-dentist-appointment", value: 20250314 }] };
 * assert.ok(informationRetained({ unit, records: ["Dentist appointment with Dr Nkemelu on 2025-03-14"] }));
 * // Traces to the unit, but the date is gone: not retained.
 * assert.ok(!informationRetained({ unit, records: ["User has a dentist appointment with Dr. Nkemelu"] }));
 * assert.ok(!informationRetained({ unit, records: [] }));
 * ```
 */
export function informationRetained(options: InformationRetainedOptions): boolean {
  const { unit, records } = options;
  if (records.length === 0) return false;
  const facts = unitFacts(unit);
  const text = records.join("\n");
  if (facts.answer !== null && !matchesAnswer(text, facts.answer)) return false;
  const tokens = normalizeTokens(text);
  const have = new Set(tokens);
  if (!facts.numbers.every((n) => have.has(n))) return false;
  if (facts.entities.length > 0) {
    const stems = new Set(tokens.map(stemToken));
    if (!facts.entities.every((e) => stems.has(stemToken(normalizeTokens(e)[0] ?? e)))) {
      return false;
    }
  }
  if (facts.words.length > 0) {
    const kept = contentWords(text);
    return facts.words.filter((w) => kept.has(w)).length * 2 >= facts.words.length;
  }
  return true;
}
