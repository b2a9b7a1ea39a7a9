/** Normalized answer matching: does a text state a given answer? */
import { normalizeTokens, stemToken } from "./normalize.ts";

/**
 * Does candidate token `candidate` say what expected token `expected` says? Equal tokens, equal
 * stems ("reads" for "read"), and date tokens whose every part the expected token gives agrees
 * (an expected "May 2023" accepts "7 May 2023").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenMatches } from "./matches.ts";
 * assert.ok(tokenMatches("read", "reading"));
 * assert.ok(tokenMatches("date:2023-05-_", "date:2023-05-07"));
 * assert.ok(!tokenMatches("date:2023-05-07", "date:2023-05-_"));
 * ```
 */
export function tokenMatches(expected: string, candidate: string): boolean {
  if (expected === candidate) return true;
  if (expected.startsWith("date:")) {
    if (!candidate.startsWith("date:")) return false;
    const e = expected.slice(5).split("-");
    const c = candidate.slice(5).split("-");
    return e.every((part, i) => part === "_" || part === c[i]);
  }
  return stemToken(expected) === stemToken(candidate);
}

/**
 * True when the normalized tokens of `answer` occur contiguously in the normalized `text`, token
 * by token under `tokenMatches`. Token boundaries keep "13" from matching "130" and "cat" from
 * matching "category". This is the "does this text state this answer" test the data builders
 * use; the committed-answer judge (`lib/judges/committed_answer.ts`) adds what an answer commits
 * to on top of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesAnswer } from "./matches.ts";
 * assert.ok(matchesAnswer("It was on the 7th of May 2023.", "May 7, 2023"));
 * assert.ok(matchesAnswer("He reads fantasy books.", "Read fantasy books"));
 * assert.ok(!matchesAnswer("She has 13 cats.", "3"));
 * ```
 */
export function matchesAnswer(text: string, answer: string): boolean {
  const want = normalizeTokens(answer);
  if (want.length === 0) return false;
  const have = normalizeTokens(text);
  const wantStems = want.map(stemToken);
  const haveStems = have.map(stemToken);
  const same = (j: number, i: number) =>
    want[j] === have[i] ||
    (want[j].startsWith("date:") ? tokenMatches(want[j], have[i]) : wantStems[j] === haveStems[i]);
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let j = 0; j < want.length; j++) {
      if (!same(j, i + j)) continue outer;
    }
    return true;
  }
  return false;
}
