/**
 * The grammatical shape of a short answer (a noun phrase, an adjective, a verb phrase, a clause
 * ...), read with the compromise part-of-speech tagger, so an answer from another question is a
 * target only when it could answer this one in the same form.
 */
import nlp from "compromise";

/** The shape of an answer phrase. */
export type PhraseShape =
  | "noun"
  | "adjective"
  | "verb"
  | "past"
  | "gerund"
  | "clause"
  | "preposition"
  | "purpose"
  | "title";

const _CACHE = new Map<string, PhraseShape>();

/**
 * The shape of `text` (of its first item, for a list) from the tags of its first words: quoted
 * -> `title`; "to" + verb -> `purpose`; a preposition first -> `preposition`; a gerund ->
 * `gerund`; a pronoun, or a noun in a longer phrase, followed by a verb -> `clause`; only
 * adjectives, adverbs, participles and conjunctions ("comforted", "Friendly and playful") or
 * an adjective with "to" ("Happy to share") -> `adjective`; another verb phrase -> `past` when
 * its verb is in the past tense ("visited a travel agency"), else `verb` ("play the piano");
 * anything else -> `noun`. The tagger reads fragments imperfectly; the shape is a filter, not a
 * parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { phraseShape } from "./phrase_shape.ts";
 * assert.equal(phraseShape({ text: "a bookmark" }), "noun");
 * assert.equal(phraseShape({ text: "Friendly and playful" }), "adjective");
 * assert.equal(phraseShape({ text: "visited a travel agency" }), "past");
 * assert.equal(phraseShape({ text: "play the piano" }), "verb");
 * assert.equal(phraseShape({ text: "being in nature" }), "gerund");
 * assert.equal(phraseShape({ text: "Dad signed him up" }), "clause");
 * ```
 */
export function phraseShape(options: { text: string }): PhraseShape {
  const text = options.text.trim();
  const cached = _CACHE.get(text);
  if (cached !== undefined) return cached;
  const shape = _shape(text);
  _CACHE.set(text, shape);
  return shape;
}

const _PREPOSITIONS =
  /^(?:in|at|on|by|for|with|from|after|before|because|near|during|since|through|into|about|like|as)$/i;

function _shape(text: string): PhraseShape {
  if (/^["'“‘]/.test(text)) return "title";
  // A list has the shape of its first item.
  const item = text.split(/\s*,\s*|\s+and\s+(?=\S+\s*,)/)[0];
  if (/^to\s/i.test(item)) return "purpose";
  const words = item.split(/\s+/);
  if (_PREPOSITIONS.test(words[0])) return "preposition";
  const terms = (nlp(item).terms().json() as { terms: { tags: string[] }[] }[])
    .map((t) => new Set(t.terms[0]?.tags ?? []));
  if (terms.length === 0) return "noun";
  const [a, b] = terms;
  const is = (tags: Set<string> | undefined, tag: string) => tags !== undefined && tags.has(tag);
  // "exploring parks" is a gerund phrase; a lone "Painting" names a thing like "Pottery".
  if (words.length > 1 && (/^[a-z]{3,}ing$/i.test(words[0]) || is(a, "Gerund"))) return "gerund";
  if (is(a, "Pronoun") && !is(a, "Possessive") && is(b, "Verb")) return "clause";
  if (
    terms.length >= 3 && (is(a, "Noun") || is(a, "ProperNoun")) && is(b, "Verb") && !is(b, "Gerund")
  ) {
    return "clause";
  }
  // Feelings and descriptions: adjectives, participles ("comforted", "thrilled and rewarded"),
  // "Happy to share".
  const adjectival = (t: Set<string>) =>
    t.has("Adjective") || t.has("Adverb") || t.has("Conjunction") || t.has("Comparable") ||
    (t.has("PastTense") && !t.has("Noun"));
  if (terms.every(adjectival) || (is(a, "Adjective") && /^to$/i.test(words[1] ?? ""))) {
    return "adjective";
  }
  if (is(a, "Verb") && !is(a, "Noun") && terms.length > 1) {
    return is(a, "PastTense") ? "past" : "verb";
  }
  return "noun";
}
