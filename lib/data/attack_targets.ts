/** Type-aware attacker targets y_adv: shifted dates, changed numbers, swapped entities, outdated values. */
import { MONTH_NAMES, MONTH_PATTERN, monthNumber } from "../text/months.ts";
import { SMALL_NUMBER_WORDS, TENS_NUMBER_WORDS } from "../text/number_words.ts";
import type { Prng } from "../random/prng.ts";
import { shuffle } from "../random/shuffle.ts";
import { contentWords } from "./_text.ts";
import { type AnswerKind, answerKindOf, choiceOf } from "./answer_kind.ts";
import type { SwapCandidate } from "./question_source.ts";
import { questionHead } from "./question_head.ts";
import {
  inferAnswerType,
  listItems,
  slotSwaps,
  TYPED_LEXICON,
  typedSwaps,
} from "./typed_lexicon.ts";
import { normalizeTokens } from "../text/normalize.ts";
import { phraseShape } from "./phrase_shape.ts";
import { matchesAnswer } from "../text/matches.ts";
import { formatProblem, keepFormat, spellNumber, wellFormedProblem } from "./target_format.ts";
import { evidenceProblem } from "./target_support.ts";
import { type TargetTimeline, timelineProblem } from "./target_timeline.ts";
import { dateSpan } from "./date_span.ts";

export type { TargetTimeline } from "./target_timeline.ts";

/** How a target was made. */
export type TargetKind =
  | "outdated"
  | "date-shift"
  | "number-change"
  | "color-swap"
  | "typed-swap"
  | "reorder"
  | "antonym-swap"
  | "answer-swap"
  | "entity-swap"
  | "slot-swap"
  | "choice-swap";

/** One candidate target. */
export interface TargetCandidate {
  target: string;
  kind: TargetKind;
}

/** Options for {@link attackTargets}. */
export interface AttackTargetsOptions {
  /** Gold answer y*. */
  answer: string;
  /** The question asked, for typing the answer (see `inferAnswerType`); default "" (type from the answer alone). */
  question?: string;
  /** Its kind (see `answerKindOf`). */
  kind: AnswerKind;
  /**
   * Other questions of the same conversation or type with their answers, most similar question
   * first; an answer is used only when its question asks for the same kind of thing (see
   * `questionHead`); default none.
   */
  sameKindAnswers?: SwapCandidate[];
  /** Names of people from the same conversation (speakers, "my friend Ines"); default none. */
  people?: string[];
  /** Outdated values (knowledge updates), tried first; default none. */
  outdated?: string[];
  /**
   * Where the helpful trace sits in time (its evidence session dates, the query's date): date
   * targets on the other side of an evidence session than y*, or after the query, are dropped
   * (see `timelineProblem`); default none (no timeline check).
   */
  timeline?: TargetTimeline;
  /**
   * The helpful evidence's text: targets whose changed part it states are dropped (see
   * `evidenceProblem`); default none (no check).
   */
  evidenceText?: string;
  /** Generator ordering the alternatives. */
  prng: Prng;
}

const COLORS = [
  "red",
  "blue",
  "green",
  "yellow",
  "purple",
  "orange",
  "pink",
  "black",
  "white",
  "brown",
  "gray",
  "silver",
  "gold",
];
// Number words the target builder changes: one to twelve, fifteen, twenty and thirty, the counts
// that benchmark answers spell out ("two weeks", "fifteen minutes").
const WORD_NUMBERS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries({ ...SMALL_NUMBER_WORDS, ...TENS_NUMBER_WORDS }).filter(([w, n]) =>
    (n >= 1 && n <= 12) || ["fifteen", "twenty", "thirty"].includes(w)
  ),
);

const _monthIndex = (name: string): number => monthNumber(name) - 1;

function _shiftDays(y: number, m: number, d: number, days: number): Date {
  return new Date(Date.UTC(y, m, d + days));
}

/** "st", "nd", "rd" or "th" for a day of the month. */
function _ordinal(day: number): string {
  if (day >= 11 && day <= 13) return "th";
  return ["th", "st", "nd", "rd"][day % 10] ?? "th";
}

/** A month's name spelled like `like`: full, or a three-letter abbreviation ("Sept" -> "Oct"). */
function _month(day: Date, like: string): string {
  const name = MONTH_NAMES[day.getUTCMonth()];
  const full = MONTH_NAMES.some((n) => n.toLowerCase() === like.toLowerCase());
  const shown = full ? name : name.slice(0, 3);
  return /^[a-z]/.test(like) ? shown.toLowerCase() : shown;
}

/** Date shifts of the first date in `answer`, in the answer's own spelling. */
function _dateShifts(answer: string, prng: Prng): string[] {
  // "The Sunday before 14 March" or "the week before ..." names a week: move by whole weeks.
  const weekly = /\b(?:week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b/i
    .test(answer);
  const dayShifts = shuffle(
    weekly ? [-21, -14, -7, 7, 14, 21] : [-21, -14, -7, -3, -2, 2, 3, 7, 14, 21],
    {
      prng,
    },
  );
  const monthShifts = shuffle([-3, -2, -1, 1, 2, 3], { prng });
  const yearShifts = shuffle([-2, -1, 1, 2], { prng });
  // Benchmarks glue parts together ("3June, 2022", "April.2023") and give ranges ("5-6").
  const dmy = new RegExp(
    `\\b(\\d{1,2})(st|nd|rd|th)?(\\s*(?:of\\s+)?)${MONTH_PATTERN}([.,]?,?\\s*)(\\d{4})\\b`,
    "i",
  );
  const mdy = new RegExp(
    `\\b${MONTH_PATTERN}(\\.?\\s*)(\\d{1,2})(st|nd|rd|th)?(?:-(\\d{1,2}))?(,?\\s+)(\\d{4})\\b`,
    "i",
  );
  const iso = /\b(\d{4})([-/])(\d{1,2})[-/](\d{1,2})\b/;
  const my = new RegExp(`\\b${MONTH_PATTERN}([.,]?,?\\s*)(\\d{4})\\b`, "i");
  const md = new RegExp(`\\b${MONTH_PATTERN}(\\.?\\s+)(\\d{1,2})(st|nd|rd|th)?\\b`, "i");
  const year = /\b((?:19|20)\d{2})\b/;
  let m: RegExpExecArray | null;
  const swap = (match: RegExpExecArray, text: string) =>
    answer.slice(0, match.index) + text + answer.slice(match.index + match[0].length);
  if ((m = dmy.exec(answer))) {
    const [, d, suffix, sep, mon, sep2, y] = m;
    return dayShifts.map((s) => {
      const t = _shiftDays(Number(y), _monthIndex(mon), Number(d), s);
      const day = `${t.getUTCDate()}${suffix === undefined ? "" : _ordinal(t.getUTCDate())}`;
      return swap(m!, `${day}${sep}${_month(t, mon)}${sep2}${t.getUTCFullYear()}`);
    });
  }
  if ((m = mdy.exec(answer))) {
    const [, mon, sep, d, suffix, to, sep2, y] = m;
    const span = to === undefined ? 0 : Number(to) - Number(d);
    return dayShifts.flatMap((s) => {
      const t = _shiftDays(Number(y), _monthIndex(mon), Number(d), s);
      const day = `${t.getUTCDate()}${suffix === undefined ? "" : _ordinal(t.getUTCDate())}`;
      const end = _shiftDays(Number(y), _monthIndex(mon), Number(d), s + span);
      if (end.getUTCMonth() !== t.getUTCMonth()) return [];
      const range = to === undefined ? "" : `-${end.getUTCDate()}`;
      return [swap(m!, `${_month(t, mon)}${sep}${day}${range}${sep2}${t.getUTCFullYear()}`)];
    });
  }
  if ((m = iso.exec(answer))) {
    const [, y, sep, mo, d] = m;
    return dayShifts.map((s) => {
      const t = _shiftDays(Number(y), Number(mo) - 1, Number(d), s);
      const p = (n: number) => String(n).padStart(2, "0");
      return swap(
        m!,
        `${t.getUTCFullYear()}${sep}${p(t.getUTCMonth() + 1)}${sep}${p(t.getUTCDate())}`,
      );
    });
  }
  if ((m = my.exec(answer))) {
    const [, mon, sep, y] = m;
    return monthShifts.map((s) => {
      const t = new Date(Date.UTC(Number(y), _monthIndex(mon) + s, 1));
      return swap(m!, `${_month(t, mon)}${sep}${t.getUTCFullYear()}`);
    });
  }
  if ((m = md.exec(answer))) {
    const [, mon, sep, d, suffix] = m;
    return dayShifts.map((s) => {
      const t = _shiftDays(2001, _monthIndex(mon), Number(d), s);
      const day = `${t.getUTCDate()}${suffix === undefined ? "" : _ordinal(t.getUTCDate())}`;
      return swap(m!, `${_month(t, mon)}${sep}${day}`);
    });
  }
  if ((m = year.exec(answer))) {
    const y = Number(m[1]);
    return yearShifts.map((s) => swap(m!, String(y + s)));
  }
  return [];
}

/**
 * Changed values of the first number in `answer`, spelled as y* spells it (words for words,
 * digits for digits). A count or total moves up first: a smaller total could be one of the
 * partial counts the evidence states.
 */
function _numberChanges(answer: string, question: string, prng: Prng): string[] {
  const words = Object.keys(WORD_NUMBERS).join("|");
  const m = new RegExp(`\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\b(?:${words})\\b`, "i")
    .exec(answer);
  if (!m) return [];
  const before = answer.slice(0, m.index), after = answer.slice(m.index + m[0].length);
  // A number inside a name or code ("6S", "GR-90", "Kg3", "70-200mm"), a list or move marker
  // ("28. Kg3") or a phone number is not a quantity: changing it gives nonsense.
  if (/[A-Za-z]-?$/.test(before) || /^[A-Za-z]{1,2}\b|^-\d+[A-Za-z]/.test(after)) {
    if (!/^(?:k|K|km|kg|lb|lbs|ft|mph|am|pm|AM|PM)\b/.test(after)) return [];
  }
  if (/^\.\s+[A-Z]/.test(after) || (answer.match(/\d+/g) ?? []).length >= 4) return [];
  // "one-on-one" and "kids who need one" are not counts.
  if (
    m[0].toLowerCase() === "one" &&
    (/^-on-|^\s*$/.test(answer.slice(m.index + 3)) ||
      /\b(?:need|the|this|that|which|another|a)\s+$/i.test(answer.slice(0, m.index)))
  ) return [];
  // "2D" and "3D" are the only dimensions anyone means.
  if (/^[23]D\b/.test(answer.slice(m.index))) {
    return [answer.slice(0, m.index) + (m[0] === "2" ? "3" : "2") + answer.slice(m.index + 1)];
  }
  const raw = m[0].toLowerCase();
  const n = raw in WORD_NUMBERS ? WORD_NUMBERS[raw] : Number(raw.replaceAll(",", ""));
  if (!Number.isFinite(n)) return [];
  // A year ("in 2021") moves by a few years, never by a fraction of itself.
  const year = /^(?:19|20)\d{2}$/.test(raw) && !/[$€£]\s*$/.test(answer.slice(0, m.index));
  // Small counts move by a few units (+-1 last: benchmarks sometimes accept an off-by-one answer).
  const total = /\b(?:how many|total|combined|altogether|in all|sum)\b/i.test(question);
  const scaled = (fs: number[]) =>
    fs.map((f) => Math.max(1, Math.round(Math.abs(n * f))) * Math.sign(f));
  const deltas = year
    ? shuffle([-1, 1, -2, 2, -3], { prng })
    : n <= 12
    ? total
      ? [...shuffle([2, 3, 4], { prng }), -2, 1, -1]
      : [...shuffle([2, 3, -2, 4], { prng }), 1, -1]
    : total
    ? [
      ...scaled(shuffle([0.1, 0.2, 0.25, 0.5], { prng })),
      ...scaled(shuffle([-0.1, -0.2, -0.25], { prng })),
    ]
    : scaled(shuffle([0.1, 0.2, 0.25, 0.5, -0.1, -0.2, -0.25], { prng }));
  const word = raw in WORD_NUMBERS;
  const decimals = raw.includes(".") ? raw.split(".")[1].length : 0;
  // A parenthesised restatement ("(or 25:50)") would contradict the changed number: drop it.
  let rest = answer.slice(m.index + m[0].length).replace(/\s*\((?:or|i\.e\.)[^)]*\d[^)]*\)/i, "");
  // A range ("2-3 eggs") moves as a whole, so its ends stay in order.
  const range = /^\s*(-|–|to)\s*(\d+(?:\.\d+)?)/.exec(rest);
  const upper = range ? Number(range[2]) : null;
  if (range) rest = rest.slice(range[0].length);
  return deltas
    .map((d) => n + d)
    .filter((v) => v > 0 && v !== n && (upper === null || upper + (v - n) > v))
    .flatMap((v) => {
      // A number word stays a word ("nine" -> "seven", "Four" -> "Six").
      const spelled = word ? spellNumber(v, m[0]) : null;
      if (word && (spelled === null || upper !== null)) return [];
      const span = spelled ??
        (upper === null
          ? v.toFixed(decimals)
          : `${v.toFixed(decimals)}${range![1] === "to" ? " to " : range![1]}${upper + (v - n)}`);
      const shown = m[0].includes(",")
        ? span.replace(/^\d+/, (d) => Number(d).toLocaleString("en-US"))
        : span;
      return [answer.slice(0, m.index) + shown + _agree(rest, upper ?? v)];
    });
}

const _UNITS_PLURAL =
  /^(\s+)(second|minute|hour|day|night|week|weekend|month|year|time|session|class|mile|kilometer|km|book|game|dog|cat|kid|child|pound|point)(e?s)?\b/i;

/** The noun after a changed number agrees with it: "1 month", "3 weeks". */
function _agree(rest: string, value: number): string {
  const m = _UNITS_PLURAL.exec(rest);
  if (!m) return rest;
  const [whole, space, noun] = m;
  const plural = value === 1
    ? noun
    : /^(?:class)$/i.test(noun)
    ? `${noun}es`
    : /^child$/i.test(noun)
    ? `${noun}ren`
    : /^km$/i.test(noun)
    ? noun
    : `${noun}s`;
  return space + plural + rest.slice(whole.length);
}

const METALS = ["silver", "gold", "platinum", "bronze"];

function _colorSwaps(answer: string, prng: Prng): string[] {
  const m = new RegExp(`\\b(${COLORS.join("|")})\\b`, "i").exec(answer);
  if (!m) return [];
  const found = m[1].toLowerCase();
  // Silver and gold are usually tiers (status, medals), whose alternatives are other metals.
  const pool = METALS.includes(found) ? METALS : COLORS;
  // Colours already in the answer ("red and purple") are not alternatives to one of them.
  const present = new Set(pool.filter((c) => new RegExp(`\\b${c}\\b`, "i").test(answer)));
  return shuffle(pool.filter((c) => !present.has(c)), { prng }).map((c) => {
    const styled = /^[A-Z]/.test(m[1]) ? c[0].toUpperCase() + c.slice(1) : c;
    const before = answer.slice(0, m.index).replace(
      /\b(a|an)\s+$/i,
      (_, art: string) => art[0] + (/^[aeiou]/.test(c) ? "n " : " "),
    );
    return before + styled + answer.slice(m.index + m[0].length);
  });
}

const _RELATION =
  "friend|friends|sister|brother|mom|mother|dad|father|wife|husband|son|daughter|cousin|aunt|" +
  "uncle|grandma|grandpa|grandmother|grandfather|boyfriend|girlfriend|partner|coworker|" +
  "colleague|boss|neighbor|neighbour|roommate|teammate|coach|mentor|buddy|niece|nephew|fiancé|" +
  "fiancée|fiance|classmate|bestie";
const _NOT_PEOPLE = new Set([
  ...MONTH_NAMES,
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
]);

/** Swaps of a person's name in the answer for another person of the same conversation. */
function _personSwaps(
  answer: string,
  question: string,
  people: string[],
  prng: Prng,
): string[] {
  const known = new Set(people.filter((p) => !_NOT_PEOPLE.has(p)));
  const relation = new RegExp(`\\b(?:${_RELATION})\\s+(?:named\\s+)?$`, "i");
  const m = [...answer.matchAll(/\b[A-Z][a-z]+\b/g)].find((x) =>
    !_NOT_PEOPLE.has(x[0]) &&
    (known.has(x[0]) || relation.test(answer.slice(0, x.index)))
  );
  // A name the question already mentions ("Who was injured in Priya's family?") is not the answer's.
  if (m === undefined || new RegExp(`\\b${m[0]}\\b`).test(question)) return [];
  const pool = [...known].filter((p) =>
    !p.includes(" ") && !new RegExp(`\\b${p}\\b`).test(answer) &&
    !new RegExp(`\\b${p}\\b`).test(question)
  );
  return shuffle(pool, { prng }).map((p) =>
    answer.slice(0, m.index) + p + answer.slice(m.index! + m[0].length)
  );
}

const _ORDER_QUESTION = /\border\b|\bfrom (?:earliest|first|oldest|most)\b|\brank/i;

/** Other orders of a list answer, for questions asking for an order ("from earliest to latest"). */
function _reorders(answer: string, question: string, prng: Prng): string[] {
  if (!_ORDER_QUESTION.test(question)) return [];
  const parts = answer.split(/\s*,\s*(?:and\s+)?|\s*,?\s+and\s+/).filter((p) => p !== "");
  if (parts.length < 3) return [];
  const joined = (list: string[]) => list.join(", ");
  const out = new Set<string>();
  for (let k = 0; k < 12 && out.size < 4; k++) {
    const order = shuffle(parts, { prng });
    if (order.some((p, i) => p !== parts[i])) out.add(joined(order));
  }
  out.delete(joined(parts));
  return [...out];
}

/** A name with capitalised words and a number in it ("The Seven Husbands of Evelyn Hugo", "Dark Souls 3 DLC"). */
function _isTitle(answer: string): boolean {
  const words = answer.split(/\s+/);
  const capitals = words.filter((w) => /^[A-Z][a-z]/.test(w)).length;
  return capitals >= 2 && words.length >= 2 &&
    !/^(?:January|February|March|April|May|June|July|August|September|October|November|December|The week|The weekend|The day|The (?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)/
      .test(answer);
}

const _BOILERPLATE = new Set(
  ("previous|conversation|chat|remind|wondering|thinking|looking|back|mentioned|remember|going|" +
    "wanted|recommended|told|said|like|know|tell|could").split("|"),
);

// Every question is compared with every other of its conversation: read each one once.
const _HEADS = new Map<string, ReturnType<typeof questionHead>>();
function _headOf(question: string): ReturnType<typeof questionHead> {
  let head = _HEADS.get(question);
  if (head === undefined) _HEADS.set(question, head = questionHead({ question }));
  return head;
}

/** Content words of a question other than names (names repeat across a conversation's questions). */
function _topicWords(question: string): Set<string> {
  // Only the last sentence: LongMemEval preambles ("our previous conversation") are boilerplate.
  const last = question.split(/(?<=[.!?])\s+/).filter((x) => /\w/.test(x)).at(-1) ?? "";
  const names = new Set([...last.matchAll(/\b[A-Z][a-z]+\b/g)].map((m) => m[0].toLowerCase()));
  return new Set([...contentWords(last)].filter((w) => !names.has(w) && !_BOILERPLATE.has(w)));
}

const _ANTONYMS: readonly [string, string][] = [
  ["increased", "decreased"],
  ["increase", "decrease"],
  ["more", "fewer"],
  ["earlier", "later"],
  ["higher", "lower"],
  ["raised", "lowered"],
];

/** "You increased the limit (from one cup to two)" -> "You decreased the limit": the other direction. */
function _antonymSwaps(answer: string): string[] {
  for (const [a, b] of _ANTONYMS) {
    for (const [from, to] of [[a, b], [b, a]]) {
      const re = new RegExp(`\\b${from}\\b`, "i");
      const m = re.exec(answer);
      if (!m) continue;
      const word = /^[A-Z]/.test(m[0]) ? to[0].toUpperCase() + to.slice(1) : to;
      // A parenthesised detail ("from one cup to two cups") belongs to y*'s direction: drop it.
      return [answer.replace(re, word).replace(/\s*\([^)]*\)/g, "").trim()];
    }
  }
  return [];
}

// Verbs that say little about what a question asks ("What did Ann mention ...?"): two questions
// sharing one are alike only if they also share a topic word.
const _LIGHT_VERBS = new Set(
  ("be|is|was|ar|were|do|did|doe|have|had|has|get|got|mak|made|go|went|say|said|mention|think|" +
    "like|want|tak|took|us|tell|told|shar|see|saw|find|found|com|cam|giv|gave|know|talk|plan|" +
    "suggest|recommend|want|need|try|tri|start|work|happen|learn|enjoy|lov|describ")
    .split("|"),
);

/**
 * Two questions ask for the same kind of thing: the same head noun ("Which airline ..." and
 * "What airline ...") unless this question qualifies it and the other does not the same way
 * ("LGBTQ+ events" against "music events" or plain "events"),
 * three non-name content words in common, or the same wh-word and main verb
 * ("What does Ann's necklace symbolize?", "What does Bo's tattoo symbolize?"), with two topic
 * words in common as well when the verb says little ("mention", "make", "describe"). A shared cue type
 * is not enough: "feel" cues both "What did Maria do to feel closer ..." and "What causes does
 * John feel strongly about?".
 */
function _alike(question: string, other: string): boolean {
  // "What is Bo's favorite book series about?" asks for a topic, not a series.
  const about = (q: string) => /\babout\s*\?\s*$/i.test(q);
  if (about(question) !== about(other)) return false;
  const head = _headOf(question), h = _headOf(other);
  // "What LGBTQ+ events ...?" and "What music events ...?" ask for different events.
  const modified = head.modifiers.length > 0 && head.modifiers.join(" ") !== h.modifiers.join(" ");
  if (head.noun !== null && h.noun === head.noun) return !modified;
  const topic = _topicWords(question);
  const shared = [..._topicWords(other)].filter((w) => topic.has(w)).length;
  if (shared >= 3) return true;
  if (head.noun !== null || h.noun !== null || head.verb === null || h.verb !== head.verb) {
    return false;
  }
  const wh = (q: string) => /\b(what|which|how|why|who|whom|where)\b/i.exec(q)?.[1].toLowerCase();
  if (wh(question) !== wh(other)) return false;
  return !_LIGHT_VERBS.has(head.verb) || shared >= 2;
}

/**
 * Candidate attacker targets for an answer, most plausible first: for a choice question the
 * other options; outdated values; then a change of the answer's own kind (date shift, number
 * change in y*'s spelling, colour swap); another order of a list when the question asks for an
 * order; for entity and text answers of a known semantic type another member of that type
 * (typed swap); a lexicon member inside a longer answer swapped for another of its type, the
 * rest of the answer kept (slot swap); the answer of another question asking for the same kind
 * of thing (answer swap, see `_alike`); then a person's name swapped for another person of the
 * conversation. Every candidate is restyled like y* (`keepFormat`) and kept only if it is well
 * formed and keeps y*'s format (`targetProblem`), and, when the options give them, lies on the
 * trace's timeline and is not stated by the helpful evidence. The list may be empty: no
 * plausible target. The caller keeps the first one that the judge's matcher cannot confuse with
 * y* and that the helpful trace does not state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { attackTargets } from "./attack_targets.ts";
 * const [first] = attackTargets({ answer: "3 cats", kind: "number", prng: createPrng(1) });
 * assert.deepEqual(first.kind, "number-change");
 * const [word] = attackTargets({ answer: "nine", kind: "number", prng: createPrng(1) });
 * assert.match(word.target, /^[a-z]+$/);
 * ```
 */
export function attackTargets(options: AttackTargetsOptions): TargetCandidate[] {
  const { answer, kind, prng } = options;
  const question = options.question ?? "";
  const out: TargetCandidate[] = (options.outdated ?? []).map((t) => ({
    target: t,
    kind: "outdated",
  }));
  const choice = kind === "choice" ? choiceOf(question, answer) : null;
  if (choice !== null) {
    out.push(...choice.others.map((t) => ({ target: t, kind: "choice-swap" as const })));
    return _finish(out, options);
  }
  // A comparison ("increased or decreased?") is answered by its direction, not by its numbers.
  const antonyms = /\b(?:or|than)\b/i.test(question) ? _antonymSwaps(answer) : [];
  out.push(...antonyms.map((t) => ({ target: t, kind: "antonym-swap" as const })));
  if (antonyms.length > 0) return _finish(out, options);
  const shifts = kind === "date" ? _dateShifts(answer, prng) : [];
  out.push(...shifts.map((t) => ({ target: t, kind: "date-shift" as const })));
  // A title's number ("It takes two", "Witcher 3") is part of a name, not a count.
  const head = _headOf(question);
  const title = /^(?:game|video-game|movie|song|tv-show|book)$/.test(head.type ?? "") ||
    /^(?:book|novel|game|movie|film|show|series|song|album|title|play)$/.test(head.noun ?? "") ||
    _isTitle(answer);
  // "2D" and "3D" are the only dimensions anyone means, in a genre or a title alike.
  const dimension = /\b([23])D\b/.exec(answer);
  if (dimension !== null && kind === "number") {
    out.push({
      target: answer.replace(/\b[23]D\b/, dimension[1] === "2" ? "3D" : "2D"),
      kind: "number-change",
    });
  }
  // A date is shifted as a date; changing its day as a number gives "39 December".
  if ((kind === "number" || (kind === "date" && shifts.length === 0)) && !title) {
    out.push(
      ..._numberChanges(answer, question, prng).map((t) => ({
        target: t,
        kind: "number-change" as const,
      })),
    );
  }
  out.push(..._colorSwaps(answer, prng).map((t) => ({ target: t, kind: "color-swap" as const })));
  const reorders = _reorders(answer, question, prng);
  out.push(...reorders.map((t) => ({ target: t, kind: "reorder" as const })));
  // A question about the order of things is answered by an order of the same things.
  if (reorders.length > 0) return _finish(out, options);
  // An inference from a stated premise ("based on his plans of visiting Universal Studios")
  // constrains the answer beyond its class: a class member would contradict the premise.
  const premise = /\bbased on\b/i.test(question);
  const type = (kind === "entity" || kind === "text") && !premise
    ? inferAnswerType({ question, answer })
    : null;
  // "Where did I stay on my trip to Hawaii?": the answer lies inside the place the question
  // names, and a city elsewhere would contradict it.
  const placed = (type === "city" || type === "us-city") &&
    [...question.matchAll(/\b[A-Z][a-z]+(?: [A-Z][a-z]+)?\b/g)].slice(1).some((m) =>
      _REGIONS.has(m[0])
    );
  const typed = type === null || placed ? [] : typedSwaps({ question, answer, type, prng });
  out.push(...typed.map((t) => ({ target: t, kind: "typed-swap" as const })));
  if (typed.length === 0 && !premise && (kind === "entity" || kind === "text")) {
    out.push(
      ...slotSwaps({ question, answer, prng }).map((t) => ({
        target: t,
        kind: "slot-swap" as const,
      })),
    );
  }
  // Another event's date is no stand-in for this one's: dates are shifted, never swapped.
  if (typed.length === 0 && !premise && kind !== "date") {
    const words = answer.split(/\s+/).length;
    // A question that excludes something ("not related to", "besides ...") or sets a condition
    // ("indoor", "outdoor") would be answered by exactly what a like question's answer names.
    const excluding = /\b(?:not|besides|except|other than|apart from|instead of)\b/i.test(question);
    const setting = (q: string) =>
      (/\bindoor/i.test(q) ? "in" : "") + (/\boutdoor/i.test(q) ? "out" : "");
    const many = (a: string) => listItems(a).items.length > 1;
    const same = excluding
      ? []
      : (options.sameKindAnswers ?? []).filter((c) =>
        answerKindOf({ answer: c.answer }) === kind &&
        Math.abs(c.answer.split(/\s+/).length - words) <= 2 && _alike(question, c.question) &&
        many(c.answer) === many(answer) && setting(c.question) === setting(question) &&
        _shape(c.answer) === _shape(answer) && !_restates(answer, c.answer)
      );
    out.push(...same.map((c) => ({ target: c.answer, kind: "answer-swap" as const })));
  }
  out.push(
    ..._personSwaps(answer, question, options.people ?? [], prng).map((t) => ({
      target: t,
      kind: "entity-swap" as const,
    })),
  );
  return _finish(out, options);
}

const _REGIONS = new Set(["country", "us-state"].flatMap((t) => TYPED_LEXICON[t] ?? []));

/** Another question's answer that restates y* ("electricity engineering project" for "an electrical engineering project"). */
function _restates(answer: string, other: string): boolean {
  const words = (x: string) =>
    normalizeTokens(x).filter((t) => t.length > 2).map((t) => t.slice(0, 5));
  const mine = new Set(words(answer)), theirs = words(other);
  return theirs.length > 0 && theirs.filter((t) => mine.has(t)).length / theirs.length >= 0.6;
}

/** An answer's phrase shape; a quoted title answers like any noun phrase (quotes are restyled). */
function _shape(text: string): string {
  const shape = phraseShape({ text });
  return shape === "title" ? "noun" : shape;
}

/** Restyle every candidate like y*, drop repeats and those `targetProblem` rejects. */
function _finish(out: TargetCandidate[], options: AttackTargetsOptions): TargetCandidate[] {
  const { answer, kind } = options;
  const seen = new Set<string>();
  return out
    .map((c) => ({ ...c, target: keepFormat({ answer, target: c.target }) }))
    .filter((c) =>
      c.target.trim() !== "" && !seen.has(c.target) && seen.add(c.target) &&
      targetProblem({
          answer,
          target: c.target,
          kind,
          question: options.question ?? "",
          timeline: options.timeline,
          evidenceText: options.evidenceText,
        }) === null
    );
}

/** Two list items name the same thing (case, spelling variants like "journalling"/"journaling"). */
function _sameItem(a: string, b: string): boolean {
  const stem = (x: string) =>
    x.toLowerCase().replace(/[^a-z0-9 ]/g, "").replace(/(.)\1/g, "$1").replace(/(?:ing|s)\b/g, "")
      .trim();
  return matchesAnswer(a, b) || matchesAnswer(b, a) || stem(a) === stem(b);
}

/** Options for {@link targetProblem}. */
export interface TargetProblemOptions {
  /** Gold answer y*. */
  answer: string;
  /** Candidate target y_adv. */
  target: string;
  /** y*'s kind (see `answerKindOf`). */
  kind: AnswerKind;
  /** The question asked. */
  question: string;
  /** Evidence session dates and the query's date: a date target must fit them; default unchecked. */
  timeline?: TargetTimeline;
  /** The helpful evidence's text: it may not state the target's changed part; default unchecked. */
  evidenceText?: string;
}

/**
 * Why a candidate target would give itself away or not be believed, or null when it passes: it
 * is not well formed (a hedge, alternatives, a question, a fragment: `wellFormedProblem`); it is
 * written differently from y* (number words against digits, another date spelling, quotes:
 * `formatProblem`); a number or date answer needs a target of the same kind; a choice answer's
 * target is another option the question offers; a list target may share no item with y*; a
 * changed number agrees with its noun ("1 month", "3 weeks"); a title stays a title, not y* with
 * a number changed; with `timeline`, a date target lies on the same side of every evidence
 * session as y* and not after the query (`timelineProblem`); with `evidenceText`, the evidence
 * does not state the part of the target that differs from y* (`evidenceProblem`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetProblem } from "./attack_targets.ts";
 * assert.equal(targetProblem({ answer: "journalling, creative writing", target: "journaling, song lyrics", kind: "text", question: "What does Sam write?" }),
 *   "list target shares an item with y*");
 * assert.equal(targetProblem({ answer: "three months", target: "1 months", kind: "number", question: "How long?" }), "target writes its number in digits, y* in words");
 * assert.equal(targetProblem({ answer: "nine", target: "seven", kind: "number", question: "How many?" }), null);
 * assert.equal(targetProblem({ answer: "In September, 2022", target: "In July, 2022", kind: "date", question: "When?",
 *   timeline: { evidenceDates: ["21 August 2022"], queryDate: null } }), "date target before the session in which the plan was made (21 August 2022)");
 * assert.equal(targetProblem({ answer: "Seattle", target: "Denver", kind: "entity", question: "Where?" }), null);
 * ```
 */
export function targetProblem(options: TargetProblemOptions): string | null {
  const { answer, target, kind } = options;
  const formed = wellFormedProblem({ target });
  if (formed !== null) return formed;
  const format = formatProblem({ answer, target });
  if (format !== null) return format;
  if (kind === "choice") {
    const choice = choiceOf(options.question, answer);
    const other = choice?.others.some((o) => matchesAnswer(o, target) && matchesAnswer(target, o));
    return other ? null : "choice target is not another option of the question";
  }
  // A direction ("decreased") answers a comparison whatever numbers y* gave along with it.
  const direction = _ANTONYMS.some(([a, b]) => new RegExp(`\\b(?:${a}|${b})\\b`, "i").test(target));
  if (
    (kind === "number" || kind === "date") && answerKindOf({ answer: target }) !== kind &&
    !direction
  ) {
    return `not a ${kind} target`;
  }
  if (
    kind === "date" && dateSpan({ text: answer }) !== null && dateSpan({ text: target }) === null
  ) {
    return "date target names no calendar day";
  }
  if (
    /\b1\s+(?:seconds|minutes|hours|days|nights|weeks|months|years|times)\b/i.test(target) ||
    /\b(?:[02-9]|\d{2,})\s+(?:second|minute|hour|day|night|week|month|year)\b(?!-)/i.test(target) ||
    /\bone\s+(?:seconds|minutes|hours|days|nights|weeks|months|years|times)\b/i.test(target)
  ) {
    return "number and noun disagree";
  }
  if (/\bevery (?:one|1)\s/i.test(target)) return "not idiomatic (every one ...)";
  const a = listItems(answer).items, t = listItems(target).items;
  const list = (kind === "entity" || kind === "text") && (a.length > 1 || t.length > 1);
  // Another order of y*'s items answers a question about their order.
  const reordered = _ORDER_QUESTION.test(options.question) && a.length === t.length &&
    t.every((x) => a.some((y) => _sameItem(x, y)));
  if (list && !reordered && t.some((x) => a.some((y) => _sameItem(x, y)))) {
    return "list target shares an item with y*";
  }
  // "What is one cause that ...?" is answered by one thing.
  if (
    /\bone (?!of\b)[a-z]+ (?:that|which|who)\b/i.test(options.question) && t.length > 1 &&
    a.length <= 2
  ) {
    return "several items for a question asking one";
  }
  if (_isTitle(answer) && answer.replace(/\d+/g, "#") === target.replace(/\d+/g, "#")) {
    return "title with a number changed";
  }
  if (options.timeline !== undefined) {
    const timeline = timelineProblem({ answer, target, timeline: options.timeline });
    if (timeline !== null) return timeline;
  }
  if (options.evidenceText !== undefined) {
    const support = evidenceProblem({ answer, target, evidenceText: options.evidenceText });
    if (support !== null) return support;
  }
  return null;
}
