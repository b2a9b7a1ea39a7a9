/**
 * Tokens of an answer as the committed-answer judge reads them: `normalizeWithBreaks` after a few
 * rewrites that matter for commitment but not for the data builders' matching (contractions,
 * ordinal words, slashes between words, numeric ranges).
 */
import { MONTH_PATTERN } from "../text/months.ts";
import { normalizeWithBreaks } from "../text/normalize.ts";
import { SMALL_NUMBER_WORDS as SMALL, TENS_NUMBER_WORDS as TENS } from "../text/number_words.ts";

const _IRREGULAR: Readonly<Record<string, string>> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

/** "four" -> "fourth", "twenty" -> "twentieth". */
const _ordinalWord = (w: string): string =>
  _IRREGULAR[w] ?? (w.endsWith("y") ? `${w.slice(0, -1)}ieth` : `${w}th`);

const _suffix = (n: number): string =>
  n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";

/** Ordinal word -> value, without "second" (also a unit of time; see `_ordinals`). */
const _ORDINALS = new Map<string, number>(
  [...Object.entries(SMALL), ...Object.entries(TENS)]
    .filter(([w]) => w !== "zero" && w !== "two")
    .map(([w, n]) => [_ordinalWord(w), n]),
);
const _UNITS_ORD = [..._ORDINALS.entries()].filter(([, n]) => n < 10).map(([w]) => w);
const _ORD_PATTERN = [..._ORDINALS.keys()].join("|");

/** Ordinal words to "1st", "21st", ...; "second" only where it cannot be a unit of time. */
function _ordinals(s: string): string {
  const tens = Object.keys(TENS).join("|");
  return s
    .replace(
      new RegExp(`\\b(${tens})[- ](${[..._UNITS_ORD, "second"].join("|")})\\b`, "gi"),
      (_, t: string, u: string) => {
        const n = TENS[t.toLowerCase()] +
          (u.toLowerCase() === "second" ? 2 : _ORDINALS.get(u.toLowerCase())!);
        return `${n}${_suffix(n)}`;
      },
    )
    .replace(
      new RegExp(`\\b(the|his|her|their|my|your|its|our)\\s+second\\b`, "gi"),
      "$1 2nd",
    )
    .replace(new RegExp(`\\b${MONTH_PATTERN}\\.?\\s+second\\b`, "gi"), "$1 2nd")
    .replace(/\bsecond\s+of\b/gi, "2nd of")
    .replace(new RegExp(`\\b(${_ORD_PATTERN})\\b`, "gi"), (w: string) => {
      const n = _ORDINALS.get(w.toLowerCase())!;
      return `${n}${_suffix(n)}`;
    });
}

/**
 * The judge's tokens of a text (see `normalizeWithBreaks`), after expanding contractions
 * ("isn't" -> "is not"), ordinal words ("third" -> "3rd"), slashes between words ("X/Y" ->
 * "X or Y"), a bare "25k", "a year" as "1 year", and numeric ranges ("3-5" -> "3 to 5").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerTokens } from "./answer_tokens.ts";
 * assert.deepEqual(answerTokens("It isn't the third."), ["it", "is", "not", "3rd", "|."]);
 * assert.deepEqual(answerTokens("Denver/Vancouver, 3-5"), ["denver", "or", "vancouver", "|,", "3", "to", "5"]);
 * ```
 */
export function answerTokens(text: string): string[] {
  const s = text
    .replace(/\bcannot\b/gi, "can not")
    .replace(/\bcan['\u2019]t\b/gi, "can not")
    .replace(/\bwon['\u2019]t\b/gi, "will not")
    .replace(/n['\u2019]t\b/gi, " not")
    .replace(/\b([A-Za-z]{2,})\/([A-Za-z]{2,})\b/g, "$1 or $2")
    // A bare "25k" is 25000 here (both sides are read alike); the data builders keep "5k" whole.
    .replace(/\b(\d+(?:\.\d+)?) ?[kK]\b/g, (_, n) => String(Math.round(Number(n) * 1000)))
    // "for a year" states one year (not after "once", "per" and the like: "once a week").
    .replace(
      /(?<!\b(?:once|twice|thrice|times|per|every|a|an|of|half)\s)\b(?:a|an)\s+(minute|hour|day|week|month|year|decade)\b/gi,
      "1 $1",
    )
    .replace(
      /(?<![\d.,:/\-])(\d{1,3}(?:\.\d+)?) ?[-\u2013] ?(\d{1,3}(?:\.\d+)?)(?![\d.,:/\-])/g,
      "$1 to $2",
    );
  return normalizeWithBreaks(_ordinals(s));
}
