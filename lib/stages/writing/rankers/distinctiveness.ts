/**
 * Distinctiveness ranker: a second offline heuristic, different from `usefulness`, standing in
 * for the paper's "external" LLM ranker (a ranker that is not the agent's own). It keeps what a
 * trace says only once: a unit whose words recur across the trace (a repeated question, a
 * refrain) is worth less than one whose words appear nowhere else. Like `usefulness` it reads
 * the unit's text alone, never its role, channel, trust, verification or `asserts`, and it
 * strips the kit's scaffolding (date stamp, speaker tag) first. A question counts half, and a
 * relayed correction (a report that a stored entry changed, `RELAYED_CORRECTION`) a quarter: it is
 * hearsay about memory, not a fact.
 */
import type { Trace } from "../../../schema/trace.ts";
import type { Ranker } from "../ranker.ts";
import { RELAYED_CORRECTION } from "../../../text/relayed_correction.ts";
import { sentencesOf, stripScaffolding } from "./usefulness.ts";

/**
 * Words too common to tell units apart (articles, pronouns, auxiliaries, prepositions): this
 * ranker's own short list, not the kit's stop words (`STOP_WORDS`, NLTK's). Figure 5's "external"
 * ranker is meant to differ from `usefulness`; NLTK's list here reorders units on the demo set,
 * LoCoMo and LongMemEval.
 */
const COMMON_WORDS = new Set(
  ("the a an and or but of to in on at for with from by as is are was were be been am it its " +
    "this that these those i you he she we they me my your his her our their them us do does did " +
    "have has had not no so if then than there here what when where which who how why can could " +
    "would should will just about also very really").split(" "),
);

function _words(text: string): string[] {
  return stripScaffolding(text).toLowerCase().match(/[a-z0-9][a-z0-9'-]*/g)?.filter((w) =>
    w.length > 1 && !COMMON_WORDS.has(w)
  ) ?? [];
}

/**
 * Each unit's distinctiveness score within its trace (higher = ranked earlier). The terms:
 *
 * | term | reading |
 * | --- | --- |
 * | sum over the unit's distinct content words w of log(1 + U / df(w)) | a word in few of the trace's U units counts more (inverse document frequency within the trace) |
 * | divided by sqrt(1 + number of distinct content words) | long units do not win by length alone |
 * | times 0.5 when the text ends in a question mark | a question asks rather than tells |
 *
 * Content words are lower-cased words of two or more characters outside a short stop list. The
 * scoring is the kit's own and was not fitted to the paper's numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { distinctivenessScores } from "./distinctiveness.ts";
 * const unit = (id: string, text: string) => ({ id, text, channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null });
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [
 *   unit("a", "Where is the key?"), unit("b", "Where is the key now?"), unit("c", "I left it under the blue flowerpot."),
 * ] };
 * const scores = distinctivenessScores({ trace });
 * assert.ok(scores.get("c")! > scores.get("a")!);
 * ```
 */
export function distinctivenessScores(options: {
  /** The trace whose units are scored together. */
  trace: Trace;
}): Map<string, number> {
  const units = options.trace.units.map((u) => ({
    id: u.id,
    text: u.text,
    words: new Set(_words(u.text)),
  }));
  const df = new Map<string, number>();
  for (const u of units) for (const w of u.words) df.set(w, (df.get(w) ?? 0) + 1);
  const n = units.length;
  return new Map(units.map((u) => {
    let score = 0;
    for (const w of u.words) score += Math.log(1 + n / df.get(w)!);
    score /= Math.sqrt(1 + u.words.size);
    if (/\?["')\]]*\s*$/.test(u.text)) score *= 0.5;
    // A report that a stored entry changed is hearsay about memory for this ranker too.
    if (sentencesOf(u.text).some((s) => RELAYED_CORRECTION.test(s))) score *= 0.25;
    return [u.id, score];
  }));
}

/**
 * Rank units by `distinctivenessScores`, best first, ties in chronological order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { distinctivenessRanker } from "./distinctiveness.ts";
 * const unit = (id: string, text: string) => ({ id, text, channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: null });
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [unit("a", "Thanks!"), unit("b", "My dentist moved the appointment to 12 March.")] };
 * assert.deepEqual(await distinctivenessRanker.rank(trace, { seed: 0 }), ["b", "a"]);
 * ```
 */
export const distinctivenessRanker: Ranker = {
  id: "distinctiveness",
  rank(trace) {
    const scores = distinctivenessScores({ trace });
    const order = trace.units.map((u, index) => ({ id: u.id, index, score: scores.get(u.id)! }));
    order.sort((a, b) => b.score - a.score || a.index - b.index);
    return Promise.resolve(order.map((o) => o.id));
  },
};
