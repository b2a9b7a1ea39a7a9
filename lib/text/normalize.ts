/**
 * Answer normalization for the deterministic judge: case, punctuation, articles, number words
 * and number formats, and dates written in several ways all reduce to comparable tokens.
 */
import { MONTH_PATTERN, monthNumber } from "./months.ts";
import { SMALL_NUMBER_WORDS as SMALL, TENS_NUMBER_WORDS as TENS } from "./number_words.ts";

const ARTICLES = new Set(["a", "an", "the"]);

const _month = (name: string): string => String(monthNumber(name)).padStart(2, "0");
const _day = (d: string): string => String(Number(d)).padStart(2, "0");
const _date = (y: string | undefined, m: string | undefined, d: string | undefined): string =>
  ` date:${y ?? "_"}-${m ?? "_"}-${d ?? "_"} `;

/** Rewrite the date spellings the kit meets into `date:YYYY-MM-DD` tokens, `_` for a missing part. */
function _dates(s: string): string {
  const day = "(\\d{1,2})(?:st|nd|rd|th)?";
  return s
    .replace(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, (_, y, m, d) => _date(y, _day(m), _day(d)))
    .replace(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, (_, m, d, y) => _date(y, _day(m), _day(d)))
    .replace(
      new RegExp(`\\b${day}\\s+(?:of\\s+)?${MONTH_PATTERN}\\.?,?\\s+(\\d{4})\\b`, "g"),
      (_, d, m, y) => _date(y, _month(m), _day(d)),
    )
    .replace(
      new RegExp(`\\b${MONTH_PATTERN}\\.?\\s+${day},?\\s+(\\d{4})\\b`, "g"),
      (_, m, d, y) => _date(y, _month(m), _day(d)),
    )
    .replace(
      new RegExp(`\\b${MONTH_PATTERN}\\.?,?\\s+(\\d{4})\\b`, "g"),
      (_, m, y) => _date(y, _month(m), undefined),
    )
    .replace(
      new RegExp(`\\b${day}\\s+(?:of\\s+)?${MONTH_PATTERN}\\b`, "g"),
      (_, d, m) => _date(undefined, _month(m), _day(d)),
    )
    .replace(
      new RegExp(`\\b${MONTH_PATTERN}\\.?\\s+${day}\\b(?!:)`, "g"),
      (_, m, d) => _date(undefined, _month(m), _day(d)),
    );
}

/** Number words ("twenty-five", "seven") to digits. */
function _numberWords(s: string): string {
  return s
    .replace(
      new RegExp(
        `\\b(${Object.keys(TENS).join("|")})[- ](${Object.keys(SMALL).join("|")})\\b`,
        "g",
      ),
      (_, t, u) => String(TENS[t] + SMALL[u]),
    )
    .replace(new RegExp(`\\b(${Object.keys(TENS).join("|")})\\b`, "g"), (_, t) => String(TENS[t]))
    .replace(
      new RegExp(`\\b(${Object.keys(SMALL).join("|")})\\b`, "g"),
      (_, u) => String(SMALL[u]),
    );
}

/**
 * Normalize free text into tokens: lower case, dates as `date:` tokens, number words as digits,
 * thousands separators and trailing `.0` removed, currency symbols and punctuation dropped,
 * `%` spelled "percent", articles removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeTokens } from "./normalize.ts";
 * assert.deepEqual(normalizeTokens("The meeting is on May 7th, 2023!"), ["meeting", "is", "on", "date:2023-05-07"]);
 * assert.deepEqual(normalizeTokens("$1,200.00 and twenty-one"), ["1200", "and", "21"]);
 * ```
 */
export function normalizeTokens(text: string): string[] {
  let s = text.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019]/g, "'");
  s = s.replace(/\b(?:[a-z]\.){2,}/g, (m) => m.replaceAll(".", ""));
  s = _numberWords(s);
  s = _dates(s);
  s = s
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/(\d+)\.0+\b/g, "$1")
    .replace(/%/g, " percent ")
    .replace(/'s\b/g, "")
    .replace(/[^a-z0-9:._\- ]+/g, " ")
    .replace(/(?<![\d_])[.\-]|[.\-](?![\d_])/g, " ");
  return s.split(/\s+/).filter((t) => t !== "" && !ARTICLES.has(t));
}
