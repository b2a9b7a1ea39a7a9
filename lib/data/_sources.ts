/** Private helpers the dataset adapters share: answer cleaning, entity lists, wh-words. */
import { MONTH_NAMES } from "../text/months.ts";
import { matchesAnswer } from "../text/matches.ts";
import { stemToken } from "../text/normalize.ts";
import { contentWords } from "./_text.ts";
import { choiceOf } from "./answer_kind.ts";
import { questionHead } from "./question_head.ts";
import type { QuestionSource, SwapCandidate } from "./question_source.ts";

/** Other questions with answers, those sharing most content words with `question` first. */
export function similarAnswers(
  question: string,
  others: readonly { question: string; answer: string }[],
): { question: string; answer: string }[] {
  const cache = new Map<string, Set<string>>();
  const wordsOf = (q: string) => cache.get(q) ?? cache.set(q, contentWords(q)).get(q)!;
  const words = wordsOf(question);
  return others
    .map((o, i) => ({ o, i, score: [...wordsOf(o.question)].filter((w) => words.has(w)).length }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ o }) => ({ question: o.question, answer: o.answer }));
}

/** What `widenLikeAnswers` reads and fills in a question source. */
type _Pooled = Pick<QuestionSource, "id" | "question" | "answer" | "people" | "sameKindAnswers">;

/**
 * Replace each source's `sameKindAnswers` with like-question answers from the whole dataset
 * (`likeAnswers`): its own conversation's questions (the sources whose id shares its prefix
 * before ":q") first, then the other conversations', each with its conversation's people.
 */
export function widenLikeAnswers<T extends _Pooled>(sources: T[]): void {
  const conversation = (id: string) => id.replace(/:q\d+$/, "");
  const groups = new Map<string, T[]>();
  for (const s of sources) {
    const key = conversation(s.id);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const entry = (s: T) => ({
    question: s.question,
    answer: s.answer,
    people: s.people ?? [],
  });
  for (const [key, group] of groups) {
    const others = [...groups].flatMap(([k, g]) => k === key ? [] : g.map(entry));
    for (const source of group) {
      source.sameKindAnswers = likeAnswers({
        question: source.question,
        own: group.filter((s) => s !== source).map(entry),
        others,
        people: source.people ?? [],
      });
    }
  }
}

/** Options for {@link likeAnswers}. */
export interface LikeAnswersOptions {
  /** The question a target is wanted for. */
  question: string;
  /** Cleaned answers of the other questions of the same conversation (or user). */
  own: readonly SwapCandidate[];
  /** Cleaned answers from the rest of the dataset, each with the people of its conversation. */
  others: readonly (SwapCandidate & { people: readonly string[] })[];
  /** People of the question's own conversation; default none. */
  people?: readonly string[];
  /** Most answers from the rest of the dataset; default 30. */
  limit?: number;
}

const _HEAD_CACHE = new Map<string, ReturnType<typeof questionHead>>();
const _WORD_CACHE = new Map<string, Set<string>>();
const _words = (q: string) => _WORD_CACHE.get(q) ?? _WORD_CACHE.set(q, contentWords(q)).get(q)!;
const _head = (q: string) =>
  _HEAD_CACHE.get(q) ?? _HEAD_CACHE.set(q, questionHead({ question: q })).get(q)!;

/**
 * Answer-swap candidates from the whole dataset: the same conversation's answers with the same
 * wh-word (most similar question first), then answers from other conversations whose question
 * has the same wh-word, shares a topic word besides its head noun and verb, and has the same
 * head noun or main verb (or shares two topic words), most similar first; an answer from elsewhere that names a person of its own conversation who is not of
 * this one is left out ("Melanie's daughter" means nothing in another chat).
 */
export function likeAnswers(options: LikeAnswersOptions): SwapCandidate[] {
  const { question } = options;
  const wh = whWord(question);
  const head = _head(question);
  const words = _words(question);
  const own = similarAnswers(question, options.own.filter((c) => whWord(c.question) === wh));
  const known = new Set(options.people ?? []);
  const foreign = (c: { answer: string; people: readonly string[] }) =>
    c.people.some((p) => !known.has(p) && new RegExp(`\\b${p}\\b`).test(c.answer));
  // From another conversation, a like question also shares a topic word beyond its head noun
  // and verb: "What activity did Ann enjoy on her drives?" is no "What activity helps Bo sleep?".
  const topic = new Set(
    [...words].filter((w) =>
      stemToken(w) !== stemToken(head.noun ?? "") && stemToken(w) !== head.verb
    ),
  );
  const others = options.others.filter((c) => {
    if (whWord(c.question) !== wh || foreign(c)) return false;
    const shared = [..._words(c.question)].filter((w) => topic.has(w)).length;
    if (shared === 0) return false;
    const h = _head(c.question);
    if (head.noun !== null && h.noun === head.noun) return true;
    if (head.noun === null && h.noun === null && head.verb !== null && h.verb === head.verb) {
      return true;
    }
    return shared >= 2;
  });
  return [...own, ...similarAnswers(question, others).slice(0, options.limit ?? 30)];
}

/** Longest gold answer (in words) the builder keeps; longer ones are explanations, not answers. */
export const _MAX_ANSWER_WORDS = 10;

/** The skip reason of a question whose answer `cleanAnswerOrNull` cannot use. */
export const UNUSABLE_ANSWER =
  "answer not usable (over 10 words, yes/no or hedged, or stated in the question)";

/** A cleaned gold answer with the alternatives it names, or why the item has no usable answer. */
export type CleanedAnswer = { answer: string; alsoAccepted: string[] } | { skip: string };

const _HEDGE_LEAD =
  /^(?:most likely|more likely|very likely|likely|probably|presumably|possibly|perhaps|maybe)\b[,:]?\s*/i;
const _NUMBER_PHRASE =
  /(?:\$\s?)?\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)\b(?:\s+(?!(?:before|after|on|in|at|for|to|of|from|with|and|that|which|when|while|during|since|so|but|as|than|by)\b)[a-z][a-z-]*){0,3}/i;

/**
 * The gold answer the builder keeps, cleaned to a short matchable string, with the alternatives
 * the benchmark names beside it, or the reason the item is skipped. Whitespace and a trailing
 * period go; an alternative in brackets ("11 days (or 12 days, if ...)") becomes an accepted
 * answer; a leading hedge is dropped ("Most likely John's partner" -> "John's partner"); the
 * answer to a count ("How many ...?", "How long ...?") told in more than four words is reduced
 * to the number phrase of its first sentence, or of the one saying what holds now ("I attended
 * three weddings. The couples were ..." -> "three weddings"; "... you led 4 engineers. Now,
 * you lead 5 engineers" -> "5 engineers").
 * Skipped: no answer; a question asking two things answered in two sentences; yes/no answers (a
 * bare "yes" matches any "yes", and the judge's token matcher cannot see the negation of a
 * statement); answers longer than `_MAX_ANSWER_WORDS`;
 * answers the question itself contains, unless the question offers them as options
 * ("Which came first, the bike or the car?").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cleanAnswer } from "./_sources.ts";
 * assert.deepEqual(cleanAnswer({ answer: "I attended three weddings. The couples were A and B.", question: "How many weddings have I attended?" }),
 *   { answer: "three weddings", alsoAccepted: [] });
 * assert.deepEqual(cleanAnswer({ answer: "11 days (or 12 days, if the last day counts)", question: "How many days?" }),
 *   { answer: "11 days", alsoAccepted: ["12 days"] });
 * assert.deepEqual(cleanAnswer({ answer: "Most likely John's partner.", question: "Who is Jill?" }), { answer: "John's partner", alsoAccepted: [] });
 * assert.deepEqual(cleanAnswer({ answer: "Likely yes", question: "Does Ann live in Ohio?" }), { skip: "yes/no answer" });
 * ```
 */
export function cleanAnswer(
  options: { answer: string | number | undefined; question: string },
): CleanedAnswer {
  const { question } = options;
  if (options.answer === undefined) return { skip: "no answer" };
  // "How many did I lead then? How many now?" answered in two sentences: one short answer
  // cannot carry both.
  const sentences = String(options.answer).split(/(?<=[.!?])\s+(?=[A-Z])/).length;
  if ((question.match(/\?/g) ?? []).length >= 2 && sentences >= 2) {
    return { skip: "question asks two things" };
  }
  let answer = String(options.answer).replace(/\s+/g, " ").trim();
  const alsoAccepted: string[] = [];
  // "11 days (or 12 days, if ...)": the bracketed alternative is accepted too.
  answer = answer.replace(/\s*\((?:or|i\.e\.,?)\s+([^,)]+)[^)]*\)/i, (_, alt: string) => {
    alsoAccepted.push(alt.trim());
    return "";
  });
  answer = answer.replace(/[.\s]+$/, "").replace(_HEDGE_LEAD, "");
  if (answer === "") return { skip: "no answer" };
  // A stray character ("The sunday before 3` July 2023") leaves the gold unreadable as written.
  if (/[`~^|\\{}<>]/.test(answer)) return { skip: "malformed answer" };
  if (/^(?:yes|no|not|unlikely)\b/i.test(answer)) return { skip: "yes/no answer" };
  // A count told in a sentence ("I attended three weddings. The couples were ..."): the number
  // phrase of its first sentence, or of the one saying what holds now.
  const count = /^how (?:many|much|long|often|old)\b/i.test(_lastSentence(question));
  if (count && answer.split(" ").length > 4) {
    const sentences = answer.split(/(?<=[.!?])\s+(?=[A-Z0-9"'])/).filter((x) => /\w/.test(x));
    const told = sentences.find((x) => /^(?:now|currently|today)\b/i.test(x)) ?? sentences[0];
    const phrase = _NUMBER_PHRASE.exec(told.replace(/:\s.*$/, ""));
    if (phrase !== null) answer = phrase[0].trim().replace(/[.,]+$/, "");
  }
  if (answer.split(" ").length > _MAX_ANSWER_WORDS) return { skip: "answer longer than 10 words" };
  if (matchesAnswer(question, answer) && choiceOf(question, answer) === null) {
    return { skip: "question contains the answer" };
  }
  return { answer, alsoAccepted };
}

function _lastSentence(question: string): string {
  return question.trim().split(/(?<=[.!?])\s+/).filter((x) => /\w/.test(x)).at(-1) ?? "";
}

/** A cleaned short answer (see {@link cleanAnswer}), or null when the item has no usable answer. */
export function cleanAnswerOrNull(
  raw: string | number | undefined,
  question: string,
): string | null {
  const cleaned = cleanAnswer({ answer: raw, question });
  return "skip" in cleaned ? null : cleaned.answer;
}

/** The question's wh-word, for same-kind answer swaps. */
export function whWord(question: string): string {
  const m = /\b(when|what|where|who|which|why|how\s+(?:long|many|much|often|old)|how)\b/i.exec(
    question,
  );
  return m ? m[1].toLowerCase().replace(/\s+/g, " ") : "other";
}

const _NOT_NAMES = new Set([
  "The",
  "This",
  "That",
  "What",
  "When",
  "Where",
  "How",
  "Yes",
  "And",
  "But",
  "Thanks",
  "Thank",
  "Hey",
  "Wow",
  "Its",
  "It's",
  "You",
  "Your",
  "They",
  "She",
  "His",
  "Her",
  "Our",
  "Here",
  "There",
  "Sure",
  "Great",
  "Also",
  "Just",
  "Have",
  "Did",
]);

/** Capitalized words that appear mid-sentence at least twice: names of people, places, things. */
export function namedEntities(texts: readonly string[], limit: number): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(/(?<=[a-z,]\s)([A-Z][a-z]{2,})\b/g)) {
      if (_NOT_NAMES.has(m[1])) continue;
      counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
    }
  }
  return [...counts].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit).map(([w]) => w);
}

const _RELATION_WORDS =
  "friend|friends|sister|brother|mom|mother|dad|father|wife|husband|son|daughter|cousin|aunt|" +
  "uncle|grandma|grandpa|grandmother|grandfather|boyfriend|girlfriend|partner|coworker|" +
  "colleague|boss|neighbor|neighbour|roommate|teammate|coach|mentor|buddy|niece|nephew|" +
  "fiancé|fiancée|fiance|classmate|bestie";

const _NOT_PEOPLE = new Set([
  ..."January|February|March|April|May|June|July|August|September|October|November|December"
    .split("|"),
  ..."Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday".split("|"),
  "The",
  "My",
  "Her",
  "His",
  "Our",
  "User",
  "Assistant",
]);

/**
 * Names of people: the speakers, and capitalized words right after a relationship word
 * ("my friend Ines", "my sister named Emily"); never a weekday or month.
 */
export function peopleNames(texts: readonly string[], speakers: readonly string[]): string[] {
  const out = new Set(speakers.filter((s) => !_NOT_PEOPLE.has(s)));
  const re = new RegExp(
    `\\b(?:${_RELATION_WORDS}),?\\s+(?:named\\s+|called\\s+)?([A-Z][a-z]{2,})\\b`,
    "g",
  );
  for (const text of texts) {
    for (const m of text.matchAll(re)) if (!_NOT_PEOPLE.has(m[1])) out.add(m[1]);
  }
  return [...out].sort();
}

/** "1:56 pm on 8 May, 2023" or "2023/05/21 (Sun) 19:50" -> "8 May 2023"; other text unchanged. */
export function sessionDate(raw: string): string {
  const iso = /(\d{4})\/(\d{1,2})\/(\d{1,2})/.exec(raw);
  if (iso) return `${Number(iso[3])} ${MONTH_NAMES[Number(iso[2]) - 1]} ${iso[1]}`;
  const dmy = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(raw);
  return dmy ? `${Number(dmy[1])} ${dmy[2]} ${dmy[3]}` : raw.trim();
}
