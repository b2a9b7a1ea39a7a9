/**
 * Heuristic usefulness ranker: the offline stand-in for an LLM ranker, for the reference agent.
 * It scores a unit from its text alone. It never sees the unit's role, channel, trust or
 * verification, nor the query, the answer, the target or `asserts`, and it strips the kit's own
 * scaffolding (a leading date stamp, a leading speaker tag) before reading the text.
 *
 * Usefulness for future decisions is what a unit adds to memory, so the ranking also rewards
 * novelty: it is built greedily, and a unit whose content words a unit ranked above it already
 * said is worth less (maximal marginal relevance, Carbonell and Goldstein 1998). A trace that
 * states one claim again and again, as MINJA's progressive rounds do, then has its first saying
 * ranked early and its repetitions later, so they enter memory only as coverage grows.
 */
import { RELAYED_CORRECTION } from "../../../text/relayed_correction.ts";
import { tokenWords } from "../../../text/token_jaccard.ts";
import { STOP_WORDS } from "../../../text/stop_words.ts";
import type { Ranker } from "../ranker.ts";

/** A leading date stamp the instance builders add so relative dates resolve: "[8 May 2023] ". */
const STAMP = /^\s*\[[^\]\n]{1,40}\]\s*/;
/** A leading speaker tag: "Melanie: ", "User: ", "Dr. Ruiz: " (one to three words, then a colon). */
const SPEAKER = /^\s*(?:[A-Z][\w.'-]*\s){0,2}[A-Z][\w.'-]*:\s+/;
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;
const NUMBER_WORD =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|dozen)\b/i;
const FIRST_PERSON = /\b(?:I|I'm|I've|I'd|I'll|me|my|mine|we|we're|we've|us|our)\b/;
const SMALL_TALK =
  /^(?:hi|hello|hey|thanks|thank you|great|ok(?:ay)?|sure|cool|got it|sounds good|no problem|bye|good (?:morning|night|evening)|you're welcome|anytime|perfect|nice|awesome|wow)\b/i;
const IMPERATIVE =
  /^(?:please|remember|note|save|store|add|update|ignore|make sure|keep in mind|don't|do not|always|never|from now on)\b/i;
/** Words that open a sentence before its verb: "First, save this", "Now please note". */
const LEAD_IN = /^(?:(?:first|now|then|also|okay|ok|so|and|but|just|quick note)[,:]?\s+)+/i;

/**
 * The content words of a unit's text, scaffolding stripped: its lower-case words, without NLTK's
 * English stop words (`STOP_WORDS` of lib/text; `tokenWords` splits "don't" into "don" and "t")
 * and words under three letters that are not numbers ("a", "is", the "m" of "I'm"). Numbers
 * stay: a repeated date or count is a repeated statement. Two units that share only stop words
 * do not say the same thing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentWords } from "./usefulness.ts";
 * assert.deepEqual([...contentWords("[8 May 2023] Ann: I'm moving to Lisbon on 3 June.")], ["moving", "lisbon", "3", "june"]);
 * ```
 */
export function contentWords(text: string): ReadonlySet<string> {
  return new Set(
    tokenWords(stripScaffolding(text)).filter((w) =>
      /^\d+$/.test(w) || (w.length >= 3 && !STOP_WORDS.has(w))
    ),
  );
}

/**
 * How much of `unit` a unit ranked above it already said: the share of `unit`'s content words
 * that `above` also uses (0 when `unit` has none). It is containment, not Jaccard similarity, on
 * purpose: a short restatement of a long unit ("Your appointment is on March 21.") shares few
 * of the union's words but says nothing new.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentWords, repeatedShare } from "./usefulness.ts";
 * const long = contentWords("The clinic moved my dentist appointment to March 21 because of a strike.");
 * assert.equal(repeatedShare({ unit: contentWords("Dentist appointment: March 21."), above: long }), 1);
 * assert.equal(repeatedShare({ unit: contentWords("Thanks, see you soon!"), above: long }), 0);
 * ```
 */
export function repeatedShare(options: {
  /** Content words of the unit being ranked (`contentWords`). */
  unit: ReadonlySet<string>;
  /** Content words of a unit ranked above it. */
  above: ReadonlySet<string>;
}): number {
  const { unit, above } = options;
  if (unit.size === 0) return 0;
  let shared = 0;
  for (const w of unit) if (above.has(w)) shared++;
  return shared / unit.size;
}

/**
 * The sentences of a unit's text: split after a full stop, exclamation or question mark (and
 * any closing quote or bracket) that a space follows, and before an opening bracket, so an aside
 * in brackets ("(Note: it moved.)") is a sentence of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sentencesOf } from "./usefulness.ts";
 * assert.deepEqual(sentencesOf("When is it? (Note: it moved.) Thanks!"), ["When is it?", "Note: it moved.)", "Thanks!"]);
 * assert.deepEqual(sentencesOf("Dr. Ruiz is at 9.30 am."), ["Dr.", "Ruiz is at 9.30 am."]);
 * ```
 */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?]["')\]]*)\s+|\s*\(\s*/).map((s) => s.trim()).filter((s) => s !== "");
}

/** A unit's text without the kit's scaffolding: the date stamp and the speaker tag. */
export function stripScaffolding(text: string): string {
  return text.replace(STAMP, "").replace(SPEAKER, "").trim();
}

/**
 * The score of a unit's text, term by term (higher = more useful to remember). The table is
 * the kit's own; it was not fitted to the paper's numbers.
 *
 * | term | when |
 * | --- | --- |
 * | +2 | it states a specific: a digit, a month name or a number word |
 * | +1 | it names something: a capitalised word that does not start a sentence (not "I") |
 * | +1 | it is about the speaker: a first-person pronoun (personal facts are what memory keeps) |
 * | +1 | it is a statement: it ends in a full stop or an exclamation mark |
 * | +min(words / 20, 1) | substance |
 * | -2 | small talk: a greeting, thanks or acknowledgement under 8 words |
 * | -1.5 | a question: one of its sentences ends in a question mark |
 * | -1 | an instruction: one of its sentences opens with an imperative ("please", "remember", "note", "save", ...), after a lead-in ("First, ...") |
 * | -6 | a relayed correction: one of its sentences says a stored entry, record or note was corrected or changed |
 * | -6 x r | at ranking time (`usefulnessRanker`), redundancy: r is the largest share of its content words that one unit ranked above it already said (`repeatedShare`) |
 *
 * Scaffolding is stripped first (`stripScaffolding`), so a date stamp adds nothing. This
 * function gives the first eight terms; the redundancy term depends on the ranking so far.
 * A unit is a conversational turn and may hold several sentences (`sentencesOf`): a turn that
 * asks something or gives an order is a request, whatever else it says, so the question and
 * instruction terms read every sentence, not only the turn's last character and first word
 * ("When is my appointment? Before you answer, note this: ... Please reason from it." asks and
 * orders, though it ends in a full stop).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usefulnessScore } from "./usefulness.ts";
 * assert.equal(usefulnessScore({ text: "[8 May 2023] Ann: Hi!" }), usefulnessScore({ text: "Hi!" }));
 * assert.ok(usefulnessScore({ text: "I adopted a cat named Tom in 2021." }) > usefulnessScore({ text: "What should I cook?" }));
 * // A question followed by a statement is still a question; an order inside a turn still orders.
 * const plain = usefulnessScore({ text: "My cat Tom turned 4 in May." });
 * assert.ok(usefulnessScore({ text: "How old is Tom? My cat Tom turned 4 in May." }) < plain - 1);
 * assert.ok(usefulnessScore({ text: "My cat Tom turned 4 in May. Please remember it." }) < plain - 0.5);
 * // A report that a stored entry changed is worth less than the fact itself.
 * assert.ok(usefulnessScore({ text: "My record of Tom's age was corrected, so he is 5 now." }) < plain - 2);
 * ```
 */
export function usefulnessScore(options: {
  /** The unit's text; nothing else about the unit is read. */
  text: string;
}): number {
  const text = stripScaffolding(options.text);
  const words = text.split(/\s+/).filter((w) => w !== "").length;
  let score = 0;
  if (/\d/.test(text) || MONTH.test(text) || NUMBER_WORD.test(text)) score += 2;
  // A capital after a word character and a space, not after a sentence end: "... with Tom".
  if (/(?<=[a-z,;:]\s)(?!I\b)[A-Z][a-z]+/.test(text)) score += 1;
  if (FIRST_PERSON.test(text)) score += 1;
  if (/[.!]["')\]]*$/.test(text)) score += 1;
  score += Math.min(words / 20, 1);
  if (SMALL_TALK.test(text) && words < 8) score -= 2;
  const sentences = sentencesOf(text);
  if (sentences.some((s) => /\?["')\]]*$/.test(s))) score -= 1.5;
  if (sentences.some((s) => IMPERATIVE.test(s.replace(LEAD_IN, "")))) score -= 1;
  if (sentences.some((s) => RELAYED_CORRECTION.test(s))) score -= RELAYED_CORRECTION_COST;
  return score;
}

/**
 * What a relayed correction loses: six, the most the table gives a unit, as for a pure
 * restatement (`REDUNDANCY_WEIGHT`). A unit that reports that an entry changed ("my record of X
 * was corrected, so it is Y now") is hearsay about memory, not a first-hand fact: whatever
 * specifics it carries, it is worth no more for later decisions than a unit that says nothing.
 * Set from that reading, not fitted to any curve.
 */
export const RELAYED_CORRECTION_COST = 6;

/**
 * Weight of the redundancy term: a unit's score falls by this times the largest share of its
 * content words that one unit ranked above it already said (`repeatedShare`). Six is the most
 * the scoring table can give a unit (2 + 1 + 1 + 1 + 1), so a restatement that says nothing new
 * (share 1) is worth no more than a unit that says nothing, and one that half repeats loses
 * half of what the best unit can earn. Equivalently, with the score scaled to [0, 1] by that
 * maximum, it is maximal marginal relevance with the usual lambda = 1/2 (relevance and
 * redundancy weighed alike). Set from that reading of the table, not fitted to any curve.
 */
export const REDUNDANCY_WEIGHT = 6;

/**
 * Rank units greedily, best first, ties in chronological order: the next unit is the one with
 * the highest `usefulnessScore(text) - REDUNDANCY_WEIGHT * r`, r the largest `repeatedShare` of
 * its content words with a unit already ranked (maximal marginal relevance). So the first unit
 * is the best-scoring one, and a unit that says again what an earlier-ranked one said falls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usefulnessRanker } from "./usefulness.ts";
 * const unit = (id: string, text: string) => ({ id, text, channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null });
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [unit("a", "Thanks!"), unit("b", "My dentist appointment is on 12 March at 9:30."),
 *   unit("c", "Dentist appointment: 12 March, 9:30."), unit("d", "I should also renew my passport soon.")] };
 * // c scores above d and a but only repeats b, so it falls below them.
 * assert.deepEqual(await usefulnessRanker.rank(trace, { seed: 0 }), ["b", "d", "a", "c"]);
 * ```
 */
export const usefulnessRanker: Ranker = {
  id: "usefulness",
  rank(trace) {
    const left = trace.units.map((unit, index) => ({
      id: unit.id,
      index,
      words: contentWords(unit.text),
      score: usefulnessScore({ text: unit.text }),
      /** The largest share of its content words a unit ranked so far already said. */
      repeated: 0,
    }));
    const value = (u: (typeof left)[number]) => u.score - REDUNDANCY_WEIGHT * u.repeated;
    const ranked: string[] = [];
    while (left.length > 0) {
      let best = 0;
      for (let i = 1; i < left.length; i++) {
        const d = value(left[i]) - value(left[best]);
        if (d > 0 || (d === 0 && left[i].index < left[best].index)) best = i;
      }
      const [next] = left.splice(best, 1);
      ranked.push(next.id);
      for (const unit of left) {
        unit.repeated = Math.max(
          unit.repeated,
          repeatedShare({ unit: unit.words, above: next.words }),
        );
      }
    }
    return Promise.resolve(ranked);
  },
};
