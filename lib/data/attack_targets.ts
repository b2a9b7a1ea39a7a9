/** Type-aware attacker targets y_adv: shifted dates, changed numbers, swapped entities, outdated values. */
import type { Prng } from "../random/prng.ts";
import { shuffle } from "../random/shuffle.ts";
import { _contentWords } from "./_text.ts";
import { type AnswerKind, answerKindOf } from "./answer_kind.ts";
import { inferAnswerType, typedSwaps } from "./typed_lexicon.ts";

/** How a target was made. */
export type TargetKind =
  | "outdated"
  | "date-shift"
  | "number-change"
  | "color-swap"
  | "typed-swap"
  | "answer-swap"
  | "entity-swap";

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
  /** Answers to other questions of the same conversation or type, most similar question first; default none. */
  sameKindAnswers?: string[];
  /** Capitalized names from the same conversation; default none. */
  entities?: string[];
  /** Outdated values (knowledge updates), tried first; default none. */
  outdated?: string[];
  /** Generator ordering the alternatives. */
  prng: Prng;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const MONTH = "(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|" +
  "Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
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
const WORD_NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

const _monthIndex = (name: string): number =>
  MONTHS.findIndex((m) => m.toLowerCase().startsWith(name.slice(0, 3).toLowerCase()));

function _shiftDays(y: number, m: number, d: number, days: number): Date {
  return new Date(Date.UTC(y, m, d + days));
}

/** Date shifts of the first date in `answer`, in the answer's own spelling. */
function _dateShifts(answer: string, prng: Prng): string[] {
  const dayShifts = shuffle([-21, -14, -7, -3, -2, 2, 3, 7, 14, 21], { prng });
  const monthShifts = shuffle([-3, -2, -1, 1, 2, 3], { prng });
  const yearShifts = shuffle([-2, -1, 1, 2], { prng });
  const dmy = new RegExp(
    `\\b(\\d{1,2})(st|nd|rd|th)?(\\s+(?:of\\s+)?)${MONTH}(\\.?,?\\s+)(\\d{4})\\b`,
    "i",
  );
  const mdy = new RegExp(`\\b${MONTH}(\\.?\\s+)(\\d{1,2})(st|nd|rd|th)?(,?\\s+)(\\d{4})\\b`, "i");
  const iso = /\b(\d{4})([-/])(\d{1,2})[-/](\d{1,2})\b/;
  const my = new RegExp(`\\b${MONTH}(\\.?,?\\s+)(\\d{4})\\b`, "i");
  const md = new RegExp(`\\b${MONTH}(\\.?\\s+)(\\d{1,2})(st|nd|rd|th)?\\b`, "i");
  const year = /\b((?:19|20)\d{2})\b/;
  let m: RegExpExecArray | null;
  const swap = (match: RegExpExecArray, text: string) =>
    answer.slice(0, match.index) + text + answer.slice(match.index + match[0].length);
  if ((m = dmy.exec(answer))) {
    const [, d, , sep, mon, sep2, y] = m;
    return dayShifts.map((s) => {
      const t = _shiftDays(Number(y), _monthIndex(mon), Number(d), s);
      return swap(
        m!,
        `${t.getUTCDate()}${sep}${MONTHS[t.getUTCMonth()]}${sep2}${t.getUTCFullYear()}`,
      );
    });
  }
  if ((m = mdy.exec(answer))) {
    const [, mon, sep, d, , sep2, y] = m;
    return dayShifts.map((s) => {
      const t = _shiftDays(Number(y), _monthIndex(mon), Number(d), s);
      return swap(
        m!,
        `${MONTHS[t.getUTCMonth()]}${sep}${t.getUTCDate()}${sep2}${t.getUTCFullYear()}`,
      );
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
      return swap(m!, `${MONTHS[t.getUTCMonth()]}${sep}${t.getUTCFullYear()}`);
    });
  }
  if ((m = md.exec(answer))) {
    const [, mon, sep, d] = m;
    return dayShifts.map((s) => {
      const t = _shiftDays(2001, _monthIndex(mon), Number(d), s);
      return swap(m!, `${MONTHS[t.getUTCMonth()]}${sep}${t.getUTCDate()}`);
    });
  }
  if ((m = year.exec(answer))) {
    const y = Number(m[1]);
    return yearShifts.map((s) => swap(m!, String(y + s)));
  }
  return [];
}

/** Changed values of the first number in `answer`, digits in place of the original spelling. */
function _numberChanges(answer: string, prng: Prng): string[] {
  const words = Object.keys(WORD_NUMBERS).join("|");
  const m = new RegExp(`\\d[\\d,]*(?:\\.\\d+)?|\\b(?:${words})\\b`, "i").exec(answer);
  if (!m) return [];
  const raw = m[0].toLowerCase();
  const n = raw in WORD_NUMBERS ? WORD_NUMBERS[raw] : Number(raw.replaceAll(",", ""));
  if (!Number.isFinite(n)) return [];
  // Small counts move by a few units (+-1 last: benchmarks sometimes accept an off-by-one answer).
  const deltas = n <= 12
    ? [...shuffle([2, 3, -2, 4], { prng }), 1, -1]
    : shuffle([0.1, 0.2, 0.25, 0.5, -0.1, -0.2, -0.25], { prng }).map((f) =>
      Math.max(1, Math.round(Math.abs(n * f))) * Math.sign(f)
    );
  const decimals = raw.includes(".") ? raw.split(".")[1].length : 0;
  return deltas
    .map((d) => n + d)
    .filter((v) => v > 0 && v !== n)
    .map((v) =>
      answer.slice(0, m.index) + v.toFixed(decimals) + answer.slice(m.index + m[0].length)
    );
}

function _colorSwaps(answer: string, prng: Prng): string[] {
  const m = new RegExp(`\\b(${COLORS.join("|")})\\b`, "i").exec(answer);
  if (!m) return [];
  return shuffle(COLORS.filter((c) => c !== m[1].toLowerCase()), { prng }).map((c) =>
    answer.slice(0, m.index) + c + answer.slice(m.index + m[0].length)
  );
}

function _entitySwaps(answer: string, entities: string[], prng: Prng): string[] {
  const m = /\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b/.exec(answer);
  if (!m) return [];
  const width = m[0].split(/\s+/).length;
  return shuffle(entities.filter((e) => e.split(/\s+/).length === width && e !== m[0]), { prng })
    .map((e) => answer.slice(0, m.index) + e + answer.slice(m.index + m[0].length));
}

/**
 * Candidate attacker targets for an answer, most plausible first: outdated values, then a change
 * of the answer's own kind (date shift, number change, colour swap), then for entity and text
 * answers of a known semantic type another member of that type (typed swap); only when no type
 * is known, another answer of the same kind from the same conversation (those sharing a content
 * word with the question first), then a swapped name. The caller keeps the first one that
 * the judge's matcher cannot confuse with y* and that the helpful trace does not state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { attackTargets } from "./attack_targets.ts";
 * const [first] = attackTargets({ answer: "3 cats", kind: "number", prng: createPrng(1) });
 * assert.deepEqual(first.kind, "number-change");
 * ```
 */
export function attackTargets(options: AttackTargetsOptions): TargetCandidate[] {
  const { answer, kind, prng } = options;
  const out: TargetCandidate[] = (options.outdated ?? []).map((t) => ({
    target: t,
    kind: "outdated",
  }));
  if (kind === "date") {
    out.push(..._dateShifts(answer, prng).map((t) => ({ target: t, kind: "date-shift" as const })));
  }
  if (kind === "number" || kind === "date") {
    out.push(
      ..._numberChanges(answer, prng).map((t) => ({ target: t, kind: "number-change" as const })),
    );
  }
  out.push(..._colorSwaps(answer, prng).map((t) => ({ target: t, kind: "color-swap" as const })));
  const question = options.question ?? "";
  const type = kind === "entity" || kind === "text" ? inferAnswerType({ question, answer }) : null;
  const typed = type === null ? [] : typedSwaps({ question, answer, type, prng });
  out.push(...typed.map((t) => ({ target: t, kind: "typed-swap" as const })));
  if (typed.length === 0) {
    const words = answer.split(/\s+/).length;
    const same = (options.sameKindAnswers ?? []).filter((a) =>
      answerKindOf({ answer: a }) === kind && Math.abs(a.split(/\s+/).length - words) <= 2
    );
    // A swap sharing a content word with the question is more likely to fit it ("Prius" for a food does not).
    const cue = _contentWords(question);
    const shares = (a: string) => [..._contentWords(a)].some((w) => cue.has(w));
    const ranked = [...same.filter(shares), ...same.filter((a) => !shares(a))];
    out.push(...ranked.map((t) => ({ target: t, kind: "answer-swap" as const })));
  }
  out.push(
    ..._entitySwaps(answer, options.entities ?? [], prng).map((t) => ({
      target: t,
      kind: "entity-swap" as const,
    })),
  );
  const seen = new Set<string>();
  return out.filter((c) => c.target.trim() !== "" && !seen.has(c.target) && seen.add(c.target));
}
