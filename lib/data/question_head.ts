/** What a question asks for: its cue type and head noun, so answer swaps only cross like questions. */
import { stemToken } from "../text/normalize.ts";
import { cueType, cueWindow, type SemanticType } from "./typed_lexicon.ts";

/** What a question asks for. */
export interface QuestionHead {
  /** Semantic type its cue words ask for ("Which airline ..." -> "airline"), or null. */
  type: SemanticType | null;
  /** Singular head noun after what/which ("Which Disney movie did ..." -> "movie"), or null. */
  noun: string | null;
  /** Words before the head noun in its phrase ("What LGBTQ+ events ..." -> ["lgbtq+"]). */
  modifiers: string[];
  /**
   * The question's main verb, stemmed, after the wh-word, its auxiliary and its subject ("What
   * does Ann's necklace symbolize?" -> "symboliz"; "How did Bo feel ...?" -> "feel"), or null.
   */
  verb: string | null;
}

const _AUX = new Set(
  ("is|was|are|were|did|does|do|has|have|had|would|could|might|can|will|should|may|be|" +
    "that|which|who|whom|where|when|with|for|in|on|at|to|from|about|of|by|as|i|you|he|she|they|" +
    "we|it|and|or|but|than|after|before|during|recently|most|last").split("|"),
);
const _SKIP = new Set(
  ("the|a|an|my|his|her|their|your|our|favorite|favourite|main|first|new|other|kind|type|sort|" +
    "kinds|types|sorts|style|form|name|names|of|specific|particular|exact|one|two|some").split("|"),
);
const _GENERIC = new Set(["thing", "something", "stuff", "way", "one", "item", "reason", "idea"]);

function _singular(word: string): string {
  if (/ies$/.test(word) && word.length > 4) return word.slice(0, -3) + "y";
  if (/(?:ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word) && word.length > 3) return word.slice(0, -1);
  return word;
}

/**
 * The cue type and head noun of a question, read after the what/which of its last sentence:
 * "Which Disney movie did Omar mention?" asks for a `movie`; "What did Tomas research?" names
 * no head noun. Two questions with the same head noun ask for the same kind of answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionHead } from "./question_head.ts";
 * assert.deepEqual(questionHead({ question: "Which airline did I fly with the most?" }), { type: "airline", noun: "airline", modifiers: [], verb: "fly" });
 * assert.deepEqual(questionHead({ question: "What does Ann's necklace symbolize?" }).verb, "symboliz");
 * assert.deepEqual(questionHead({ question: "What is Priya's favorite food?" }).noun, "food");
 * assert.deepEqual(questionHead({ question: "What did Tomas research?" }).noun, null);
 * ```
 */
export function questionHead(options: { question: string }): QuestionHead {
  const type = cueType(options.question);
  const cue = cueWindow(options.question);
  const verb = _verb(options.question);
  if (cue === null || (cue.word !== "what" && cue.word !== "which")) {
    return { type, noun: null, modifiers: [], verb };
  }
  const words = cue.window.replace(/[?.,!;:"]/g, " ").split(/\s+/).filter((w) => w !== "")
    .slice(1);
  let i = 0;
  // "What did Ann's dog eat?" asks no head noun; "What is/was X's ..." is copular: skip the
  // verb, then a possessor or determiner.
  if (i < words.length && /^(?:did|does|do)$/i.test(words[i])) {
    return { type, noun: null, modifiers: [], verb };
  }
  if (i < words.length && _AUX.has(words[i].toLowerCase())) {
    i++;
    if (i < words.length && !/'s$|’s$/.test(words[i]) && !_SKIP.has(words[i].toLowerCase())) {
      return { type, noun: null, modifiers: [], verb };
    }
  }
  const phrase: string[] = [];
  for (; i < words.length; i++) {
    const w = words[i];
    const lower = w.toLowerCase();
    if (/'s$|’s$/.test(w) || (_SKIP.has(lower) && phrase.length === 0)) continue;
    if (_AUX.has(lower) || /ly$/.test(lower) || _SKIP.has(lower)) break;
    // "What inspired James ..." starts with a verb: there is no head noun.
    if (phrase.length === 0 && /ed$/.test(lower)) break;
    // A past-tense verb or a name after the noun ends it: "Which advisor helped Ann ...".
    if (phrase.length > 0 && (/ed$/.test(lower) || /^[A-Z]/.test(w))) break;
    phrase.push(lower);
  }
  const noun = phrase.length === 0 ? null : _singular(phrase.at(-1)!);
  const head = noun === null || _GENERIC.has(noun) ? null : noun;
  return { type, noun: head, modifiers: head === null ? [] : phrase.slice(0, -1), verb };
}

const _AUXILIARY = new Set(
  ("is|was|are|were|did|does|do|has|have|had|would|could|might|can|will|should|may").split("|"),
);
const _PRONOUN = new Set(
  "i|you|he|she|they|we|it|me|him|them|us|there|this|that|these|those".split("|"),
);
const _DETERMINER = new Set("my|his|her|their|our|your|its|the|a|an|some|this|that".split("|"));

/**
 * The main verb of a question's last sentence: after the wh-word (and a noun phrase after
 * what/which with no auxiliary, "What kind of flooring is Jon looking for"), the auxiliary,
 * then the subject (names, "and", pronouns, "Ann's dog", "her kids"); the next word, stemmed.
 */
function _verb(question: string): string | null {
  const last = question.split(/(?<=[.!?])\s+/).filter((x) => /\w/.test(x)).at(-1) ?? "";
  const words = last.replace(/[?.,!;:"]/g, " ").split(/\s+/).filter((w) => w !== "");
  let i = words.findIndex((w) => /^(?:what|which|how|why|who|whom|where|when)$/i.test(w));
  if (i < 0) return null;
  i++;
  // "How often", "How many times": the adverb or quantity belongs to the wh-word.
  while (
    i < words.length &&
    /^(?:often|long|many|much|far|old|times?|kind|type|sort|of)$/i.test(words[i])
  ) {
    i++;
  }
  const aux = words.slice(i).findIndex((w) => _AUXILIARY.has(w.toLowerCase()));
  if (aux < 0) return i < words.length ? stemToken(words[i].toLowerCase()) : null;
  i += aux + 1;
  for (let guard = 0; i < words.length && guard < 8; guard++) {
    const w = words[i], lower = w.toLowerCase();
    if (/'s$|’s$/.test(w) || _DETERMINER.has(lower)) i += 2;
    else if (/^[A-Z]/.test(w) || lower === "and" || lower === "&" || _PRONOUN.has(lower)) i++;
    else break;
  }
  return i < words.length ? stemToken(words[i].toLowerCase()) : null;
}
