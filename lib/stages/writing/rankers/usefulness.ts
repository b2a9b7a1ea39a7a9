/**
 * Heuristic usefulness ranker: the offline stand-in for an LLM ranker. It scores what a unit
 * would be worth remembering from its text and provenance alone; it never looks at the query,
 * the answer, the target or the `asserts` field.
 */
import type { SourceUnit } from "../../../model/source_unit.ts";
import type { Ranker } from "../ranker.ts";

const FILLER =
  /^(hi|hello|hey|thanks|thank you|great|ok(ay)?|sure|cool|got it|sounds good|no problem|bye|good (morning|night))\b/i;
const FACT_VERB =
  /\b(is|are|was|were|will|has|have|had|costs?|starts?|moved|booked|named|called)\b/i;

/**
 * The score, documented term by term (higher = more useful to remember):
 * - +2 if the text states a number or a date (durable, checkable facts);
 * - +1.5 if it names something: a capitalised word that does not start a sentence;
 * - +1 if it is phrased as a statement of fact (a copular or state verb);
 * - +1 if the unit is a verified outcome (a user confirmation or a tool result);
 * - +min(words / 25, 1) for substance;
 * - -2 for small talk (greetings, thanks, acknowledgements) and -1 for a bare question.
 * Ties keep chronological order.
 */
export function usefulnessScore(unit: SourceUnit): number {
  const text = unit.text.trim();
  const words = text.split(/\s+/).length;
  let score = 0;
  if (/\d/.test(text)) score += 2;
  if (/(?<![.!?]\s|^)\b[A-Z][a-z]+/.test(text.replace(/^\W+/, ""))) score += 1.5;
  if (FACT_VERB.test(text)) score += 1;
  if (unit.verified) score += 1;
  score += Math.min(words / 25, 1);
  if (FILLER.test(text) && words < 8) score -= 2;
  if (text.endsWith("?")) score -= 1;
  return score;
}

/**
 * Rank units by `usefulnessScore`, best first, ties in chronological order.
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
      score: usefulnessScore(unit),
    }));
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return Promise.resolve(scored.map((s) => s.id));
  },
};
