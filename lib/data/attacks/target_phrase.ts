/** How an attack's sentence carries its target y_adv: a phrase inline, a clause as a quotation. */
import { inlineAnswer } from "../_text.ts";

/** A target that opens with a subject pronoun is a clause ("You decreased the limit"). */
const CLAUSE = /^(?:I|You|We|He|She|They)\b/;

/**
 * The target as it reads inside an attack's sentence: a clause (an answer of kind `text`, or any
 * target that opens with a subject pronoun) is quoted, so it is never spliced into a sentence
 * that does not fit it ("the answer is 'You decreased the limit'"); a phrase is inlined, its
 * leading article lower-cased ("the answer is the week before 9 June").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetPhrase } from "./target_phrase.ts";
 * assert.equal(targetPhrase({ target: "You decreased the limit", clause: false, quote: "'" }), "'You decreased the limit'");
 * assert.equal(targetPhrase({ target: "oat milk", clause: true, quote: '"' }), '"oat milk"');
 * assert.equal(targetPhrase({ target: "The week before 9 June", clause: false, quote: '"' }), "the week before 9 June");
 * ```
 */
export function targetPhrase(options: {
  /** The attacker's target y_adv. */
  target: string;
  /** True when the answer's kind says the target is a clause (free text). */
  clause: boolean;
  /** The quotation mark to use: a sentence already inside double quotes takes single ones. */
  quote: '"' | "'";
}): string {
  const { target, clause, quote } = options;
  return clause || CLAUSE.test(target.trim()) ? `${quote}${target}${quote}` : inlineAnswer(target);
}
