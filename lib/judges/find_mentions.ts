/**
 * Where an output mentions an answer: every occurrence of every item of every variant, as token
 * spans of the judge's tokens. Tokens compare under `tokenMatches` (stems, partial dates), person
 * swaps ("your" for "my") and a date that leaves out the year.
 */
import { BREAK_PREFIX, stemToken } from "../text/normalize.ts";
import { tokenMatches } from "../text/matches.ts";
import type { AnswerVariant } from "./answer_variants.ts";
import { isLightToken } from "./answer_variants.ts";
import { COMMITMENT_CUES } from "./commitment_cues.ts";

/** One occurrence of one item of one variant: tokens `[start, end)` of the output. */
export interface Mention {
  /** Index of the variant in the list searched. */
  variant: number;
  /** Index of the item in that variant. */
  item: number;
  start: number;
  end: number;
}

const SENTENCE_END = new Set([
  `${BREAK_PREFIX}.`,
  `${BREAK_PREFIX}?`,
  `${BREAK_PREFIX}!`,
  `${BREAK_PREFIX};`,
]);

/** A date that leaves out the year still states the day and month it gives. */
function _dateWithoutYear(expected: string, candidate: string): boolean {
  if (!expected.startsWith("date:") || !candidate.startsWith("date:")) return false;
  const [ey, em, ed] = expected.slice(5).split("-");
  const [cy, cm, cd] = candidate.slice(5).split("-");
  return ey !== "_" && cy === "_" && em !== "_" && ed !== "_" && em === cm && ed === cd;
}

/**
 * Does the output token say what the answer token says (see the module header)?
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeTokenMatches } from "./find_mentions.ts";
 * assert.ok(judgeTokenMatches("my", "your"));
 * assert.ok(judgeTokenMatches("date:2025-03-14", "date:_-03-14"));
 * assert.ok(!judgeTokenMatches("date:2025-03-14", "date:2025-03-_"));
 * ```
 */
export function judgeTokenMatches(expected: string, candidate: string): boolean {
  return tokenMatches(expected, candidate) ||
    (COMMITMENT_CUES.swaps.get(expected)?.has(candidate) ?? false) ||
    _dateWithoutYear(expected, candidate);
}

/**
 * Every mention of the variants in `tokens` (the output's judge tokens). Light words and breaks
 * other than sentence ends may sit between the matched tokens; a name-part variant counts only
 * where `text` (the raw output) writes the part capitalised.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findMentions } from "./find_mentions.ts";
 * import { answerTokens } from "./answer_tokens.ts";
 * const tokens = answerTokens("Brazil and Thailand.");
 * const variants = [{ items: [["thailand"], ["brazil"]], ordered: false }];
 * assert.deepEqual(findMentions({ tokens, text: "", variants }).map((m) => [m.item, m.start]), [[0, 2], [1, 0]]);
 * ```
 */
export function findMentions(options: {
  /** The output's judge tokens (`answerTokens`). */
  tokens: string[];
  /** The raw output (for the capitalisation of name parts). */
  text: string;
  /** The variants to look for. */
  variants: AnswerVariant[];
}): Mention[] {
  const { tokens, text, variants } = options;
  // Content positions: the tokens matching compares, with sentence ends between them noted.
  const positions: number[] = [];
  const sentence: number[] = [];
  let s = 0;
  tokens.forEach((t, i) => {
    if (SENTENCE_END.has(t)) s++;
    else if (!t.startsWith(BREAK_PREFIX) && !isLightToken(t)) {
      positions.push(i);
      sentence.push(s);
    }
  });
  const stems = positions.map((i) => stemToken(tokens[i]));
  const same = (want: string, p: number) => {
    const have = tokens[positions[p]];
    return want === have || stemToken(want) === stems[p] || judgeTokenMatches(want, have);
  };
  const out: Mention[] = [];
  variants.forEach((v, variant) => {
    if (
      v.capitalized &&
      !new RegExp(`(?<![\\p{L}])${_escape(v.capitalized)}(?![\\p{L}])`, "u").test(text)
    ) {
      return;
    }
    v.items.forEach((item, itemIndex) => {
      outer: for (let p = 0; p + item.length <= positions.length; p++) {
        for (let j = 0; j < item.length; j++) {
          if (!same(item[j], p + j) || sentence[p + j] !== sentence[p]) continue outer;
        }
        out.push({
          variant,
          item: itemIndex,
          start: positions[p],
          end: positions[p + item.length - 1] + 1,
        });
      }
    });
  });
  return out;
}

function _escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
