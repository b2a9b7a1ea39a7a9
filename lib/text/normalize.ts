/**
 * Answer normalization for the judges and the data builders: case, punctuation, articles, number
 * words and number formats, times, units and dates written in several ways all reduce to
 * comparable tokens. `normalizeWithBreaks` keeps clause punctuation as break tokens for readers
 * that need clause structure (the committed-answer judge); `normalizeTokens` drops it.
 */
import { memo } from "./memo.ts";
import { MONTH_PATTERN, monthNumber } from "./months.ts";
import { SMALL_NUMBER_WORDS as SMALL, TENS_NUMBER_WORDS as TENS } from "./number_words.ts";

const ARTICLES = new Set(["a", "an", "the"]);

/** Prefix of a break token; no other token contains it. */
export const BREAK_PREFIX = "|";

const _BREAK_CODE: Readonly<Record<string, string>> = {
  ",": "c",
  ";": "s",
  "!": "e",
  "?": "q",
  "(": "l",
  ")": "r",
  "[": "l",
  "]": "r",
  ".": "p",
  ":": "o",
  "-": "d",
};
const _BREAK_MARK: Readonly<Record<string, string>> = {
  c: ",",
  s: ";",
  e: "!",
  q: "?",
  l: "(",
  r: ")",
  p: ".",
  o: ":",
  d: "-",
};

const _month = (name: string): string => String(monthNumber(name)).padStart(2, "0");
const _day = (d: string): string => String(Number(d)).padStart(2, "0");
const _date = (y: string | undefined, m: string | undefined, d: string | undefined): string =>
  ` date:${y ?? "_"}-${m ?? "_"}-${d ?? "_"} `;
/** A numeric date with its parts in some order; null when a part is out of range. */
const _numericDate = (y: string, m: string, d: string): string | null =>
  Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= 31
    ? _date(y, _day(m), _day(d))
    : null;

/** Rewrite the date spellings the kit meets into `date:YYYY-MM-DD` tokens, `_` for a missing part. */
function _dates(s: string): string {
  const day = "(\\d{1,2})(?:st|nd|rd|th)?";
  return s
    .replace(/\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/g, (m, y, mo, d) => _numericDate(y, mo, d) ?? m)
    // Month first (US) unless the first part cannot be a month, then day first.
    .replace(
      /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g,
      (m, a, b, y) => (Number(a) > 12 ? _numericDate(y, b, a) : _numericDate(y, a, b)) ?? m,
    )
    // Dots are the day-first (European) convention.
    .replace(/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g, (m, d, mo, y) => _numericDate(y, mo, d) ?? m)
    .replace(
      /\b(\d{4})-(\d{2})\b(?!-\d)/g,
      (m, y, mo) => Number(mo) >= 1 && Number(mo) <= 12 ? _date(y, mo, undefined) : m,
    )
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

const _SCALE: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1e6 };
const _NUMBER_WORD = [...Object.keys(TENS), ...Object.keys(SMALL), ...Object.keys(_SCALE)]
  .join("|");
const _NUMBER_RUN = new RegExp(
  `\\b(?:${_NUMBER_WORD})(?:(?:[\\s-]+|[\\s-]+and[\\s-]+)(?:${_NUMBER_WORD}))*\\b`,
  "g",
);

const _num = (v: number): string => String(Math.round(v * 1e6) / 1e6);

/**
 * The numbers a run of number words spells ("one hundred and twenty" is one, "three five" two).
 * A word that cannot continue the current number starts the next one.
 */
function _spellNumbers(run: string): string {
  const words = run.split(/[\s-]+/);
  const out: string[] = [];
  let total = 0, group = 0, last: "none" | "small" | "tens" | "scale" = "none", pendingAnd = false;
  const flush = () => {
    if (last !== "none") out.push(String(total + group));
    if (pendingAnd) out.push("and");
    total = 0, group = 0, last = "none", pendingAnd = false;
  };
  for (const w of words) {
    if (w === "and") {
      // "and" joins only a scale word to what follows ("one hundred and five").
      if (last === "scale") pendingAnd = true;
      else {
        flush();
        out.push("and");
      }
      continue;
    }
    const small = SMALL[w], tens = TENS[w], scale = _SCALE[w];
    if (small !== undefined) {
      if (last === "small" || (last === "tens" && (small === 0 || small >= 10))) flush();
      group += small, last = "small";
    } else if (tens !== undefined) {
      if (last === "small" || last === "tens") flush();
      group += tens, last = "tens";
    } else {
      if (last === "none") flush();
      if (scale === 100) group = (group || 1) * 100;
      else total += (group || 1) * scale, group = 0;
      last = "scale";
    }
    pendingAnd = false;
  }
  flush();
  return ` ${out.join(" ")} `;
}

/**
 * Number words ("twenty-five", "a hundred and twenty", "two and a half") to digits. "Dozen" is
 * left alone: a question may count in dozens ("How many dozen eggs?").
 */
function _numberWords(s: string): string {
  return s
    // Fractions of an hour and "an hour and a half" before the words are read as numbers.
    .replace(/\bhalf an hour\b/g, "30 minutes")
    .replace(/\bthree quarters of an hour\b/g, "45 minutes")
    .replace(/\b(?:a |one )?quarter of an hour\b/g, "15 minutes")
    .replace(/\b(?:an?|one|1) (hour|day|week|month|year) and a half\b/g, "1.5 $1s")
    .replace(/\ba (hundred|thousand|million)\b/g, "one $1")
    .replace(_NUMBER_RUN, _spellNumbers)
    .replace(/\b(\d+)\s+and\s+(?:a\s+)?half\b/g, (_, n) => `${n}.5`)
    .replace(/\btwice\b/g, "2 times")
    .replace(/\bthrice\b/g, "3 times");
}

const _UNITS: Readonly<Record<string, string>> = {
  hr: "hours",
  hrs: "hours",
  min: "minutes",
  mins: "minutes",
  sec: "seconds",
  secs: "seconds",
  yr: "years",
  yrs: "years",
  wk: "weeks",
  wks: "weeks",
  km: "kilometers",
  kms: "kilometers",
  mi: "miles",
  lb: "pounds",
  lbs: "pounds",
};

/** Number formats: separators, magnitude suffixes, trailing zeros, times, units, percent. */
function _numberFormats(s: string): string {
  return s
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(
      /\b(\d+(?:\.\d+)?) ?(hundred|thousand|million)\b/g,
      (_, n, w) => _num(Number(n) * _SCALE[w]),
    )
    // "$1.2k", "1.5k"; a bare "5k" (a 5K run, a 4K screen) is left to readers that want it.
    .replace(/\$ ?(\d+(?:\.\d+)?) ?k\b/g, (_, n) => `$${_num(Number(n) * 1000)}`)
    .replace(/\b(\d+\.\d+) ?k\b/g, (_, n) => _num(Number(n) * 1000))
    .replace(/(\d+)\.0+\b/g, "$1")
    // Glued am/pm, 24-hour afternoon times, then ":00".
    .replace(/(\d)(am|pm)\b/g, "$1 $2")
    .replace(/\b(1[3-9]|2[0-3]):([0-5]\d)\b/g, (_, h, m) => `${Number(h) - 12}:${m} pm`)
    .replace(/\b(\d{1,2}):00\b/g, "$1")
    .replace(
      new RegExp(`(\\d)[ -]?(${Object.keys(_UNITS).join("|")})\\b`, "g"),
      (_, d, u) => `${d} ${_UNITS[u]}`,
    )
    .replace(/%/g, " percent ")
    .replace(/\bper cent\b/g, "percent");
}

/**
 * Normalize free text into tokens, keeping clause punctuation as break tokens (`|,` `|.` `|?`
 * `|!` `|;` `|:` `|(` `|)` `|-`): lower case, dates as `date:` tokens, number words as digits,
 * thousands separators, `k` and `M` suffixes on amounts ("$1.2k", "1.5M"), trailing `.0`, 24-hour and `:00` times, unit
 * abbreviations (hrs, mins, mi, ...) and `%` rewritten, currency symbols dropped, articles removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeWithBreaks } from "./normalize.ts";
 * assert.deepEqual(normalizeWithBreaks("Denver, not Vancouver."), ["denver", "|,", "not", "vancouver", "|."]);
 * assert.deepEqual(normalizeWithBreaks("$1.2k (5 hrs)"), ["1200", "|(", "5", "hours", "|)"]);
 * ```
 */
export function normalizeWithBreaks(text: string): string[] {
  // A copy: callers own the array they get, the memo keeps its own.
  return _normalized(text).slice();
}

function _normalizeWithBreaks(text: string): string[] {
  let s = text
    .replaceAll(BREAK_PREFIX, " ")
    .replace(/(\d) ?½/g, "$1.5").replace(/½/g, "0.5")
    .replace(/(\d) ?¼/g, "$1.25").replace(/(\d) ?¾/g, "$1.75")
    .normalize("NFKC")
    // "$2M", "1.5M" are millions; lower-case m is metres or minutes, and "3M" may be a name.
    .replace(/\$ ?(\d+(?:\.\d+)?) ?M\b/g, (_, n) => `$${_num(Number(n) * 1e6)}`)
    .replace(/\b(\d+\.\d+) ?M\b/g, (_, n) => _num(Number(n) * 1e6))
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u2013\u2014]/g, " - ");
  s = s.replace(/\b(?:[a-z]\.){2,}/g, (m) => m.replaceAll(".", ""));
  // A title's period ends no sentence ("Dr. Osei").
  s = s.replace(/\b(dr|mr|mrs|ms|prof|st|jr|sr|vs|approx)\./g, "$1");
  s = s.replace(new RegExp(`(\\d)(?=${MONTH_PATTERN}\\b)`, "g"), "$1 ");
  s = _numberWords(s);
  s = _dates(s);
  s = _numberFormats(s);
  s = s
    .replace(/'s\b/g, "")
    // Clause punctuation becomes break tokens (coded by a letter until the other punctuation is
    // gone); "." and ":" only outside numbers and date tokens.
    .replace(/[,;!?()[\]]/g, (p) => ` ${BREAK_PREFIX}${_BREAK_CODE[p]} `)
    // A period ends a sentence only before a space or the end ("April.2023" is one date).
    .replace(/\.(?=\s|$|["')\]])/g, ` ${BREAK_PREFIX}${_BREAK_CODE["."]} `)
    .replace(/(?<![\d_])\.|\.(?![\d_])/g, " ")
    .replace(/(?<!\d|\bdate):|:(?!\d|_)/g, ` ${BREAK_PREFIX}${_BREAK_CODE[":"]} `)
    .replace(/(?:^|\s)-+(?=\s|$)/g, ` ${BREAK_PREFIX}${_BREAK_CODE["-"]} `)
    .replace(/[^a-z0-9:._\-| ]+/g, " ")
    .replace(/(?<![\d_])-|-(?![\d_])/g, " ");
  const tokens = s.split(/\s+/)
    .filter((t) => t !== "" && !ARTICLES.has(t))
    .map((t) => t.startsWith(BREAK_PREFIX) ? BREAK_PREFIX + _BREAK_MARK[t.slice(1)] : t);
  // Collapse runs of breaks ("." then ")" and the like) to their first member.
  return tokens.filter((t, i) => !(t.startsWith(BREAK_PREFIX) && tokens[i - 1] === t));
}

// The builders normalize the same texts for every instance (each bank record against each
// answer and target, each answer against every like question): once per distinct text.
const _normalized = memo(_normalizeWithBreaks, { size: 50_000 });

/**
 * Normalize free text into tokens (see `normalizeWithBreaks`), without break tokens.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeTokens } from "./normalize.ts";
 * assert.deepEqual(normalizeTokens("The meeting is on May 7th, 2023!"), ["meeting", "is", "on", "date:2023-05-07"]);
 * assert.deepEqual(normalizeTokens("$1,200.00 and twenty-one"), ["1200", "and", "21"]);
 * assert.deepEqual(normalizeTokens("two and a half hrs"), ["2.5", "hours"]);
 * ```
 */
export function normalizeTokens(text: string): string[] {
  return _normalized(text).filter((t) => !t.startsWith(BREAK_PREFIX));
}

/**
 * A light stem for inflection-blind comparison: plural and verb endings (-s, -es, -ies, -ed,
 * -ing), a final e and a doubled final consonant are removed and a final y becomes i from alphabetic tokens of four
 * letters or more, so "read", "reads" and "reading" (or "hike", "hiked", "hiking") share a stem.
 * Stems are compared, never shown; other tokens are returned unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stemToken } from "./normalize.ts";
 * assert.equal(stemToken("reads"), stemToken("reading"));
 * assert.equal(stemToken("swimming"), stemToken("swim"));
 * assert.notEqual(stemToken("cat"), stemToken("category"));
 * ```
 */
export function stemToken(token: string): string {
  if (token.length < 4 || !/^[a-z]+$/.test(token)) return token;
  let t = token;
  const cut = (suffix: string, replace = "") => {
    if (t.endsWith(suffix) && t.length - suffix.length >= 3) {
      t = t.slice(0, t.length - suffix.length) + replace;
      return true;
    }
    return false;
  };
  // Order matters: the longest ending that applies is removed, and only one.
  void (cut("ies", "i") || cut("ied", "i") || cut("ing") || cut("ed") ||
    (/(?:s|x|z|ch|sh)es$/.test(t) && cut("es")) || (!/(?:ss|us|is)$/.test(t) && cut("s")));
  // Final y and e are dropped or folded so "city"/"cities" and "collie"/"collies" meet.
  if (t.length >= 4 && t.endsWith("y")) t = `${t.slice(0, -1)}i`;
  if (t.length >= 4 && t.endsWith("e")) t = t.slice(0, -1);
  if (t.length >= 4 && /([b-df-hj-np-tv-z])\1$/.test(t)) t = t.slice(0, -1);
  return t;
}
