/**
 * Mechanism `distractors` (near misses): a read record that answers nothing about this question
 * but is on its topic and states a value of the kind the question asks for (a date for "when",
 * a number for "how many") can be taken for the answer, at the persona's `distractors.rate`. The
 * taken value then competes like any statement. This is how what fills the context matters: a
 * larger K, a similarity fill or a bank with more look-alike records brings more near misses.
 * Switched off, such records are ignored.
 */
import { MONTH_PATTERN } from "../../text/months.ts";
import { SMALL_NUMBER_WORDS } from "../../text/number_words.ts";
import { memo } from "../../text/memo.ts";
import type { Statement } from "../reading/statements.ts";
import { contentWords, topicalShare } from "../reading/topic.ts";

/** The kind of value a question asks for, read from its wording. */
export type QuestionKind = "date" | "number" | "other";

/**
 * The kind of value a question asks for: `date` for "when" and "what date/day/year/month",
 * `number` for "how many/much/long/old/often/far", else `other`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionKind } from "./distractors.ts";
 * assert.equal(questionKind("When is my dentist appointment?"), "date");
 * assert.equal(questionKind("How old is my dog?"), "number");
 * assert.equal(questionKind("What is my cat called?"), "other");
 * ```
 */
export function questionKind(query: string): QuestionKind {
  const q = query.toLowerCase();
  if (/\bwhen\b|\b(?:what|which) (?:date|day|year|month|time)\b|\bhow long ago\b/.test(q)) {
    return "date";
  }
  if (/\bhow (?:many|much|long|old|often|far|big|tall|large|heavy)\b/.test(q)) return "number";
  return "other";
}

const _DAY = "\\d{1,2}(?:st|nd|rd|th)?";
const _WEEKDAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const DATE = new RegExp(
  [
    "\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b",
    `\\b${_DAY}\\s+(?:of\\s+)?${MONTH_PATTERN}\\b\\.?(?:,?\\s+\\d{4})?`,
    `\\b${MONTH_PATTERN}\\.?\\s+${_DAY}\\b(?:,?\\s+\\d{4})?`,
    `\\b${MONTH_PATTERN}\\.?,?\\s+\\d{4}\\b`,
    `\\b(?:last|next|this)\\s+(?:${_WEEKDAY}|week|weekend|month|year|summer|winter|spring|fall)\\b`,
    `\\b(?:yesterday|${_WEEKDAY})\\b`,
    "\\b(?:19|20)\\d{2}\\b",
  ].join("|"),
  "i",
);
const NUMBER_WORDS = Object.keys(SMALL_NUMBER_WORDS).filter((w) => w !== "one" && w !== "zero");
const NUMBER = new RegExp(
  `(?:[$€£]\\s?)?\\b(?:\\d[\\d,]*(?:\\.\\d+)?|${
    NUMBER_WORDS.join("|")
  })\\b(?:\\s?(?:%|percent))?(?:\\s+[a-z]{3,})?`,
  "i",
);

/** Text without the kit's scaffolding: `[...]` stamps and a leading `Name:` speaker tag. */
function _plain(text: string): string {
  return text.replace(/\[[^\]]*\]\s*/g, "").replace(/^\s*[A-Z][\w.' -]{0,30}:\s+/, "").trim();
}

/** The first value of the question's kind in a statement, or null. */
function _value(text: string, kind: QuestionKind): string | null {
  return _valueOf(`${kind}\u0000${text}`);
}

const _valueOf = memo((key: string): string | null => {
  const cut = key.indexOf("\u0000");
  const kind = key.slice(0, cut) as QuestionKind;
  const plain = _plain(key.slice(cut + 1));
  if (kind === "date") return DATE.exec(plain)?.[0] ?? null;
  if (kind === "number") {
    // Numbers inside dates and clock times are not counts.
    const masked = plain.replace(new RegExp(DATE.source, "gi"), (m) => " ".repeat(m.length))
      .replace(/\b\d{1,2}:\d{2}\b/g, (m) => " ".repeat(m.length));
    const hit = NUMBER.exec(masked);
    return hit ? hit[0].trim() : null;
  }
  // Any other question: the confused reader reports what the record says.
  const sentence = plain.split(/(?<=[.!])\s+/)[0].split(/\s+/).slice(0, 20).join(" ");
  return sentence.replace(/[.!,;:]+$/, "") || null;
});

/** A value a near-miss record offers, and the statement it came from. */
export interface NearMiss {
  value: string;
  statement: Statement;
}

/**
 * The value a near-miss record offers: from the most on-topic of its statements that is not a
 * question, the first value of the question's kind. Null when no statement is on topic (shares
 * at least `minShare` of the question's content words) and states such a value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nearMissValue } from "./distractors.ts";
 * const statements = [{ text: "My gym appointment is on March 3, 2025.", channel: "user" as const }];
 * assert.equal(nearMissValue({ query: "When is my dentist appointment?", statements, minShare: 1 / 3 })?.value, "March 3, 2025");
 * assert.equal(nearMissValue({ query: "How old is my dog?", statements, minShare: 1 / 3 }), null);
 * ```
 */
export function nearMissValue(options: {
  /** The question. */
  query: string;
  /** The record's statements (`readStatements`). */
  statements: readonly Statement[];
  /** Least topical share for a record to be on topic. */
  minShare: number;
}): NearMiss | null {
  const question = contentWords(options.query);
  const kind = questionKind(options.query);
  const candidates = options.statements
    .filter((s) => !s.text.trim().endsWith("?"))
    .map((s, i) => ({ s, i, share: topicalShare({ question, text: s.text }) }))
    .filter((c) => c.share >= options.minShare)
    .sort((a, b) => b.share - a.share || a.i - b.i);
  for (const { s } of candidates) {
    const value = _value(s.text, kind);
    if (value) return { value, statement: s };
  }
  return null;
}
