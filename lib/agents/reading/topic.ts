/**
 * Topical similarity as the reference agent judges it: the share of the question's content words
 * that a text also uses. Attention (similar records compete) and near-miss distractors (a similar
 * record can be mistaken for the answer) both read it.
 */
import { z } from "zod";
import { memo } from "../../text/memo.ts";
import { STOP_WORDS } from "../../text/stop_words.ts";
import fillerWordsJson from "./topic_filler_words.json" with { type: "json" };

// NLTK's stop words and the chat's fillers. NLTK's contraction stems ("don", "won") were not in
// the agent's list before the kit had one list; adding them changed no row on the demo set, LoCoMo
// or LongMemEval (every stage, both rankers), so the agent's reading is as calibrated.
const _STOP = new Set([
  ...STOP_WORDS,
  ...z.object({ words: z.array(z.string().min(1)) }).parse(fillerWordsJson).words,
]);

/**
 * A record is on the question's topic when it shares at least this share of the question's
 * content words. One in three: a record that shares a name alone with a five-word question
 * ("Calvin") is not yet about it; one that also shares the activity ("Calvin", "tour") is.
 */
export const TOPICAL_SHARE = 1 / 3;

/** Crude stem so "gifts"/"gift" and "traveled"/"travel" meet; never below three letters. */
function _stem(word: string): string {
  for (const suffix of ["ing", "ed", "s"]) {
    if (
      word.endsWith(suffix) && word.length - suffix.length >= 3 &&
      !(suffix === "s" && word.endsWith("ss"))
    ) {
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}

/**
 * The content words of a text: lower case, without bracketed scaffolding (`[user]`, date stamps
 * such as `[8 May 2023]`), stop words and words under three letters, crudely stemmed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentWords } from "./topic.ts";
 * assert.deepEqual([...contentWords("[8 May 2023] When did Ann adopt her cats?")], ["ann", "adopt", "cat"]);
 * ```
 */
export function contentWords(text: string): ReadonlySet<string> {
  return _contentWords(text);
}

const _contentWords = memo((text: string): ReadonlySet<string> => {
  const words = text.replace(/\[[^\]]*\]/g, " ").toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return new Set(words.filter((w) => w.length >= 3 && !_STOP.has(w)).map(_stem));
});

/**
 * The share of the question's content words that `text` contains (0 when the question has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentWords, topicalShare } from "./topic.ts";
 * const question = contentWords("When did Ann adopt her cats?");
 * assert.equal(topicalShare({ question, text: "Ann adopted two cats in May." }), 1);
 * assert.equal(topicalShare({ question, text: "The weather was fine." }), 0);
 * ```
 */
export function topicalShare(options: {
  /** The question's content words (`contentWords(query)`). */
  question: ReadonlySet<string>;
  /** The text to compare. */
  text: string;
}): number {
  const { question } = options;
  if (question.size === 0) return 0;
  const words = contentWords(options.text);
  let shared = 0;
  for (const w of question) if (words.has(w)) shared++;
  return shared / question.size;
}
