/**
 * The victim term of a question (MINJA's `v`, Dong et al. 2025, Section 3): what the question asks
 * about, as a noun phrase the attacker and the assistant can both name without repeating the
 * question ("How many dogs does Andrew have?" -> "the number of dogs Andrew has"), the question
 * re-ordered as an embedded question ("how many dogs Andrew has"), and the verb that links the
 * term to its value ("is"). Grammar comes from compromise (tags and verb conjugation).
 */
import nlp from "compromise";
import { matchesAnswer } from "../../text/matches.ts";
import { containsQuery } from "../helpful_trace.ts";

/** A victim term in both voices. */
export interface VictimTerm {
  /** Noun phrase in the user's voice ("the number of days I took social media breaks"). */
  user: string;
  /** The same in the assistant's voice ("the number of days you took social media breaks"). */
  assistant: string;
  /**
   * The question as an embedded question in the user's voice ("how many dogs Andrew has"), or
   * null when there is none that differs from the question (a question whose wh-word is its
   * subject reads the same embedded).
   */
  embedded: string | null;
  /** The verb that links the term to its value ("is", "were"), or null when unknown. */
  copula: "is" | "are" | "was" | "were" | null;
}

interface _Token {
  /** The word as written, with its attached punctuation ("11," or "\"Xenoblade"). */
  text: string;
  /** The bare word, lower-case. */
  lower: string;
  tags: Set<string>;
  /** True when the next token follows without a space ("career-" "high"). */
  glue: boolean;
}

const AUX = new Set(
  "did|does|do|am|is|are|was|were|has|have|had|will|would|can|could|should|might|may|must".split(
    "|",
  ),
);
const DO = new Set(["did", "does", "do"]);
const BE = new Set(["am", "is", "are", "was", "were"]);
const PAST = new Set(["did", "was", "were", "had"]);
const PRONOUN = new Set(["i", "you", "he", "she", "we", "they", "it"]);
const DETERMINER = new Set(
  "the|a|an|my|his|her|their|our|your|its|this|that|these|those|some|any|all|both|each|one"
    .split("|"),
);
const INDEFINITE = new Set(["a", "an", "one", "some", "any"]);
const ADVERB_LIKE = new Set(
  ("likely|probably|usually|recently|currently|mostly|really|actually|finally|also|still|ever|" +
    "first|once|never|just|already|always|often|initially|eventually|originally|previously|even")
    .split("|"),
);
const COMPARATIVE =
  /^(?:more|less|fewer|older|younger|longer|shorter|bigger|larger|smaller|higher|lower|cheaper|faster|slower|further|farther|earlier|later)$/;
const WH = new Set(["when", "where", "who", "whom", "whose", "what", "which", "how", "why"]);
const HOW_ADVERB = new Set(["long", "often", "old", "far", "soon", "late", "early"]);
const PARTICIPLE = new Set(
  ("done|gone|seen|been|made|taken|given|held|built|bought|sold|found|kept|left|lost|met|paid|" +
    "put|read|run|said|sent|set|shown|spent|taught|told|thought|won|written|worn|known|grown|" +
    "drawn|driven|eaten|fallen|flown|forgotten|hidden|ridden|spoken|stolen|thrown|brought|caught")
    .split("|"),
);
/** Words that open an embedded question after a framing clause ("remind me how ..."). */
const EMBED_CUE = /\b(?:me|wondering|confirm|know|remember|recall|asking|ask|check|tell)\s*,?\s*$/i;

function _tokens(text: string): _Token[] {
  const json = nlp(text).json() as {
    terms: { text: string; pre: string; post: string; tags: string[] }[];
  }[];
  const tokens = json.flatMap((s) => s.terms).filter((t) => t.text !== "").map((t) => ({
    text: `${t.pre.trim()}${t.text}${t.post.trim()}`,
    lower: t.text.toLowerCase(),
    tags: new Set(t.tags),
    glue: t.post !== "" && t.post.trim() !== "" && !/\s$/.test(t.post),
  }));
  // A hyphenated word is one word, an adjective ("gardening-related", "career-high").
  const out: _Token[] = [];
  for (const t of tokens) {
    const last = out.at(-1);
    if (last?.glue && /-$/.test(last.text)) {
      out[out.length - 1] = {
        text: last.text + t.text,
        lower: `${last.lower}-${t.lower}`,
        tags: new Set(["Adjective", ...[...t.tags].filter((g) => g === "Noun" || g === "Plural")]),
        glue: t.glue,
      };
    } else out.push(t);
  }
  return out;
}

const _join = (tokens: readonly _Token[]): string =>
  tokens.map((t, i) => t.text + (t.glue || i === tokens.length - 1 ? "" : " ")).join("");
const _isVerbOnly = (t: _Token) =>
  t.tags.has("Verb") && !t.tags.has("Noun") && !t.tags.has("Adjective");
const _isAdverb = (t: _Token) => t.tags.has("Adverb") && !t.tags.has("Verb");
const _isProper = (t: _Token) => /^["'(]?[A-Z]/.test(t.text) && t.lower !== "i";
const _isPossessive = (t: _Token) => /(?:'s|s'|’s|s’)["')]?[,]?$/.test(t.text);
const _isParticiple = (t: _Token) =>
  PARTICIPLE.has(t.lower) || (t.tags.has("PastTense") && !t.tags.has("Noun")) ||
  (t.tags.has("Gerund") && !t.tags.has("Noun"));
/** A verb by its tag, or by its ending when the tagger took it for an adjective ("inspired"). */
const _verbLike = (t: _Token) =>
  _isVerbOnly(t) || (t.tags.has("Verb") && !t.tags.has("Noun")) ||
  (/(?:ed|es)$/.test(t.lower) && !t.tags.has("Noun") && !t.tags.has("Person"));
const _retext = (t: _Token, word: string): _Token => ({
  ...t,
  text: t.text.replace(/[A-Za-z'’-]+/, word),
  lower: word.toLowerCase(),
});

/** Conjugate a base verb: past, third person singular present, or left as it is. */
function _conjugate(verb: string, form: "past" | "third" | "base"): string {
  if (form === "base") return verb;
  const doc = nlp(verb);
  doc.tag("Infinitive");
  const c = (doc.verbs().conjugate() as Record<string, string>[])[0];
  const out = form === "past" ? c?.PastTense : c?.PresentTense;
  if (out === undefined || out.includes(" ")) return verb;
  // compromise doubles a final l the British way ("travelled"); the benchmarks write American.
  return /^[a-z]*[aeiou]l$/.test(verb) && /lled$/.test(out) &&
      !/^(?:fill|spill|kill|call|tell)/.test(verb)
    ? out.replace(/lled$/, "led")
    : out;
}

/**
 * Where the subject after an inverted auxiliary ends (exclusive index), or 0 when the words
 * after the auxiliary do not open a subject (a preposition, an adjective, a verb: then the
 * wh-phrase itself is the subject).
 */
function _subjectEnd(tokens: readonly _Token[], aux: string): number {
  const n = tokens.length;
  const opens = (t: _Token) =>
    PRONOUN.has(t.lower) || _isProper(t) || DETERMINER.has(t.lower) || _isPossessive(t) ||
    (t.tags.has("Noun") && !t.tags.has("Verb") && !t.tags.has("Adjective")) ||
    t.tags.has("Value");
  if (n === 0 || !opens(tokens[0])) return 0;
  let i = 0;
  while (i < n) {
    const t = tokens[i];
    if (PRONOUN.has(t.lower)) i++;
    else if (_isProper(t) && !_isPossessive(t)) {
      // A name ends the subject unless more of the name, "and" or a possessive follows.
      i++;
      while (i < n && _isProper(tokens[i]) && !PRONOUN.has(tokens[i].lower)) i++;
    } else {
      // A determiner, a possessive or a noun opens a noun phrase: take its words up to a verb
      // (after a be/have/modal auxiliary also up to a participle or a preposition other than "of").
      i++;
      while (i < n) {
        const u = tokens[i];
        if (u.lower === "and" || u.lower === "or" || /,$/.test(tokens[i - 1].text)) break;
        if (u.lower === "of") {
          i++;
          continue;
        }
        const prev = tokens[i - 1];
        if (PRONOUN.has(u.lower)) break;
        // An adverb after the head noun ends the phrase ("the scaly body" keeps its adjective).
        if (
          (ADVERB_LIKE.has(u.lower) && !DETERMINER.has(prev.lower) && !_isPossessive(prev)) ||
          (_isAdverb(u) && prev.tags.has("Noun"))
        ) break;
        // A second determiner or a relative pronoun opens what follows the subject.
        if (
          (DETERMINER.has(u.lower) && prev.lower !== "of") || u.lower === "that" ||
          u.lower === "which" || u.lower === "who"
        ) break;
        if (
          DO.has(aux) ? _isVerbOnly(u) && !_isPossessive(u) : (
            u.tags.has("Preposition") || u.tags.has("Conjunction") || _isVerbOnly(u) ||
            _isParticiple(u)
          )
        ) break;
        i++;
      }
    }
    // "Jolene and her partner", "James, Samantha and John".
    const next = tokens[i];
    const comma = i > 0 && /,$/.test(tokens[i - 1].text);
    if (next && (next.lower === "and" || comma) && i + 1 < n && opens(tokens[i + 1] ?? next)) {
      if (next.lower === "and") i++;
      continue;
    }
    return i;
  }
  return i;
}

interface _Parsed {
  /** The wh-phrase tokens ("how many dogs"). */
  wh: _Token[];
  /** The noun after what/which/how many/how much ("dogs"), possibly empty. */
  noun: _Token[];
  /** The clause after the wh-phrase in declarative order ("Andrew has"). */
  clause: _Token[];
  /** True when the wh-phrase is the subject ("who inspired Maria ..."). */
  whSubject: boolean;
  /** The inverted auxiliary, lower-case, or null. */
  aux: string | null;
  /** The subject noun phrase after the auxiliary. */
  subject: _Token[];
  /** True when the clause ends at the copula ("what the name of the dog is"). */
  copulaOnly: boolean;
  /** True when the clause is in the past. */
  past: boolean;
  /** True for a comparison ("how much more ..."). */
  more?: boolean;
}

/** Re-order the clause after an auxiliary: drop do-support and conjugate, or move the auxiliary. */
function _declarative(rest: readonly _Token[], wholeSubject: boolean, forcedEnd?: number): {
  clause: _Token[];
  aux: string;
  subject: _Token[];
  copulaOnly: boolean;
  past: boolean;
} | null {
  const aux = rest[0].lower;
  const tail = rest.slice(1);
  // "What is the name of the puppy he got in May?": after what/which/who + be, a noun phrase
  // opened by a determiner or a possessive runs to the end.
  // After what/which + noun + be, an indefinite is no subject: "What hobby is a therapy ...".
  if (!wholeSubject && BE.has(aux) && tail.length > 0 && INDEFINITE.has(tail[0].lower)) {
    return null;
  }
  const end = forcedEnd ?? (wholeSubject && BE.has(aux) && tail.length > 0 &&
      (DETERMINER.has(tail[0].lower) || _isPossessive(tail[0]) ||
        /^some(?:thing|one)$/.test(tail[0].lower))
    ? tail.length
    : _subjectEnd(tail, aux));
  // "What does working on cars represent?": a subject the tagger cannot open runs to the verb.
  const verbAt = DO.has(aux) && end === 0
    ? tail.findIndex((t, k) => k > 0 && _isVerbOnly(t) && t.tags.has("Infinitive"))
    : -1;
  if (end === 0 && verbAt <= 0) return null;
  if (end === 0) return _declarative(rest, false, verbAt);
  const subject = tail.slice(0, end);
  let pred = tail.slice(end);
  const moved = { ...rest[0], text: rest[0].text.toLowerCase() };
  const past = PAST.has(aux);
  if (DO.has(aux) && pred.length === 0 && subject.length >= 2) {
    // The tagger took the verb for a noun ("What does Jon's dance studio offer?").
    pred = subject.splice(subject.length - 1);
  }
  if (DO.has(aux)) {
    let v = 0;
    while (v < pred.length && (_isAdverb(pred[v]) || ADVERB_LIKE.has(pred[v].lower))) v++;
    // Nothing but "adverbs": the tagger took the verb for one ("What do the kids like?").
    if (v >= pred.length) v = pred.length - 1;
    if (v < 0) return null;
    const plural = subject.some((t) => t.lower === "and" || /,$/.test(t.text)) ||
      subject.some((t) => ["i", "you", "we", "they"].includes(t.lower)) ||
      subject.at(-1)!.tags.has("Plural");
    const form = aux === "did" ? "past" : aux === "does" && !plural ? "third" : "base";
    pred = [...pred];
    pred[v] = _retext(pred[v], _conjugate(pred[v].lower, form));
    // A coordinated verb shares the tense: "increase or decrease" -> "increased or decreased",
    // "encounter people and have a bad time" -> "encountered people and had a bad time".
    for (let k = v + 1; k + 1 < pred.length; k++) {
      // Not inside an infinitive ("to relax and cope" stays as it is).
      if (pred[k].lower === "to" && pred[k + 1] && _isVerbOnly(pred[k + 1])) break;
      const [conj, next] = [pred[k], pred[k + 1]];
      if (
        (conj.lower === "or" || conj.lower === "and") && _isVerbOnly(next) &&
        next.tags.has("Infinitive")
      ) {
        pred[k + 1] = _retext(next, _conjugate(next.lower, form));
      }
    }
    return { clause: [...subject, ...pred], aux, subject, copulaOnly: false, past };
  }
  return {
    clause: [...subject, moved, ...pred],
    aux,
    subject,
    copulaOnly: BE.has(aux) && pred.length === 0,
    past,
  };
}

function _parseWh(tokens: readonly _Token[]): _Parsed | null {
  const first = tokens[0]?.lower;
  if (!first || !WH.has(first)) return null;
  let i = 1;
  let noun: _Token[] = [];
  let retagged = false;
  let more = false;
  // A wh-noun word: not a function word, a name, an adverb or a verb; a word that could be
  // either ("damages", "places") is a noun when an auxiliary follows it.
  // A gerund before a noun is an adjective ("recurring frustration"); so is a base form that
  // opens the run ("What color glow ...", not "What attributes describe John").
  const nounWord = (t: _Token, next: _Token | undefined) =>
    !AUX.has(t.lower) && (!DETERMINER.has(t.lower) || noun.at(-1)?.lower === "of") &&
    !PRONOUN.has(t.lower) &&
    (!t.tags.has("Person") || noun.at(-1)?.lower === "of" ||
      noun.at(-1)?.tags.has("Person") === true) &&
    !_isAdverb(t) && !ADVERB_LIKE.has(t.lower) &&
    !(t.tags.has("PastTense") && !t.tags.has("Noun")) &&
    !((t.tags.has("Preposition") || /^(?:before|after|since|until)$/.test(t.lower)) &&
      t.lower !== "of") &&
    !(_isVerbOnly(t) && !(next && AUX.has(next.lower)) &&
      !((t.tags.has("Gerund") ||
        (t.tags.has("Infinitive") &&
          (noun.length === 0 || _isPossessive(noun.at(-1)!) ||
            noun.at(-1)!.tags.has("Adjective")))) &&
        next?.tags.has("Noun") && !_isVerbOnly(next)));
  // A quoted title stays whole ("pages of 'A Short History of Nearly Everything'").
  const takeQuoted = () => {
    if (!/^['"‘“]/.test(tokens[i]?.text ?? "") || /['"’”][,.]?$/.test(tokens[i].text)) return;
    while (i < tokens.length && !/['"’”][,.]?$/.test(tokens[i].text)) noun.push(tokens[i++]);
    if (i < tokens.length) noun.push(tokens[i++]);
  };
  // A prepositional phrase before the verb belongs to the noun ("Which city in Ireland will
  // ...", "What kind of yoga for building core strength might ...", "How many years in total").
  const extendPP = () => {
    const prep = (t: _Token | undefined) =>
      t !== undefined && t.lower !== "of" &&
      (t.tags.has("Preposition") || /^(?:before|after|since|until)$/.test(t.lower));
    while (noun.length > 0 && prep(tokens[i])) {
      // "before I bought my iPad did I ...": a clause after before/after runs to do-support.
      const clause = /^(?:before|after|since|until)$/.test(tokens[i].lower) &&
        tokens.slice(i + 1, i + 14).findIndex((t) => /^(?:did|does|do)$/.test(t.lower));
      let k = i + 1;
      const isVerb = (t: _Token) =>
        AUX.has(t.lower) || (_verbLike(t) && !t.tags.has("Gerund") && !_isPossessive(t));
      if (typeof clause === "number" && clause >= 0) k = i + 1 + clause;
      else while (k < tokens.length && k - i <= 6 && !isVerb(tokens[k])) k++;
      if (k >= tokens.length || k - i > 14) break;
      noun.push(...tokens.slice(i, k));
      i = k;
    }
  };
  if (first === "how") {
    const next = tokens[1]?.lower;
    if (next === "many" || next === "much") {
      // "How much more ...", "How many years older ..." compare: the term is the embedded question.
      i = COMPARATIVE.test(tokens[2]?.lower ?? "") ? 3 : 2;
      more = i === 3;
      while (i < tokens.length && noun.length < 8) {
        takeQuoted();
        if (i >= tokens.length || !nounWord(tokens[i], tokens[i + 1])) break;
        noun.push(tokens[i++]);
      }
      // "How many days a week ...": the rate stays with the noun.
      if (
        noun.length > 0 && /^(?:a|per|each|every)$/.test(tokens[i]?.lower ?? "") &&
        /^(?:day|week|month|year|night)$/.test(tokens[i + 1]?.lower ?? "")
      ) noun.push(tokens[i++], tokens[i++]);
      extendPP();
      if (tokens[i]?.lower === "ago") i++;
      if (noun.length > 0 && COMPARATIVE.test(tokens[i]?.lower ?? "")) {
        noun.push(tokens[i++]);
        more = true;
      }
    } else if (next && HOW_ADVERB.has(next)) i = tokens[2]?.lower === "ago" ? 3 : 2;
  } else if (first === "what" || first === "which" || first === "whose") {
    // "Which of their family members do ...": the noun phrase after "of", named "the one(s) of".
    if (tokens[1]?.lower === "of") {
      noun.push(tokens[1]);
      i = 2;
      while (i < tokens.length && (DETERMINER.has(tokens[i].lower) || _isPossessive(tokens[i]))) {
        noun.push(tokens[i++]);
      }
    }
    while (i < tokens.length && nounWord(tokens[i], tokens[i + 1]) && noun.length < 8) {
      noun.push(tokens[i++]);
    }
    let j = i;
    while (tokens[j] && (_isAdverb(tokens[j]) || ADVERB_LIKE.has(tokens[j].lower))) j++;
    // A verb the tagger took for a plural noun ("Which holiday season coincides with ...").
    if (
      noun.length > 1 && tokens[j] && tokens[j].tags.has("Preposition") &&
      /(?:[^s]s|ed)$/.test(noun.at(-1)!.lower) && !noun.at(-2)!.tags.has("Determiner")
    ) {
      noun.pop();
      i--;
      j = i;
      retagged = true;
    }
    if (j === i) {
      extendPP();
      j = i;
    }
    // "what year the construction began" (an embedded question) keeps its noun too.
    const subjectEnd = tokens[j] ? _subjectEnd(tokens.slice(j), "is") : 0;
    const declarative = subjectEnd > 0 && tokens[j + subjectEnd] !== undefined &&
      (AUX.has(tokens[j + subjectEnd].lower) || _verbLike(tokens[j + subjectEnd]));
    if (
      !retagged && !declarative && noun.length > 0 && tokens[j] && !AUX.has(tokens[j].lower) &&
      !_verbLike(tokens[j])
    ) {
      // The run did not end at an auxiliary or a verb: it was no wh-noun ("What Jon thinks").
      i = 1;
      noun = [];
    }
  }
  const wh = tokens.slice(0, i);
  const rest = tokens.slice(i);
  if (rest.length === 0) return null;
  if (AUX.has(rest[0].lower)) {
    const whole = first === "what" || first === "which" || first === "who";
    const d = _declarative(rest, whole && noun.length === 0);
    if (d !== null) return { wh, noun, whSubject: false, more, ...d };
  }
  // Already in declarative order ("When Jon has lost his job?"): the clause is the rest.
  const subjectEnd = _subjectEnd(rest, "is");
  const after = rest[subjectEnd];
  if (subjectEnd > 0 && after && (AUX.has(after.lower) || _verbLike(after))) {
    return {
      wh,
      noun,
      clause: [...rest],
      whSubject: false,
      aux: null,
      subject: rest.slice(0, subjectEnd),
      copulaOnly: false,
      past: PAST.has(after.lower) || after.tags.has("PastTense"),
    };
  }
  // The wh-phrase is the subject: its verb must follow ("Which song motivates ...").
  const lead = rest.find((t) => !_isAdverb(t) && !ADVERB_LIKE.has(t.lower))!;
  if (!lead || !AUX.has(lead.lower) && !_verbLike(lead) && !retagged) return null;
  const past = lead.tags.has("PastTense") || PAST.has(lead.lower) || /ed$/.test(lead.lower);
  return {
    wh,
    noun,
    clause: [...rest],
    whSubject: true,
    aux: null,
    subject: [],
    copulaOnly: false,
    past,
  };
}

/**
 * The sentence of a question that asks it: the last one ending in a question mark (LongMemEval
 * questions often open with a sentence of context), else the last sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionSentence } from "./victim_term.ts";
 * assert.equal(questionSentence("I'm baking today. Can you ask Mrs. Lee how long it takes? Thanks."), "Can you ask Mrs. Lee how long it takes?");
 * ```
 */
export function questionSentence(question: string): string {
  const flat = question.replace(/\s+/g, " ").trim();
  const sentences = flat.split(
    /(?<=[?!]|[a-z]\.(?<!\b(?:Dr|Mr|Mrs|Ms|St|Jr|Sr|vs|etc)\.))\s+(?=[A-Z])/,
  );
  return ([...sentences].reverse().find((s) => s.trim().endsWith("?")) ?? sentences.at(-1)!).trim();
}

/** The question clause: the question's sentence, from its first wh-word that opens a clause. */
function _questionClause(
  question: string,
): { text: string; embeddedAlready: boolean; prep: string | null } {
  const last = questionSentence(question);
  // The options a question offers are not what it asks about: "Which came first, A or B?".
  const s = last.trim().replace(/[?.!]+$/, "").replace(/,\s*[^,]+\s+or\s+[^,]+$/, "");
  const re = /\b(when|where|who|whom|whose|what|which|how|why)\b/gi;
  for (const m of s.matchAll(re)) {
    const before = s.slice(0, m.index);
    const atStart = before.trim() === "" || /[,;:\-–—]\s*$/.test(before);
    const cued = EMBED_CUE.test(before);
    // "In what country did ...", "Around which holiday ...": the preposition goes with the noun.
    const prep = /(?:^|,\s*)(in|on|at|for|from|after|before|around|during|with|to|by)\s+$/i.exec(
      before,
    );
    if (prep) {
      return { text: s.slice(m.index), embeddedAlready: false, prep: prep[1].toLowerCase() };
    }
    if (atStart || cued) {
      return { text: s.slice(m.index), embeddedAlready: cued && !atStart, prep: null };
    }
  }
  return { text: s, embeddedAlready: false, prep: null };
}

const _SWAP_USER: Record<string, string> = {
  i: "you",
  me: "you",
  my: "your",
  mine: "yours",
  myself: "yourself",
  am: "are",
  "i'm": "you're",
  "i've": "you've",
  "i'd": "you'd",
  "i'll": "you'll",
  your: "my",
  yours: "mine",
  yourself: "myself",
};

/**
 * Swap first and second person: the user's "my rent" is the assistant's "your rent", and the
 * user's "you said" is the assistant's "I said".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { swapPerson } from "./victim_term.ts";
 * assert.equal(swapPerson("the number of eggs you said we need for my recipe"), "the number of eggs I said we need for your recipe");
 * assert.equal(swapPerson("your dentist appointment"), "my dentist appointment");
 * ```
 */
export function swapPerson(text: string): string {
  const words = text.split(/(\s+)/);
  return words.map((w, k) => {
    const m = /^([("']*)([A-Za-z'’]+)([)"'.,;:!?]*)$/.exec(w);
    if (!m) return w;
    const [, pre, word, post] = m;
    const lower = word.toLowerCase().replace("’", "'");
    let out: string | undefined;
    if (lower === "you") {
      const next = words.slice(k + 1).find((x) => x.trim() !== "") ?? "";
      const before = words.slice(0, k).reverse().find((x) => x.trim() !== "") ?? "";
      const subject =
        /^(?:said|mentioned|recommended|suggested|wrote|made|told|gave|gave|listed|shared|named|used|called|showed|described|explained|picked|chose|were|are|had|have|did|do|will|would|can|could)$/i
          .test(next.replace(/[^A-Za-z]/g, "")) &&
        !/^(?:to|for|with|at|from|about|by|of|on|thank|tell|told|asked|ask|give|gave)$/i.test(
          before.replace(/[^A-Za-z]/g, ""),
        );
      out = subject ? "I" : "me";
    } else out = _SWAP_USER[lower];
    if (out === undefined) return w;
    if (lower === "you" && out === "I") {
      // "you were" -> "I was", "you are" -> "I am"
    }
    const cased = /^[A-Z]/.test(word) && word !== "I" && out !== "I"
      ? out[0].toUpperCase() + out.slice(1)
      : out;
    return `${pre}${cased}${post}`;
  }).join("").replace(/\bI were\b/g, "I was").replace(/\bI are\b/g, "I am").replace(
    /\byou am\b/g,
    "you are",
  ).replace(/\byou was\b/g, "you were");
}

const _plural = (tokens: readonly _Token[]): boolean => {
  const ofAt = tokens.findIndex((t) => t.lower === "of");
  const head = ofAt > 0 ? tokens[ofAt - 1] : tokens.at(-1);
  if (!head) return false;
  return head.tags.has("Plural") || /^(?:people|children|men|women)$/.test(head.lower) ||
    /[^su's]s$/.test(head.lower);
};

const _lowerFirst = (s: string): string =>
  /^(?:The|A|An|My|His|Her|Their|Our|Your|Its|This|That|Some|Any|One|When|Where|Who|Whom|Whose|What|Which|How|Why|Whether)\b/
      .test(s)
    ? s[0].toLowerCase() + s.slice(1)
    : s;

function _term(
  user: string,
  embedded: string | null,
  copula: VictimTerm["copula"],
  question: string,
): VictimTerm {
  const clean = (s: string) => _lowerFirst(s.replace(/\s+/g, " ").trim().replace(/[?]+$/, ""));
  let u = clean(user);
  let e = embedded === null ? null : clean(embedded);
  // Never the question itself: a term that holds it whole falls back to its longest noun chunk.
  if (containsQuery(u, question)) u = _nounChunk(question), copula = null;
  if (e !== null && containsQuery(e, question)) e = null;
  return { user: u, assistant: swapPerson(u), embedded: e, copula };
}

/**
 * The victim term of a question: a noun phrase naming what it asks about (the question's clause
 * after "the number of", "the N", "the date", "the place where", "the person"; the subject
 * itself for "What is X?"; an embedded question otherwise), the question as an embedded question
 * when that differs from the question, and the copula that links the term to its value. It
 * never contains the whole question.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { victimTerm } from "./victim_term.ts";
 * const dogs = victimTerm({ question: "How many dogs does Andrew have?" });
 * assert.deepEqual(dogs, { user: "the number of dogs Andrew has", assistant: "the number of dogs Andrew has", embedded: "how many dogs Andrew has", copula: "is" });
 * assert.equal(victimTerm({ question: "When did I buy my new tennis racket?" }).assistant, "the date you bought your new tennis racket");
 * assert.equal(victimTerm({ question: "What is my monthly rent?" }).user, "my monthly rent");
 * ```
 */
export function victimTerm(options: {
  /** The victim query. */
  question: string;
  /** Answers the term must not state (y* and y_adv); default none. */
  avoid?: readonly string[];
}): VictimTerm {
  const { question } = options;
  const avoid = options.avoid ?? [];
  const term = _victimTerm(question);
  const states = (text: string) => avoid.some((a) => matchesAnswer(text, a));
  if (!states(term.user)) return states(term.embedded ?? "") ? { ...term, embedded: null } : term;
  const chunk = _nounChunks(question).find((c) => !states(c) && !containsQuery(c, question));
  const user = chunk ?? "this";
  return { user, assistant: swapPerson(user), embedded: null, copula: null };
}

function _victimTerm(question: string): VictimTerm {
  // "I received a piece of jewelry last Saturday from whom?": the wh-word comes last.
  const late = /^(.+?)\s+(from|to|with|by|for|of|about|at)\s+(whom|who|what|where)\s*[?.!]*$/i
    .exec(questionSentence(question));
  if (late) {
    const head = { whom: "the person", who: "the person", what: "the thing", where: "the place" }[
      late[3].toLowerCase() as "whom"
    ];
    return _term(`${head} ${late[1]} ${late[2]}`, null, "was", question);
  }
  const { text, embeddedAlready, prep } = _questionClause(question);
  const tokens = _tokens(text);
  const parsed = _parseWh(tokens);
  if (parsed === null) return _nonWhTerm(question, text, tokens);
  const { wh, noun, clause, whSubject, copulaOnly, past } = parsed;
  const first = wh[0].lower;
  const second = wh[1]?.lower;
  const tense = (plural: boolean): VictimTerm["copula"] =>
    past ? (plural ? "were" : "was") : (plural ? "are" : "is");
  const term = (user: string, copula: VictimTerm["copula"]) =>
    _term(user, embedded, copula, question);
  const body = _join(clause);
  const that = whSubject ? "that " : "";
  const nounText = _join(noun);
  // Re-ordered, the clause is an embedded question; a wh-subject question reads the same.
  const embedded = whSubject && !embeddedAlready
    ? null
    : `${prep === null ? "" : `${prep} `}${_join([...wh, ...clause])}`;
  const subject = _join(parsed.subject);
  const ownCopula = parsed.aux !== null && BE.has(parsed.aux)
    ? parsed.aux as VictimTerm["copula"]
    : null;
  const ago = wh.at(-1)!.lower === "ago";
  if (
    prep !== null && noun.length > 0 && (first === "what" || first === "which" || second === "many")
  ) {
    // "the country in which Jolene's mother bought her the pendant"
    const head = second === "many" ? `the number of ${nounText}` : `the ${nounText}`;
    return term(`${head} ${prep} which ${body}`, tense(_plural(noun) && second !== "many"));
  }
  if (parsed.more) return term(_join([...wh, ...clause]), tense(false));
  if (first === "how" && second === "many" && noun.length > 0 && !ago) {
    return term(`the number of ${nounText.replace(/^of\s+/, "")} ${that}${body}`, tense(false));
  }
  if (first === "how" && second === "much") {
    if (noun.length > 0) return term(`the amount of ${nounText} ${that}${body}`, tense(false));
    if (copulaOnly) return term(subject, ownCopula);
    if (whSubject) return term(`the amount that ${body}`, tense(false));
    return term(`the amount ${body}`, tense(false));
  }
  if (first === "how" && second === "old" && copulaOnly) {
    return term(
      _isPossessive(parsed.subject.at(-1)!) ? `${subject} age` : `${subject}'s age`,
      ownCopula,
    );
  }
  if ((first === "what" || first === "which") && noun.length > 0 && copulaOnly) {
    // "What genre is Joanna's first screenplay?" -> "the genre of Joanna's first screenplay";
    // "What type of pizza is John's favorite?" -> "John's favorite type of pizza".
    const favorite = /^(.*\bfavou?rite)\b(.*)$/i.exec(subject);
    return favorite
      ? term(`${favorite[1]} ${nounText}${favorite[2]}`, ownCopula)
      : term(`the ${nounText} of ${subject}`, ownCopula);
  }
  if ((first === "what" || first === "which") && noun[0]?.lower === "of") {
    // "Which of their family member(s) ...": a singular noun is named as such, a plural by one.
    const rest = noun.slice(1).filter((t) => !DETERMINER.has(t.lower) || _isPossessive(t));
    return _plural(noun) || rest.length === 0 || _isPossessive(rest[0])
      ? term(`the one ${nounText} ${that}${body}`, tense(false))
      : term(`the ${_join(rest)} ${that}${body}`, tense(false));
  }
  if ((first === "what" || first === "which") && noun.length > 0) {
    return term(`the ${nounText} ${that}${body}`, tense(_plural(noun)));
  }
  if (
    ["what", "which", "when", "where", "who"].includes(first) && copulaOnly && noun.length === 0
  ) {
    return term(subject, ownCopula);
  }
  if (first === "what" && noun.length === 0 && whSubject) {
    return term(`the thing that ${body}`, tense(false));
  }
  if (first === "when") return term(`the date ${body}`, tense(false));
  if (first === "where") return term(`the place where ${body}`, tense(false));
  if ((first === "who" || first === "whom") && !copulaOnly) {
    return term(`the person ${that}${body}`, tense(false));
  }
  // how long / how often / how / why / what (object) / whose: the embedded question is the term.
  return term(_join([...wh, ...clause]), tense(false));
}

/** Terms of questions without a wh-clause: yes/no questions, requests, anything else. */
function _nonWhTerm(question: string, text: string, tokens: readonly _Token[]): VictimTerm {
  const first = tokens[0]?.lower;
  // "Can you recommend a show for me?", "Any tips on what to bake?": the user's preferences.
  const request =
    /^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:recommend|suggest|give|share|find|offer|provide)\b/i
      .test(text) ||
    /\b(?:any|some)\s+(?:\w+\s+)?(?:tips|ideas|suggestions|recommendations|advice)\b/i.test(text);
  // "any documentary recommendations?" -> "my documentary preferences"
  const kindOf = /\b(?:any|some)\s+(\w+)\s+(?:tips|ideas|suggestions|recommendations|advice)\s*$/i
    .exec(text)?.[1]?.replace(
      /^(?:helpful|good|great|useful|practical|quick|new|other|specific|general|more|fresh)$/i,
      "",
    ) || undefined;
  if (request && kindOf !== undefined) {
    return _term(`my ${kindOf} preferences`, null, null, question);
  }
  const remind = /\bremind me (?:of|about) (.+)$/i.exec(text)?.[1];
  if (remind !== undefined) return _term(remind, null, null, question);
  if (request) {
    const object =
      /\b(?:recommend|suggest|give me|share|find|offer|provide|tips|ideas|suggestions|recommendations|advice)\s+(?:on\s+|for\s+|about\s+)?(.+)$/i
        .exec(text)?.[1];
    const np = object !== undefined && !/^(?:me|some|any)$/i.test(object) &&
        !/^(?:tips|ideas|suggestions|recommendations|advice)\b/i.test(object)
      ? object.replace(/^(?:me\s+)?(?:some|any)\s+/i, "").replace(/^me\s+/i, "")
      : (/\b(?:about|of|with)\s+([^.?!;,]+?)(?:\s+lately|\s+recently)?[.?!;,]/i.exec(question)
        ?.[1] ??
        _nounChunks(question).find((c) =>
          !/\b(?:tips|ideas|suggestions|recommendations|advice|bit)\b/i.test(c)
        ) ?? "this");
    return _term(`my preferences for ${np}`, null, null, question);
  }
  if (first && AUX.has(first)) {
    // "Do you think it would be a good idea to ...?": what is asked is the rest.
    const think = /^(?:do|did)\s+you\s+think\s+(.+)$/i.exec(text);
    if (think) return _term(`whether ${think[1]}`, `whether ${think[1]}`, null, question);
    const d = _declarative(tokens, false);
    if (d !== null) {
      const body = _join(d.clause);
      return _term(`whether ${body}`, `whether ${body}`, null, question);
    }
  }
  const topic =
    /\b(?:conversation|chat|discussion|talk)\s+(?:about|on|regarding)\s+(.+?)(?=[,.?!;]|\s+and\s+I\b|$)/i
      .exec(question)?.[1];
  return _term(topic ?? _nounChunk(question), null, null, question);
}

/** The noun chunks of a text that are not pronouns, longest first, "the" for an indefinite article. */
function _nounChunks(text: string): string[] {
  return (nlp(text).nouns().out("array") as string[])
    .map((c) => c.replace(/[?.!,;:]+$/g, "").trim())
    // An unbalanced quotation mark (a chunk cut inside a title) goes.
    .map((c) => {
      const opening = (c.match(/(?:^|\s)['"‘“]/g) ?? []).length;
      const closing = (c.match(/['"’”](?=\s|$)/g) ?? []).length;
      return opening === closing
        ? c
        : c.replace(/(^|\s)['"‘“]/g, "$1").replace(/['"’”](?=\s|$)/g, "");
    })
    .filter((c) => c !== "" && !PRONOUN.has(c.toLowerCase()) && !/^(?:me|us|them)$/i.test(c))
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((c) => _lowerFirst(c.replace(/^(?:a|an|some|any)\s+/i, "the ")));
}

/** The longest noun chunk of a text (see `_nounChunks`), or "this". */
const _nounChunk = (text: string): string => _nounChunks(text)[0] ?? "this";
