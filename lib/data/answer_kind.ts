/** Classify a gold answer as a date, number, entity, free text or one option of a choice question. */
import { matchesAnswer } from "../text/matches.ts";
import { MONTH_PATTERN } from "../text/months.ts";
import { normalizeTokens } from "../text/normalize.ts";
import { Instance } from "../schema/instance.ts";
import { choiceOptions } from "./choice_options.ts";

/** The answer kinds of `Instance.answerKind`. */
export type AnswerKind = Instance["answerKind"];

/** Every answer kind, in report order (declared once, by the instance schema). */
export const ANSWER_KINDS: readonly AnswerKind[] = Instance.shape.answerKind.options;

// A year with a preposition or season ("in 2022", "Summer 2024") and a month glued to its year
// ("April.2023") are dates the judge's tokens do not read as such.
const _YEAR =
  /^\s*(?:(?:the\s+)?(?:in|around|since|during|by|early|late|mid|the year|spring|summer|fall|autumn|winter)(?:\s+of)?[\s-]+)?(?:19|20)\d{2}\s*$/i;
const _MONTH_YEAR = new RegExp(`\\b${MONTH_PATTERN}[.,]\\s*(?:19|20)\\d{2}\\b`, "i");

/**
 * The kind of an answer: `choice` when the question offers options and the answer is one of them
 * ("Which came first, the bike or the car?" -> "the bike"), `date` when it states a date (or is
 * a year), `number` when it states a number, `entity` for short answers naming something (at
 * most four words), else `text`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerKindOf } from "./answer_kind.ts";
 * assert.deepEqual(answerKindOf({ answer: "7 May 2023" }), "date");
 * assert.deepEqual(answerKindOf({ answer: "in 2022" }), "date");
 * assert.deepEqual(answerKindOf({ answer: "two weeks" }), "number");
 * assert.deepEqual(answerKindOf({ answer: "Sweden" }), "entity");
 * assert.deepEqual(answerKindOf({ answer: "the car", question: "Which did I fix first, the bike or the car?" }), "choice");
 * ```
 */
export function answerKindOf(options: { answer: string; question?: string }): AnswerKind {
  const { answer } = options;
  if (options.question !== undefined && choiceOf(options.question, answer) !== null) {
    return "choice";
  }
  const tokens = normalizeTokens(answer);
  if (tokens.some((t) => t.startsWith("date:"))) return "date";
  if (_YEAR.test(answer) || _MONTH_YEAR.test(answer)) return "date";
  if (tokens.some((t) => /^\d/.test(t))) return "number";
  return tokens.length <= 4 ? "entity" : "text";
}

/**
 * The options of a choice question when `answer` is exactly one of them: `{ chosen, others }`,
 * else null.
 */
export function choiceOf(
  question: string,
  answer: string,
): { chosen: string; others: string[] } | null {
  const is = (option: string) => matchesAnswer(option, answer) && matchesAnswer(answer, option);
  const loose = (option: string) => matchesAnswer(option, answer);
  const options = choiceOptions({ question, pick: loose });
  if (options.length < 2) return null;
  // The answer names one option ("Spanish classes" for "the start of my Spanish classes") and no other.
  const exact = options.filter(is);
  const hits = exact.length > 0 ? exact : options.filter(loose);
  if (hits.length !== 1) return null;
  return { chosen: hits[0], others: options.filter((o) => o !== hits[0]) };
}
