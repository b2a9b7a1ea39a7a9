/**
 * Does the benchmark's annotated evidence support its gold answer? The builder keeps a question
 * only when it does, so a helpful trace never asks the agent for an answer its evidence lacks
 * (LoCoMo's "sunset" question whose evidence never mentions one; an evidence turn that is about
 * someone else). The check is by kind of answer, from the evidence turns alone.
 */
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens, stemToken } from "../text/normalize.ts";
import type { AnswerKind } from "./answer_kind.ts";
import type { SourceTurn } from "./question_source.ts";
import { resolveRelativeDates } from "./relative_dates.ts";

/**
 * How the evidence supports y*: `stated` (a turn says it), `resolved` (a turn says it once its
 * relative dates are read against the session date: "yesterday" on 8 May 2023 for 7 May 2023),
 * `dated` (a date y* is the evidence session's own date or month), `derived` (the answer is
 * worked out from what the turns say: a total, a difference, an order, an inference whose words
 * the evidence uses).
 */
export type EvidenceSupport = "stated" | "resolved" | "dated" | "derived";

/** Question types whose answers are worked out across turns rather than read off one. */
const REASONING_TYPES = new Set([
  "multi-hop",
  "temporal",
  "open-domain",
  "multi-session",
  "temporal-reasoning",
  "knowledge-update",
]);

/** A turn that says when something happened relative to the session, or names a time. */
const TIME_CUE = new RegExp(
  "\\b(?:yesterday|today|tonight|tomorrow|ago|recently|" +
    "(?:last|next|this|past) (?:week|weekend|month|year|night|morning|afternoon|evening|" +
    "spring|summer|autumn|fall|winter)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|" +
    "weekend|january|february|march|april|may|june|july|august|september|october|november|" +
    "december|\\d{4})\\b",
  "i",
);

/** Words that frame an answer without naming what it is about. */
const FRAME_WORDS = new Set(
  "user prefer prefers preferred would response responses suggestion suggestions recommend " +
    "recommendation recommendations such like especially also their they them that this with " +
    "from about into your you yours mine likely because since which what when where".split(" "),
);

function _stems(text: string): Set<string> {
  return new Set(
    normalizeTokens(text).filter((t) => t.length > 3 && !FRAME_WORDS.has(t)).map(stemToken),
  );
}

/** A count from one to twelve that an answer states ("three times", "4"), or null. */
function _smallCount(answer: string): number | null {
  const token = normalizeTokens(answer).find((t) => /^\d+$/.test(t));
  const n = token === undefined ? NaN : Number(token);
  return n >= 1 && n <= 12 ? n : null;
}

/** The question's last sentence (LongMemEval questions open with a preamble). */
function _lastSentence(question: string): string {
  return question.split(/(?<=[.!?])\s+/).filter((x) => /\w/.test(x)).at(-1) ?? question;
}

/** The year and month of the first date a text states (month null for a bare year). */
function _yearMonth(text: string): { year: string; month: string | null } | null {
  const token = normalizeTokens(text).find((t) => t.startsWith("date:"));
  if (token !== undefined) {
    const [year, month] = token.slice(5).split("-");
    if (year !== "_") return { year, month: month === "_" ? null : month };
  }
  const year = /\b(?:19|20)\d{2}\b/.exec(text)?.[0];
  return year === undefined ? null : { year, month: null };
}

/**
 * How the annotated evidence supports the gold answer, or null when it does not:
 * - any answer: `stated` when an evidence turn states y* (the judge's matcher), `resolved` when
 *   it does after its relative dates are resolved against its session date;
 * - a date: `dated` when y* is (or contains) an evidence session's date; in a reasoning type
 *   (LoCoMo multi-hop, temporal, open-domain; LongMemEval multi-session, temporal-reasoning,
 *   knowledge-update) `derived` when y*'s month (a bare year: its year) is an evidence
 *   session's and an evidence turn says when (a relative time, a weekday, a month, a year);
 * - a number in a reasoning type: `derived` (a total, a difference or a count over the turns;
 *   a "How many" count of n needs n evidence turns on the question's topic, or a turn that
 *   states a number); in a single-session type it must be stated;
 * - any other answer: `derived` when the evidence uses at least half of y*'s content words
 *   (stems, ignoring the question's own words and framing words), at least one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evidenceSupport } from "./evidence_support.ts";
 * const turn = (text: string) => ({ session: "s", date: "8 May 2023", speaker: "Ann", channel: "user" as const, text, order: 0 });
 * const base = { question: "When did Ann adopt her cat?", category: "temporal", kind: "date" as const };
 * assert.equal(evidenceSupport({ ...base, answer: "7 May 2023", evidence: [turn("I adopted Tom yesterday!")] }), "resolved");
 * assert.equal(evidenceSupport({ ...base, answer: "7 May 2023", evidence: [turn("We got Tom last week.")] }), "derived");
 * assert.equal(evidenceSupport({ ...base, answer: "7 May 2023", evidence: [turn("Tom loves tuna.")] }), null);
 * assert.equal(evidenceSupport({ ...base, answer: "7 March 2023", evidence: [turn("We got Tom last week.")] }), null);
 * const sunset = { question: "What did Ann paint?", category: "single-hop", kind: "entity" as const, answer: "sunset" };
 * assert.equal(evidenceSupport({ ...sunset, evidence: [turn("I painted a lake at dawn.")] }), null);
 * ```
 */
export function evidenceSupport(options: {
  /** Gold answer y*. */
  answer: string;
  /** Its kind. */
  kind: AnswerKind;
  /** The question asked. */
  question: string;
  /** The benchmark's question type (stratum). */
  category: string;
  /** The annotated evidence turns. */
  evidence: readonly SourceTurn[];
}): EvidenceSupport | null {
  const { answer, kind, evidence } = options;
  if (evidence.length === 0) return null;
  if (evidence.some((t) => matchesAnswer(t.text, answer))) return "stated";
  const resolved = evidence.map((t) => resolveRelativeDates({ text: t.text, date: t.date }));
  if (resolved.some((text) => matchesAnswer(text, answer))) return "resolved";
  const reasoning = REASONING_TYPES.has(options.category);
  if (kind === "date") {
    if (evidence.some((t) => matchesAnswer(t.date, answer))) return "dated";
    // Worked out from the sessions' dates: y*'s month (or year, for a bare year) is a session's,
    // and the evidence says when, relative to its session ("last Sunday", "two weeks ago").
    const when = _yearMonth(answer);
    return reasoning && when !== null && evidence.some((t) => TIME_CUE.test(t.text)) &&
        evidence.some((t) => {
          const session = _yearMonth(t.date);
          return session !== null && session.year === when.year &&
            (when.month === null || session.month === when.month);
        })
      ? "derived"
      : null;
  }
  if (kind === "number") {
    if (!reasoning) return null;
    // A count worked out across turns ("How many hikes has Joanna been on? Four") needs as many
    // turns on the question's topic, unless a turn states a number to count from.
    const count = _smallCount(answer);
    if (count !== null && /^\s*how many\b/i.test(_lastSentence(options.question))) {
      const topic = _stems(options.question);
      const onTopic = evidence.filter((t) => [..._stems(t.text)].some((w) => topic.has(w)));
      const numbered = evidence.some((t) =>
        /\d|\b(?:two|three|four|five|six|seven|eight|nine|ten)\b/i.test(t.text)
      );
      if (onTopic.length < count && !numbered) return null;
    }
    return "derived";
  }
  const question = _stems(options.question);
  const wanted = [..._stems(answer)].filter((w) => !question.has(w));
  if (wanted.length === 0) return reasoning ? "derived" : null;
  const said = _stems(resolved.join(" "));
  const found = wanted.filter((w) => said.has(w)).length;
  return found >= Math.max(1, Math.ceil(wanted.length / 2)) ? "derived" : null;
}
