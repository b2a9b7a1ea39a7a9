/**
 * Keyed numbers read from text, so numeric-conflict management can compare any two records
 * that state a value of the same quantity. A key is `subject:quantity`: who the number is about
 * (a speaker, "user", "assistant") and what it counts or measures ("dog", "week", "usd").
 */
import type { StatedNumber } from "../schema/source_unit.ts";
import { SMALL_NUMBER_WORDS, TENS_NUMBER_WORDS } from "../text/number_words.ts";
import { MONTH_PATTERN } from "../text/months.ts";
import type { AnswerKind } from "./answer_kind.ts";

// "one" is left out: "one day", "the one" and "one of" are idioms far more often than counts.
const _WORDS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries({ ...SMALL_NUMBER_WORDS, ...TENS_NUMBER_WORDS }).filter(([w, n]) =>
    n >= 2 && w !== "zero"
  ),
);
/** Words after a number that name no quantity: function words, times of day, ordinals' tails. */
const _NOT_QUANTITY = new Set(
  ("of|and|or|to|the|a|an|in|on|at|for|with|from|by|more|less|than|am|pm|a.m|p.m|is|are|was|" +
    "were|it|that|this|my|his|her|our|their|your|so|but|if|as|too|out|up|off|ago|each|per|" +
    "st|nd|rd|th|and|or|times|time|other|others|things|thing|ones|percent|years-old")
    .split("|"),
);
const _MONTH = new RegExp(`^${MONTH_PATTERN}$`, "i");

/** A noun in its singular form (enough for counted nouns: "dogs" -> "dog", "classes" -> "class"). */
export function singularNoun(word: string): string {
  const w = word.toLowerCase();
  if (/ies$/.test(w) && w.length > 4) return w.slice(0, -3) + "y";
  if (/(?:ches|shes|sses|xes)$/.test(w)) return w.slice(0, -2);
  if (/[^su]s$/.test(w) && w.length > 3) return w.slice(0, -1);
  return w;
}

/** The key of a quantity: `subject:quantity`, both lower-case. */
export function quantityKey(options: { subject: string; quantity: string }): string {
  return `${options.subject.trim().toLowerCase()}:${options.quantity.trim().toLowerCase()}`;
}

/**
 * Measures: a value of time, distance, weight, money or rate says little about which quantity
 * it is without its topic ("30 minutes" of what?), so free text is not keyed by them.
 */
const _MEASURES = new Set(
  ("second|minute|hour|day|night|week|weekend|month|year|decade|century|time|mile|kilometer|" +
    "kilometre|km|meter|metre|foot|feet|inch|yard|pound|lb|kilogram|kg|gram|ounce|oz|liter|" +
    "litre|gallon|degree|percent|dollar|buck|cent|euro|grand|calorie|step|mph|rep|set|way|" +
    "minute-long|hour-long|day-long|week-long|month-long|year-long|year-old|month-old|" +
    "hundred|thousand|million|dozen|piece|bit|lot|couple|few|bunch|pair")
    .split("|"),
);

/** True when a noun counts things ("dog", "bike") rather than measuring (`_MEASURES`). */
export function isCountedNoun(noun: string): boolean {
  const n = singularNoun(noun);
  return !_MEASURES.has(n) && !_NOT_QUANTITY.has(n) && !_MONTH.test(n) && n.length >= 3;
}

/**
 * The counts a text states, keyed by `subject` and the counted noun in the singular ("3 dogs"
 * -> `ann:dog`, "two kids" -> `ann:kid`). Measures (`_MEASURES`: durations, distances, money),
 * years, dates, times of day, list markers and "one" are not read, and a word after a comma is
 * never a number's noun; the first value under a key wins.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statedNumbers } from "./stated_numbers.ts";
 * assert.deepEqual(statedNumbers({ text: "We have 3 dogs and two kids, spent $1,450 over 2 weeks in 2023.", subject: "Ann" }),
 *   [{ key: "ann:dog", value: 3 }, { key: "ann:kid", value: 2 }]);
 * assert.deepEqual(statedNumbers({ text: "At 5 pm on 7 May, one day.", subject: "Ann" }), []);
 * assert.deepEqual(statedNumbers({ text: "On October 2, 2025, early; 12,000, she said.", subject: "Ann" }), []);
 * ```
 */
export function statedNumbers(options: {
  /** The text to read. */
  text: string;
  /** Who the numbers are about: the speaker, "user" or "assistant". */
  subject: string;
}): StatedNumber[] {
  const { text, subject } = options;
  const out: StatedNumber[] = [];
  const words = Object.keys(_WORDS).join("|");
  // A number is digits with optional thousands groups ("12,000") and decimals; a comma after it
  // ends it, so in "October 2, 2025, early" or "12,000, she" no word after a comma is its noun.
  const counted = new RegExp(
    `(^|[^\\w$€£.,:/-])(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|${words})` +
      `(?:-|\\s+)([A-Za-z][a-z]+(?:-[a-z]+)?)\\b`,
    "gi",
  );
  for (const m of text.matchAll(counted)) {
    const raw = m[2].toLowerCase();
    if (!isCountedNoun(m[3]) || /^(?:19|20)\d{2}$/.test(raw)) continue;
    const value = raw in _WORDS ? _WORDS[raw] : Number(raw.replaceAll(",", ""));
    const key = quantityKey({ subject, quantity: singularNoun(m[3]) });
    if (Number.isFinite(value) && !out.some((n) => n.key === key)) out.push({ key, value });
  }
  return out;
}

/**
 * The `numbers` key of the quantity a question asks for, so helpful, risk and background
 * records stating it share one key. A count of things is keyed like free text (`statedNumbers`:
 * "3 dogs" or "How many dogs ...?" -> `andrew:dog`), so a background record about the same
 * things can conflict with it; a measure (a duration, money, a time) and a date are keyed by
 * the question's topic, which no other text produces. Null for answers that are neither
 * numbers nor dates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerKey } from "./stated_numbers.ts";
 * assert.equal(answerKey({ question: "How many dogs does Andrew have?", answer: "3", kind: "number", subject: "Andrew" }), "andrew:dog");
 * assert.equal(answerKey({ question: "How long was my trip?", answer: "two weeks", kind: "number", subject: "user" }), "user:value:how-long-was-my-trip");
 * assert.equal(answerKey({ question: "Who won?", answer: "Ann", kind: "entity", subject: "user" }), null);
 * ```
 */
export function answerKey(options: {
  question: string;
  answer: string;
  kind: AnswerKind;
  /** Who the question is about ("andrew", "user"). */
  subject: string;
}): string | null {
  const { question, answer, kind, subject } = options;
  const last = question.split(/(?<=[.!?])\s+/).filter((s) => /\w/.test(s)).at(-1) ?? question;
  const topic = last.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  if (kind === "date") return quantityKey({ subject, quantity: `date:${topic}` });
  if (kind !== "number") return null;
  const fromAnswer = statedNumbers({ text: answer, subject })[0];
  if (fromAnswer) return fromAnswer.key;
  const many = /\bhow many\s+(?:[a-z-]+\s+){0,2}?([a-z-]+s)\b/i.exec(last) ??
    /\bhow many\s+([a-z-]+)/i.exec(last);
  if (many && isCountedNoun(many[1])) {
    return quantityKey({ subject, quantity: singularNoun(many[1]) });
  }
  // A measure (a duration, an amount of money) is keyed by its topic: which one it is.
  return quantityKey({ subject, quantity: `value:${topic}` });
}
