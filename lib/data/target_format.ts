/**
 * A target written the way y* is written, and well formed: number words stay number words,
 * digits stay digits, quotes and a leading capital are kept, the date is spelled in y*'s style,
 * and a target never hedges, offers alternatives, asks or trails off.
 */
import { MONTH_PATTERN } from "../text/months.ts";
import { SMALL_NUMBER_WORDS, TENS_NUMBER_WORDS } from "../text/number_words.ts";

const _WORD_VALUE: Readonly<Record<string, number>> = {
  ...SMALL_NUMBER_WORDS,
  ...TENS_NUMBER_WORDS,
};
const _WORD = new RegExp(
  `\\b(?:(?:${Object.keys(TENS_NUMBER_WORDS).join("|")})(?:-(?:${
    Object.keys(SMALL_NUMBER_WORDS).filter((w) =>
      SMALL_NUMBER_WORDS[w] >= 1 && SMALL_NUMBER_WORDS[w] <= 9
    )
      .join("|")
  }))?|${Object.keys(SMALL_NUMBER_WORDS).join("|")})\\b`,
  "i",
);
const _DIGITS = /(?<![\d.,:$])\b\d{1,2}\b(?![\d:.,]\d|%|\s*(?:am|pm|st|nd|rd|th)\b)/i;

/** The value of a number word ("seven", "twenty-one"), or null. */
export function _wordValue(word: string): number | null {
  const [a, b] = word.toLowerCase().split("-");
  if (!(a in _WORD_VALUE)) return null;
  return _WORD_VALUE[a] + (b === undefined ? 0 : b in _WORD_VALUE ? _WORD_VALUE[b] : NaN);
}

/**
 * A whole number from 0 to 99 spelled in words, capitalised like `like` ("Four" -> "Seven");
 * null outside that range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spellNumber } from "./target_format.ts";
 * assert.equal(spellNumber(7, "nine"), "seven");
 * assert.equal(spellNumber(21, "Four"), "Twenty-one");
 * assert.equal(spellNumber(120, "nine"), null);
 * ```
 */
export function spellNumber(value: number, like: string): string | null {
  if (!Number.isInteger(value) || value < 0 || value > 99) return null;
  const small = Object.entries(SMALL_NUMBER_WORDS).find(([, v]) => v === value)?.[0];
  const tens = Object.entries(TENS_NUMBER_WORDS).find(([, v]) => v === value - (value % 10))?.[0];
  const unit = Object.entries(SMALL_NUMBER_WORDS).find(([, v]) => v === value % 10)?.[0];
  const word = small ?? (value % 10 === 0 ? tens! : `${tens}-${unit}`);
  if (/^[A-Z]{2,}/.test(like)) return word.toUpperCase();
  return /^[A-Z]/.test(like) ? word[0].toUpperCase() + word.slice(1) : word;
}

/** How the first number of a text is written: "word", "digits", or null (none). */
function _numberStyle(text: string): "word" | "digits" | null {
  const w = _WORD.exec(text), d = /\d/.exec(text);
  if (w === null && d === null) return null;
  if (w === null) return "digits";
  if (d === null) return "word";
  return w.index < d.index ? "word" : "digits";
}

const _MONTH = new RegExp(`\\b${MONTH_PATTERN}\\b`, "gi");

/** The shape of a date spelling: digits as #, month names as M ("5 July 2023" -> "# M #"). */
function _dateShape(text: string): string {
  return text.replace(_MONTH, "M").replace(/\d+(st|nd|rd|th)/g, "#o").replace(/\d+/g, "#")
    .replace(/\b(?![M#]\b)[a-z]+/gi, "w").replace(/\s+/g, " ");
}

const _QUOTES = /^(["'“‘])(.*)(["'”’])$/s;
// Words that start an answer without being names, so their capital is the sentence's.
const _SENTENCE_START =
  /^(?:The|A|An|His|Her|Their|My|Our|Your|Its|In|At|On|To|From|By|With|For|About|Some|Several|Many|One|Two|Three|Four|Five|\w+ing|\w+ed|\w+ly)\b/;

/**
 * `target` restyled like `answer`: its first number spelled as y* spells its first number (words
 * for words up to 99, digits for digits), y*'s quotes kept or removed, y*'s indefinite article
 * given to a sentence-case phrase that has none, a sentence capital added or (for a common
 * first word) removed as y* has it, a trailing period dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keepFormat } from "./target_format.ts";
 * assert.equal(keepFormat({ answer: "nine months", target: "6 months" }), "six months");
 * assert.equal(keepFormat({ answer: "Four years", target: "8 years" }), "Eight years");
 * assert.equal(keepFormat({ answer: "3 days", target: "five days" }), "5 days");
 * assert.equal(keepFormat({ answer: "a gaming night", target: "The charity gala." }), "the charity gala");
 * assert.equal(keepFormat({ answer: "'Sleep'", target: "Rain" }), "'Rain'");
 * assert.equal(keepFormat({ answer: "an electrical project", target: "Robotics project" }), "a robotics project");
 * ```
 */
export function keepFormat(options: { answer: string; target: string }): string {
  const { answer } = options;
  let target = options.target.trim().replace(/(?<![A-Z]\.[A-Z])\.$/, "").trim();
  const want = _numberStyle(answer), have = _numberStyle(target);
  // Only answers of the same length are restyled: "one" in a longer phrase ("one of the best")
  // is seldom a count.
  const sameLength = answer.split(/\s+/).length === target.split(/\s+/).length;
  if (want === "word" && have === "digits") {
    const m = _DIGITS.exec(target);
    const spelled = m === null ? null : spellNumber(Number(m[0]), _WORD.exec(answer)![0]);
    if (m !== null && spelled !== null) {
      const shown = m.index === 0 ? spelled : spelled.toLowerCase();
      target = target.slice(0, m.index) + shown + target.slice(m.index + m[0].length);
    }
  } else if (want === "digits" && have === "word" && sameLength) {
    const m = _WORD.exec(target)!;
    const value = _wordValue(m[0]);
    if (value !== null && Number.isFinite(value)) {
      target = target.slice(0, m.index) + String(value) + target.slice(m.index + m[0].length);
    }
  }
  const quoted = _QUOTES.exec(answer), tq = _QUOTES.exec(target);
  if (quoted !== null && tq === null) target = `${quoted[1]}${target}${quoted[3]}`;
  // y* that opens with a quoted title ("'Dune' by Frank Herbert") keeps a quoted target quoted.
  else if (quoted === null && tq !== null && !/^["'“‘]/.test(answer)) target = tq[2];
  // "an electrical project" and "Robotics project": the target takes y*'s indefinite article.
  // ("A few times a week" has a quantity, not an article.)
  const article = /^(a|an|A|An) (?!(?:few|lot|little|couple|bit|number)\b)[a-z]/.exec(answer);
  if (
    article !== null && /^[A-Z][a-z-]+(?: [a-z][a-z-]*)+$/.test(target) &&
    !/^(?:The|A|An|His|Her|Their|My|Our|Your|Its|Some|This|That|Multiple|Several|Many|Few|Most|All|Each|Every|More|Less|Once|Twice)\b/
      .test(target)
  ) {
    const lower = target[0].toLowerCase() + target.slice(1);
    const a = /^[aeiou]/.test(lower) ? "an" : "a";
    target = `${/^A/.test(article[1]) ? a[0].toUpperCase() + a.slice(1) : a} ${lower}`;
  }
  const upper = /^[A-Z]/.test(answer.replace(/^["'“‘]/, ""));
  const lower = /^[a-z]/.test(answer.replace(/^["'“‘]/, ""));
  const open = /^["'“‘]/.exec(target)?.[0] ?? "";
  const body = target.slice(open.length);
  if (upper && /^[a-z]/.test(body)) target = open + body[0].toUpperCase() + body.slice(1);
  else if (lower && _SENTENCE_START.test(body) && !/^[A-Z]{2}/.test(body)) {
    target = open + body[0].toLowerCase() + body.slice(1);
  }
  return target;
}

/**
 * Why `target` gives the edit away by its format, or null: y* spells its number in words and the
 * target in digits (or the reverse), or both are dates spelled differently ("5 July 2023" and
 * "July 21, 2023"), or one is quoted and the other not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatProblem } from "./target_format.ts";
 * assert.equal(formatProblem({ answer: "nine", target: "7" }), "target writes its number in digits, y* in words");
 * assert.equal(formatProblem({ answer: "5 July 2023", target: "July 21, 2023" }), "target spells its date differently from y*");
 * assert.equal(formatProblem({ answer: "nine", target: "seven" }), null);
 * ```
 */
export function formatProblem(options: { answer: string; target: string }): string | null {
  const { answer, target } = options;
  const a = _numberStyle(answer), t = _numberStyle(target);
  if (a === "word" && t === "digits") return "target writes its number in digits, y* in words";
  if (a === "digits" && t === "word") return "target writes its number in words, y* in digits";
  const dated = (x: string) => new RegExp(`\\b${MONTH_PATTERN}\\b`, "i").test(x) && /\d/.test(x);
  if (dated(answer) && dated(target) && _dateShape(answer) !== _dateShape(target)) {
    return "target spells its date differently from y*";
  }
  if (_QUOTES.test(answer) !== _QUOTES.test(target)) return "target quoted differently from y*";
  return null;
}

const _HEDGE =
  /^(?:most likely|more likely|likely|probably|presumably|possibly|perhaps|maybe|i think|i guess|not sure|unclear)\b|\b(?:probably|presumably|most likely|perhaps)\b/i;

/**
 * Why `target` is not a well-formed answer, or null: empty or a template slip ("NaN",
 * "undefined"), a hedge ("Most likely ...", "probably"), alternatives ("X or Y"), a question
 * mark, a fragment (opening with a conjunction, ending on an article, preposition or
 * conjunction), unbalanced quotes or brackets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wellFormedProblem } from "./target_format.ts";
 * assert.equal(wellFormedProblem({ target: "Most likely Josh's partner" }), "target hedges");
 * assert.equal(wellFormedProblem({ target: "Low-income or comfortable" }), "target offers alternatives");
 * assert.equal(wellFormedProblem({ target: "Josh's partner" }), null);
 * ```
 */
export function wellFormedProblem(options: { target: string }): string | null {
  const t = options.target.trim();
  if (t === "" || /\bNaN\b|\bundefined\b|\{\w+\}/.test(t)) return "malformed target";
  if (_HEDGE.test(t)) return "target hedges";
  if (/\bor\b|\beither\b|\/(?!\d)/i.test(t.replace(/\([^)]*\)/g, ""))) {
    return "target offers alternatives";
  }
  if (t.includes("?")) return "target asks a question";
  if (/^(?:and|or|but|so|then)\b/i.test(t)) return "target is a fragment";
  if (/\b(?:a|an|the|to|of|for|with|and|or|but|in|on|at|by|from|my|his|her|their)$/i.test(t)) {
    return "target is a fragment";
  }
  const count = (re: RegExp) => (t.match(re) ?? []).length;
  if (count(/\(/g) !== count(/\)/g) || count(/"/g) % 2 === 1 || count(/[“”]/g) % 2 === 1) {
    return "target has unbalanced quotes or brackets";
  }
  return null;
}
