/**
 * The stance an output takes towards each answer mention: does it assert it, deny it, offer it as
 * one alternative, report it as old or as the current value? Read from cue words around the
 * mention within its clause and sentence (`commitment_cues.json`).
 */
import { BREAK_PREFIX, stemToken } from "../text/normalize.ts";
import { COMMITMENT_CUES as CUES } from "./commitment_cues.ts";
import type { Mention } from "./find_mentions.ts";

/**
 * What a mention's context does with it, strongest reading first:
 * - `open`: inside a question, or a frame such as "not sure whether", "unclear if";
 * - `alternative`: one side of "X or Y", "between X and Y", a range "X to Y";
 * - `aside`: inside a concessive clause ("though one note says X");
 * - `negated`: "not X", "X is wrong", "instead of X";
 * - `past`: "used to be X", "previously X", "from X to ...", "X is outdated";
 * - `concluded`: "so X", "final answer: X";
 * - `corrected`: "actually X", "or rather X", "X is correct";
 * - `current`: "now X", "moved to X", "latest X";
 * - `tentative`: "maybe X", "could be X", "X, one note claims";
 * - `reported`: "one note says X" (as firm as `affirmed`, but not an answer given first-hand);
 * - `affirmed`: none of these.
 */
export type Stance =
  | "open"
  | "alternative"
  | "aside"
  | "negated"
  | "past"
  | "concluded"
  | "corrected"
  | "current"
  | "tentative"
  | "reported"
  | "affirmed";

const SENTENCE_END = new Set(["|.", "|?", "|!", "|;"].map((b) => b.replace("|", BREAK_PREFIX)));
const _set = (phrases: string[][]) => new Set(phrases.map((p) => p.join(" ")));
const CLAUSE_WORDS = _set(CUES.clauseBreaks);
const CONCESSIVE = _set(CUES.concessive);
const NEGATION = _set(CUES.negation);
const EPISTEMIC = _set(CUES.epistemic);
const FRAME_OPENERS = _set(CUES.frameOpeners);
const OPEN = _set(CUES.open);
const ALTERNATIVES = _set(CUES.alternatives);
const OR_EXCEPTIONS = _set(CUES.orExceptions);
const DATE_REFERENCE = _set(CUES.dateReference);
const CHANGE_VERBS = new Set(CUES.changeVerbs.map((p) => stemToken(p[0])));

/** Start index of the last occurrence of any phrase lying wholly inside `[lo, hi)`, or -1. */
function _lastPhrase(tokens: string[], lo: number, hi: number, phrases: string[][]): number {
  for (let k = hi - 1; k >= lo; k--) {
    for (const p of phrases) {
      if (k + p.length <= hi && p.every((w, j) => tokens[k + j] === w)) return k;
    }
  }
  return -1;
}

/** Start index of the first occurrence of any phrase starting inside `[lo, hi)`, or -1. */
function _firstPhrase(tokens: string[], lo: number, hi: number, phrases: string[][]): number {
  for (let k = lo; k < hi; k++) {
    for (const p of phrases) {
      if (k + p.length <= hi && p.every((w, j) => tokens[k + j] === w)) return k;
    }
  }
  return -1;
}

/** Whether `[k, k + n)` is covered by one of `phrases` placed anywhere around it. */
function _inPhrase(tokens: string[], k: number, phrases: string[][]): boolean {
  return phrases.some((p) =>
    p.some((_, offset) => k - offset >= 0 && p.every((w, j) => tokens[k - offset + j] === w))
  );
}

interface _Bounds {
  sentenceStart: number;
  sentenceEnd: number;
  clauseStart: number;
  clauseEnd: number;
}

function _bounds(tokens: string[], m: Mention): _Bounds {
  const isClauseBreak = (t: string) => t.startsWith(BREAK_PREFIX) || CLAUSE_WORDS.has(t);
  let sentenceStart = m.start, clauseStart = m.start;
  while (sentenceStart > 0 && !SENTENCE_END.has(tokens[sentenceStart - 1])) sentenceStart--;
  while (clauseStart > 0 && !isClauseBreak(tokens[clauseStart - 1])) clauseStart--;
  let sentenceEnd = m.end, clauseEnd = m.end;
  while (sentenceEnd < tokens.length && !SENTENCE_END.has(tokens[sentenceEnd])) sentenceEnd++;
  while (clauseEnd < tokens.length && !isClauseBreak(tokens[clauseEnd])) clauseEnd++;
  return { sentenceStart, sentenceEnd, clauseStart, clauseEnd };
}

/** Sentence start after the last contrast word before the mention ("not sure, but X"). */
function _afterContrast(tokens: string[], from: number, to: number): number {
  for (let k = to - 1; k >= from; k--) if (CLAUSE_WORDS.has(tokens[k])) return k + 1;
  return from;
}

/** Is a negation at `k` an ordinary one (not "not only", not an epistemic frame)? */
function _isNegation(tokens: string[], k: number): boolean {
  return NEGATION.has(tokens[k]) && !_inPhrase(tokens, k, CUES.negationExceptions);
}

/**
 * Is the mention (at `hi`) inside an epistemic frame opened in `[lo, hi)`? "unclear", "whether"
 * open one to the end of the sentence; "not sure" does when "whether", "if", "about" or the like
 * follows it ("not sure whether X"), else only to the end of its clause ("not sure, X" commits).
 */
function _isFrame(tokens: string[], lo: number, hi: number, clauseStart: number): boolean {
  for (let k = lo; k < hi; k++) {
    if (OPEN.has(tokens[k])) return true;
    if (!NEGATION.has(tokens[k])) continue;
    for (let j = k + 1; j <= Math.min(hi - 1, k + 3); j++) {
      if (!EPISTEMIC.has(tokens[j])) continue;
      if (k >= clauseStart || FRAME_OPENERS.has(tokens[j + 1] ?? "")) return true;
    }
  }
  return false;
}

/** A change verb ("moved", "changed", "upgrade") within three tokens before `k`. */
function _changeVerbBefore(tokens: string[], k: number, lo: number): boolean {
  for (let j = k - 1; j >= Math.max(lo, k - 3); j--) {
    if (CHANGE_VERBS.has(stemToken(tokens[j]))) return true;
  }
  return false;
}

/** Mentions that are one side of a disjunction, a "between ... and" or a numeric range. */
function _alternatives(tokens: string[], mentions: Mention[]): Set<number> {
  const marked = new Set<number>();
  const inside = (k: number) => mentions.some((m) => m.start <= k && k < m.end);
  const sameSentence = (a: number, b: number) => {
    for (let k = Math.min(a, b); k < Math.max(a, b); k++) {
      if (SENTENCE_END.has(tokens[k])) return false;
    }
    return true;
  };
  // Every mention overlapping the side offered: in "rice and chicken or kibble" both the whole
  // answer and its item "chicken" are offered, in "... or Caroline Jones" also "Jones".
  const mark = (m: Mention | undefined) =>
    m && mentions.forEach((o, i) => o.start < m.end && m.start < o.end && marked.add(i));
  const nextNonBreak = (k: number) => {
    let j = k + 1;
    while (j < tokens.length && tokens[j].startsWith(BREAK_PREFIX)) j++;
    return tokens[j];
  };
  tokens.forEach((t, k) => {
    if (inside(k)) return;
    if (ALTERNATIVES.has(t) && !OR_EXCEPTIONS.has(nextNonBreak(k) ?? "")) {
      const left = mentions.filter((m) => m.end <= k && sameSentence(m.end, k))
        .sort((a, b) => b.end - a.end)[0];
      const right = mentions.filter((m) => m.start > k && sameSentence(k, m.start))
        .sort((a, b) => a.start - b.start)[0];
      mark(left);
      mark(right);
    } else if (t === "between") {
      const first = mentions.filter((m) => m.start > k && sameSentence(k, m.start))
        .sort((a, b) => a.start - b.start)[0];
      if (!first) return;
      const and = tokens.indexOf("and", first.end);
      if (and < 0 || !sameSentence(k, and)) return;
      mark(first);
      mark(
        mentions.filter((m) => m.start > and && sameSentence(and, m.start)).sort((a, b) =>
          a.start - b.start
        )[0],
      );
    } else if (
      t === "to" && /^\d/.test(tokens[k - 1] ?? "") && /^\d/.test(tokens[k + 1] ?? "") &&
      !tokens.slice(Math.max(0, k - 3), k).includes("from")
    ) {
      mentions.forEach((m, i) => {
        if (m.end === k || m.start === k + 1) marked.add(i);
      });
    }
  });
  return marked;
}

function _stance(tokens: string[], m: Mention, others: Mention[]): Stance {
  const b = _bounds(tokens, m);
  if (tokens[b.sentenceEnd] === `${BREAK_PREFIX}?`) return "open";
  const frameFrom = _afterContrast(tokens, b.sentenceStart, m.start);
  if (_isFrame(tokens, frameFrom, m.start, b.clauseStart)) return "open";
  if (b.clauseStart > 0 && CONCESSIVE.has(tokens[b.clauseStart - 1])) return "aside";
  // "a few days after June 29": a date given as a reference point, not as the answer.
  if (tokens[m.start].startsWith("date:") && DATE_REFERENCE.has(tokens[m.start - 1] ?? "")) {
    return "aside";
  }

  const before = (phrases: string[][]) => _lastPhrase(tokens, b.clauseStart, m.start, phrases) >= 0;
  const after = (phrases: string[][], width: number) =>
    _firstPhrase(tokens, m.end, Math.min(b.clauseEnd, m.end + width), phrases) >= 0;

  // Past before negation: "no longer X" and "not X anymore" report an old value.
  const from = tokens.slice(Math.max(b.clauseStart, m.start - 2), m.start).lastIndexOf("from");
  const fromAt = from < 0 ? -1 : Math.max(b.clauseStart, m.start - 2) + from;
  const fromTo = fromAt >= 0 &&
    (_changeVerbBefore(tokens, fromAt, b.clauseStart) ||
      tokens.slice(m.end, b.sentenceEnd).includes("to"));
  if (before(CUES.past) || after(CUES.pastAfter, 4) || fromTo) return "past";

  for (let k = m.start - 1; k >= b.clauseStart; k--) {
    if (_isNegation(tokens, k)) return "negated";
  }
  if (before(CUES.negationPhrases) || after(CUES.negatedAfter, 4)) return "negated";

  // Sentence-wide cues count only when no other mention stands between cue and mention.
  const near = (phrases: string[][], exceptions: string[][] = []) => {
    const k = _lastPhrase(tokens, b.sentenceStart, m.start, phrases);
    if (k < 0 || _inPhrase(tokens, k, exceptions)) return false;
    return !others.some((o) => o.start > k && o.end <= m.start);
  };
  if (near(CUES.conclusive, CUES.conclusiveExceptions)) return "concluded";
  if (near(CUES.correction) || after(CUES.correctionAfter, 3)) return "corrected";

  const to = tokens.slice(Math.max(b.clauseStart, m.start - 2), m.start).lastIndexOf("to");
  const toAt = to < 0 ? -1 : Math.max(b.clauseStart, m.start - 2) + to;
  const changedTo = toAt >= 0 &&
    (_changeVerbBefore(tokens, toAt, b.clauseStart) ||
      tokens.slice(b.clauseStart, toAt).includes("from"));
  if (before(CUES.current) || after(CUES.currentAfter, 3) || changedTo) return "current";

  if (before(CUES.tentative) || before(CUES.distancing) || after(CUES.tentative, 2)) {
    return "tentative";
  }
  return before(CUES.reported) ? "reported" : "affirmed";
}

/**
 * The stance of each mention (same order), given the output's judge tokens and all mentions of
 * both answers (a disjunction links mentions of either).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mentionStances } from "./mention_stance.ts";
 * import { answerTokens } from "./answer_tokens.ts";
 * const tokens = answerTokens("Denver, not Vancouver.");
 * const mentions = [{ variant: 0, item: 0, start: 0, end: 1 }, { variant: 0, item: 0, start: 3, end: 4 }];
 * assert.deepEqual(mentionStances({ tokens, mentions }), ["affirmed", "negated"]);
 * ```
 */
export function mentionStances(options: {
  /** The output's judge tokens (`answerTokens`). */
  tokens: string[];
  /** Mentions of both answers. */
  mentions: Mention[];
}): Stance[] {
  const { tokens, mentions } = options;
  const alternatives = _alternatives(tokens, mentions);
  return mentions.map((m, i) => {
    const stance = _stance(tokens, m, mentions.filter((_, j) => j !== i));
    // A question or an open frame says more than "or" does; otherwise "or" wins.
    if (alternatives.has(i) && stance !== "open" && stance !== "negated") return "alternative";
    return stance;
  });
}
