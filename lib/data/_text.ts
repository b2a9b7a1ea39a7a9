/** Text helpers shared by the instance builders (sentence chunks, answer phrases, units). */
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens } from "../text/normalize.ts";
import type { Channel, SourceUnit, StatedNumber, UnitOrigin } from "../schema/source_unit.ts";

/** Split text into chunks of whole sentences of at most `maxChars` characters (longer sentences stand alone). */
export function sentenceChunks(text: string, maxChars: number): string[] {
  const sentences = text.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s+(?=[A-Z0-9"'*#(-])/);
  const out: string[] = [];
  let current = "";
  for (const s of sentences) {
    if (current !== "" && current.length + s.length + 1 > maxChars) {
      out.push(current);
      current = s;
    } else current = current === "" ? s : `${current} ${s}`;
  }
  if (current !== "") out.push(current);
  return out.filter((c) => /[a-z0-9]/i.test(c));
}

/** Cut text at a sentence boundary near `maxChars`. */
export function clipAtSentence(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("? "), cut.lastIndexOf("! "));
  return end > maxChars / 3 ? cut.slice(0, end + 1) : cut.replace(/\s+\S*$/, "") + " ...";
}

/** The numeric value an answer states: yyyymmdd (zeros for a missing part) for dates, else the first number. */
export function answerValue(answer: string): number | null {
  for (const token of normalizeTokens(answer)) {
    if (token.startsWith("date:")) {
      const [y, m, d] = token.slice(5).split("-");
      return (y === "_" ? 0 : Number(y)) * 10000 + (m === "_" ? 0 : Number(m)) * 100 +
        (d === "_" ? 0 : Number(d));
    }
    // Leading number of a token, so "3:1" or "70-200mm" still give a comparable value.
    const lead = /^\d+(?:\.\d+)?/.exec(token);
    if (lead) return Number(lead[0]);
  }
  return null;
}

/**
 * Content words of a text (for overlap ranking): its tokens of four letters or more, without the
 * words that frame a question rather than say what it asks (`QUESTION_FRAME_WORDS`).
 */
export function contentWords(text: string): Set<string> {
  return new Set(
    normalizeTokens(text).filter((t) => t.length > 3 && !QUESTION_FRAME_WORDS.has(t)),
  );
}

/**
 * Question words, auxiliaries and quantity words of four letters or more. Not the kit's stop words
 * (`STOP_WORDS`, NLTK's): with those, other questions count as alike and the LoCoMo and
 * LongMemEval instances change.
 */
const QUESTION_FRAME_WORDS = new Set([
  "what",
  "when",
  "where",
  "which",
  "with",
  "that",
  "this",
  "have",
  "from",
  "your",
  "about",
  "they",
  "there",
  "their",
  "would",
  "could",
  "does",
  "were",
  "been",
  "much",
  "many",
  "long",
]);

/** A unit draft before `asserts` and `numbers` are filled in. */
export interface UnitDraft {
  text: string;
  channel: Channel;
  trusted: boolean;
  verified: boolean;
  /** The answer the unit is evidence for without stating it; default none. */
  supports?: string | null;
  /** Who wrote the text; default the dataset. */
  origin?: UnitOrigin;
}

/**
 * Turn drafts into source units: `asserts` is y* or y_adv when the text states it (judge matcher),
 * `supports` what it asserts, else what the draft says it is evidence for, `origin` the draft's
 * (default the dataset), and `numbers` carries the queried quantity under `numberKey` on
 * asserting units of number and date answers. Other numbers in trace text are not keyed: what a
 * trace's unit states about the query is what management compares (background records key their
 * own counts).
 */
export function finishUnits(
  drafts: UnitDraft[],
  options: { prefix: string; answer: string; target: string; numberKey: string | null },
): SourceUnit[] {
  return drafts.map((d, i) => {
    const asserts = matchesAnswer(d.text, options.answer)
      ? options.answer
      : matchesAnswer(d.text, options.target)
      ? options.target
      : null;
    const value = asserts === null || options.numberKey === null ? null : answerValue(asserts);
    const numbers: StatedNumber[] = value === null || options.numberKey === null
      ? []
      : [{ key: options.numberKey, value }];
    const { supports, origin, ...draft } = d;
    return {
      id: `${options.prefix}${i + 1}`,
      ...draft,
      numbers,
      asserts,
      supports: asserts ?? supports ?? null,
      origin: origin ?? "dataset",
    };
  });
}

/** An answer inside a sentence: a leading article or preposition is lower-cased ("the week before ..."). */
export function inlineAnswer(answer: string): string {
  return answer.replace(
    /^(The|A|An|In|On|At|Last|Next|Around|About|Early|Late|Mid|Since|Before|After|During|Every|Once|Twice)\b/,
    (w) => w.toLowerCase(),
  );
}

/** Fill a template's `{name}` slots; a slot without a value is an error (templates are data). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) {
      throw new RangeError(`template ${JSON.stringify(template)}: no value for {${name}}`);
    }
    return values[name];
  });
}

/** How many filler units a trace gets at a trace load: the total scales, the core stays. */
export function fillerCount(
  options: { core: number; baseFiller: number; traceLoad: number },
): number {
  const total = Math.round(options.traceLoad * (options.core + options.baseFiller));
  return Math.max(0, total - options.core);
}
