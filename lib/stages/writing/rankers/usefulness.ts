/**
 * Heuristic usefulness ranker: the offline stand-in for an LLM ranker, for the reference agent.
 * It scores a unit from its text alone. It never sees the unit's role, channel, trust or
 * verification, nor the query, the answer, the target or `asserts`, and it strips the kit's own
 * scaffolding (a leading date stamp, a leading speaker tag) before reading the text.
 */
import type { Ranker } from "../ranker.ts";

/** A leading date stamp the instance builders add so relative dates resolve: "[8 May 2023] ". */
const STAMP = /^\s*\[[^\]\n]{1,40}\]\s*/;
/** A leading speaker tag: "Melanie: ", "User: ", "Dr. Ruiz: " (one to three words, then a colon). */
const SPEAKER = /^\s*(?:[A-Z][\w.'-]*\s){0,2}[A-Z][\w.'-]*:\s+/;
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;
const NUMBER_WORD =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|dozen)\b/i;
const FIRST_PERSON = /\b(?:I|I'm|I've|I'd|I'll|me|my|mine|we|we're|we've|us|our)\b/;
const SMALL_TALK =
  /^(?:hi|hello|hey|thanks|thank you|great|ok(?:ay)?|sure|cool|got it|sounds good|no problem|bye|good (?:morning|night|evening)|you're welcome|anytime|perfect|nice|awesome|wow)\b/i;
const IMPERATIVE =
  /^(?:please|remember|note|save|store|ignore|make sure|keep in mind|don't|do not|always|never|from now on)\b/i;

/** A unit's text without the kit's scaffolding: the date stamp and the speaker tag. */
export function stripScaffolding(text: string): string {
  return text.replace(STAMP, "").replace(SPEAKER, "").trim();
}

/**
 * The score of a unit's text, term by term (higher = more useful to remember). The table is
 * the kit's own; it was not fitted to the paper's numbers.
 *
 * | term | when |
 * | --- | --- |
 * | +2 | it states a specific: a digit, a month name or a number word |
 * | +1 | it names something: a capitalised word that does not start a sentence (not "I") |
 * | +1 | it is about the speaker: a first-person pronoun (personal facts are what memory keeps) |
 * | +1 | it is a statement: it ends in a full stop or an exclamation mark |
 * | +min(words / 20, 1) | substance |
 * | -2 | small talk: a greeting, thanks or acknowledgement under 8 words |
 * | -1.5 | a question: it ends in a question mark |
 * | -1 | an instruction: it opens with an imperative ("please", "remember", "note", "save", ...) |
 *
 * Scaffolding is stripped first (`stripScaffolding`), so a date stamp adds nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usefulnessScore } from "./usefulness.ts";
 * assert.equal(usefulnessScore({ text: "[8 May 2023] Ann: Hi!" }), usefulnessScore({ text: "Hi!" }));
 * assert.ok(usefulnessScore({ text: "I adopted a cat named Tom in 2021." }) > usefulnessScore({ text: "What should I cook?" }));
 * ```
 */
export function usefulnessScore(options: {
  /** The unit's text; nothing else about the unit is read. */
  text: string;
}): number {
  const text = stripScaffolding(options.text);
  const words = text.split(/\s+/).filter((w) => w !== "").length;
  let score = 0;
  if (/\d/.test(text) || MONTH.test(text) || NUMBER_WORD.test(text)) score += 2;
  // A capital after a word character and a space, not after a sentence end: "... with Tom".
  if (/(?<=[a-z,;:]\s)(?!I\b)[A-Z][a-z]+/.test(text)) score += 1;
  if (FIRST_PERSON.test(text)) score += 1;
  if (/[.!]["')\]]*$/.test(text)) score += 1;
  score += Math.min(words / 20, 1);
  if (SMALL_TALK.test(text) && words < 8) score -= 2;
  if (/\?["')\]]*$/.test(text)) score -= 1.5;
  if (IMPERATIVE.test(text)) score -= 1;
  return score;
}

/**
 * Rank units by `usefulnessScore` of their text, best first, ties in chronological order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usefulnessRanker } from "./usefulness.ts";
 * const unit = (id: string, text: string) => ({ id, text, channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null });
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [unit("a", "Thanks!"), unit("b", "My dentist appointment is on 12 March at 9:30.")] };
 * assert.deepEqual(await usefulnessRanker.rank(trace, { seed: 0 }), ["b", "a"]);
 * ```
 */
export const usefulnessRanker: Ranker = {
  id: "usefulness",
  rank(trace) {
    const scored = trace.units.map((unit, index) => ({
      id: unit.id,
      index,
      score: usefulnessScore({ text: unit.text }),
    }));
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return Promise.resolve(scored.map((s) => s.id));
  },
};
