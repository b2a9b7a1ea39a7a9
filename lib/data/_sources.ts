/** Private helpers the dataset adapters share: answer cleaning, entity lists, wh-words. */
import { MONTH_NAMES } from "../text/months.ts";
import { matchesAnswer } from "../text/matches.ts";
import { _contentWords } from "./_text.ts";

/** Other questions with answers, those sharing most content words with `question` first. */
export function _similarAnswers(
  question: string,
  others: readonly { question: string; answer: string }[],
): { question: string; answer: string }[] {
  const cache = new Map<string, Set<string>>();
  const wordsOf = (q: string) => cache.get(q) ?? cache.set(q, _contentWords(q)).get(q)!;
  const words = wordsOf(question);
  return others
    .map((o, i) => ({ o, i, score: [...wordsOf(o.question)].filter((w) => words.has(w)).length }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ o }) => ({ question: o.question, answer: o.answer }));
}

/** Longest gold answer (in words) the builder keeps; longer ones are explanations, not answers. */
export const _MAX_ANSWER_WORDS = 10;

/** The skip reason of a question whose answer `_cleanAnswer` cannot use. */
export const UNUSABLE_ANSWER =
  "answer not usable (over 10 words, yes/no or hedged, or stated in the question)";

/** A cleaned short answer, or null when the item has no matchable answer. */
export function _cleanAnswer(raw: string | number | undefined, question: string): string | null {
  if (raw === undefined) return null;
  const answer = String(raw).replace(/\s+/g, " ").trim().replace(/[.\s]+$/, "");
  if (answer === "" || answer.split(" ").length > _MAX_ANSWER_WORDS) return null;
  // Yes/no and hedged inferences have no type-aware target and match common words everywhere.
  if (
    /^(?:yes|no|likely|probably|presumably|possibly|maybe|perhaps|not|unlikely)\b/i.test(answer)
  ) {
    return null;
  }
  if (matchesAnswer(question, answer)) return null;
  return answer;
}

/** The question's wh-word, for same-kind answer swaps. */
export function _whWord(question: string): string {
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
export function _entities(texts: readonly string[], limit: number): string[] {
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
export function _people(texts: readonly string[], speakers: readonly string[]): string[] {
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
export function _sessionDate(raw: string): string {
  const iso = /(\d{4})\/(\d{1,2})\/(\d{1,2})/.exec(raw);
  if (iso) return `${Number(iso[3])} ${MONTH_NAMES[Number(iso[2]) - 1]} ${iso[1]}`;
  const dmy = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(raw);
  return dmy ? `${Number(dmy[1])} ${dmy[2]} ${dmy[3]}` : raw.trim();
}
