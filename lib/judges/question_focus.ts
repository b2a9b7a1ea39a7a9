/** Does a question ask for a value as it is now, or as it was before a change? */
import { answerTokens } from "./answer_tokens.ts";
import { COMMITMENT_CUES } from "./commitment_cues.ts";

/** `past`: the question asks for an earlier value ("previous", "initially"); else `present`. */
export type QuestionFocus = "past" | "present";

/**
 * The focus of a question: `past` when it names an earlier value ("What was my previous
 * tier?", "Where did I initially keep it?"), else `present`. It decides which side of "used to
 * be X, now Y" answers the question.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionFocus } from "./question_focus.ts";
 * assert.equal(questionFocus({ question: "What was my previous tier before the upgrade?" }), "past");
 * assert.equal(questionFocus({ question: "Where does my sister live?" }), "present");
 * ```
 */
export function questionFocus(options: { question: string }): QuestionFocus {
  const tokens = answerTokens(options.question);
  const past = COMMITMENT_CUES.pastQuestion.some((p) =>
    tokens.some((_, k) => p.every((w, j) => tokens[k + j] === w))
  );
  return past ? "past" : "present";
}
