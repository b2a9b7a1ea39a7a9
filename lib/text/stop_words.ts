/** The kit's one stop-word list: NLTK's English list, kept as data in `stop_words.json`. */
import { z } from "zod";
import stopWordsJson from "./stop_words.json" with { type: "json" };

/**
 * NLTK's English stop words (179, contractions included: "don", "don't"), lower case. The
 * usefulness ranker drops them before it measures redundancy, and the reference agent before it
 * judges whether a record is on the question's topic.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STOP_WORDS } from "./stop_words.ts";
 * assert.equal(STOP_WORDS.size, 179);
 * assert.ok(STOP_WORDS.has("ourselves") && STOP_WORDS.has("don"));
 * assert.ok(!STOP_WORDS.has("pottery"));
 * ```
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  z.object({ words: z.array(z.string().regex(/^[a-z']+$/)).length(179) }).parse(stopWordsJson)
    .words,
);
