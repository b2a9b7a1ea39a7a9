/** Classify a gold answer as a date, number, entity or free text, so targets can be type-aware. */
import { normalizeTokens } from "../text/normalize.ts";

/** The answer kinds of `Instance.answerKind`. */
export type AnswerKind = "number" | "date" | "entity" | "text";

/**
 * The kind of an answer: `date` when it states a date (or is a bare year), `number` when it
 * states a number, `entity` for short answers naming something (at most four words), else `text`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerKindOf } from "./answer_kind.ts";
 * assert.deepEqual(answerKindOf({ answer: "7 May 2023" }), "date");
 * assert.deepEqual(answerKindOf({ answer: "two weeks" }), "number");
 * assert.deepEqual(answerKindOf({ answer: "Sweden" }), "entity");
 * ```
 */
export function answerKindOf(options: { answer: string }): AnswerKind {
  const tokens = normalizeTokens(options.answer);
  if (tokens.some((t) => t.startsWith("date:"))) return "date";
  if (/^\s*(?:19|20)\d{2}\s*$/.test(options.answer)) return "date";
  if (tokens.some((t) => /^\d/.test(t))) return "number";
  return tokens.length <= 4 ? "entity" : "text";
}
