/** Normalized answer matching: does a decision state a given answer? */
import { normalizeTokens } from "./normalize.ts";

/** Date tokens match when every part the expected token gives agrees with the candidate. */
function _tokenMatches(expected: string, candidate: string): boolean {
  if (expected === candidate) return true;
  if (!expected.startsWith("date:") || !candidate.startsWith("date:")) return false;
  const e = expected.slice(5).split("-");
  const c = candidate.slice(5).split("-");
  return e.every((part, i) => part === "_" || part === c[i]);
}

/**
 * True when the normalized tokens of `answer` occur contiguously in the normalized `text`.
 * Token boundaries keep "13" from matching "130" and "cat" from matching "category".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesAnswer } from "./matches.ts";
 * assert.ok(matchesAnswer("It was on the 7th of May 2023.", "May 7, 2023"));
 * assert.ok(!matchesAnswer("She has 13 cats.", "3"));
 * ```
 */
export function matchesAnswer(text: string, answer: string): boolean {
  const want = normalizeTokens(answer);
  if (want.length === 0) return false;
  const have = normalizeTokens(text);
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let j = 0; j < want.length; j++) {
      if (!_tokenMatches(want[j], have[i + j])) continue outer;
    }
    return true;
  }
  return false;
}
