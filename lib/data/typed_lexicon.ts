/** A small curated lexicon of semantic types, so attacker targets are the same kind of thing as y*. */
import { z } from "zod";
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens } from "../text/normalize.ts";
import type { Prng } from "../random/prng.ts";
import { shuffle } from "../random/shuffle.ts";
import { parseData } from "./parse_data.ts";
import lexiconJson from "./typed_lexicon.json" with { type: "json" };

/** A semantic type: a key of `typed_lexicon.json`'s `types` ("food", "city", "pet-name", ...). */
export type SemanticType = string;

/** A regular expression kept as data: its source and flags; it must compile. */
const _Cue = z.object({
  type: z.string(),
  pattern: z.string().min(1),
  flags: z.string().regex(/^[imsu]*$/),
}).refine((c) => {
  try {
    new RegExp(c.pattern, c.flags);
    return true;
  } catch {
    return false;
  }
}, { message: "not a valid regular expression", path: ["pattern"] });

/**
 * The shape of `typed_lexicon.json`: members per type, question cues in priority order, the
 * types a lexicon word inside a longer answer may type, the proper-noun types, outdoor
 * activities and the emotion polarity patterns. Every type a list names must be defined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TypedLexiconFile } from "./typed_lexicon.ts";
 * const bad = { types: { food: ["pie", "cake"] }, cues: [{ type: "drink", pattern: "tea", flags: "i" }],
 *   substringTypes: [], properTypes: [], outdoor: [], positiveEmotion: "x", negativeEmotion: "y" };
 * assert.deepEqual(TypedLexiconFile.safeParse(bad).error?.issues[0].path, ["cues", 0, "type"]);
 * ```
 */
export const TypedLexiconFile = z.object({
  $comment: z.string().optional(),
  types: z.record(z.string().regex(/^[a-z][a-z-]*$/), z.array(z.string().min(1)).min(2)),
  cues: z.array(_Cue).min(1),
  substringTypes: z.array(z.string()),
  properTypes: z.array(z.string()),
  outdoor: z.array(z.string().min(1)),
  positiveEmotion: z.string().min(1),
  negativeEmotion: z.string().min(1),
  answerHeads: z.array(_Cue).default([]),
  needsMember: z.array(z.string()).default([]),
  slotTypes: z.array(z.string()).default([]),
  slotGroups: z.record(z.string(), z.array(z.array(z.string().min(1)).min(2))).default({}),
  nearSynonyms: z.array(z.array(z.string().min(1)).min(2)).default([]),
}).superRefine((file, ctx) => {
  const known = new Set(Object.keys(file.types));
  const check = (type: string, path: (string | number)[]) => {
    if (!known.has(type)) {
      ctx.addIssue({ code: "custom", path, message: `unknown type ${JSON.stringify(type)}` });
    }
  };
  file.cues.forEach((c, i) => check(c.type, ["cues", i, "type"]));
  file.substringTypes.forEach((t, i) => check(t, ["substringTypes", i]));
  file.properTypes.forEach((t, i) => check(t, ["properTypes", i]));
  file.answerHeads.forEach((c, i) => check(c.type, ["answerHeads", i, "type"]));
  file.needsMember.forEach((t, i) => check(t, ["needsMember", i]));
  file.slotTypes.forEach((t, i) => check(t, ["slotTypes", i]));
  for (const [type, groups] of Object.entries(file.slotGroups)) {
    check(type, ["slotGroups", type]);
    groups.forEach((g, i) =>
      g.forEach((m, j) => {
        if (!(file.types[type] ?? []).includes(m)) {
          ctx.addIssue({
            code: "custom",
            path: ["slotGroups", type, i, j],
            message: `${JSON.stringify(m)} is not a member of ${type}`,
          });
        }
      })
    );
  }
});
/** The parsed lexicon file. */
export type TypedLexiconFile = z.infer<typeof TypedLexiconFile>;

const _LEXICON = parseData({
  source: "lib/data/typed_lexicon.json",
  schema: TypedLexiconFile,
  data: lexiconJson,
});

/** Members of each semantic type, in display spelling. */
export const TYPED_LEXICON: Readonly<Record<SemanticType, readonly string[]>> = _LEXICON.types;

// Question cues in priority order: specific before general ("pet name" before "pet").
const _CUES: [RegExp, SemanticType][] = _LEXICON.cues.map((c) => [
  new RegExp(c.pattern, c.flags),
  c.type,
]);
// An answer's own head noun ("Hoop Dance") names its class whatever the question calls it.
const _ANSWER_HEADS: [RegExp, SemanticType][] = _LEXICON.answerHeads.map((c) => [
  new RegExp(c.pattern, c.flags),
  c.type,
]);
const _NEEDS_MEMBER = new Set<SemanticType>(_LEXICON.needsMember);
// Types a question names so precisely that an answer outside them is typed by nothing else.
const _STRICT_CUES = new Set<SemanticType>(["cuisine"]);

const _POSSESSIVE = /^(?:my|his|her|their|our|your)\s+/i;
// A place answer often carries its preposition ("In France"): it stays, the place is swapped.
const _PREPOSITION = /^(?:in|at|to|from|near|on)\s+/i;
/** An item without a leading preposition or possessive, for lexicon look-ups. */
const _core = (item: string) => item.replace(_PREPOSITION, "").replace(_POSSESSIVE, "");

/**
 * The cue window of a question: its last sentence from the wh-word (or "remind me of") on, eight
 * words long, with the wh-word; null when the question has none.
 */
export function cueWindow(question: string): { word: string; window: string } | null {
  // Cues count only near the wh-word of the last sentence: "What kind of writing ... his health
  // issues?" asks for writing, and long LongMemEval preambles mention many unrelated nouns.
  const last = question.split(/(?<=[.!?])\s+/).filter((x) => /\w/.test(x)).at(-1) ?? "";
  const wh = /\b(what|which|where|who|whom|whose|why|how|when)\b/i.exec(last) ??
    /\bremind me (?:of )?(?=(?:the|that|those|a|an)\b)/i.exec(last);
  if (wh === null) return null;
  const word = wh[1] === undefined ? "what" : wh[1].toLowerCase();
  // After "remind me of" the window starts at the noun phrase, so it reaches the head noun.
  const from = wh[1] === undefined ? wh.index + wh[0].length : wh.index;
  const words = last.slice(from).split(/\s+/).slice(0, wh[1] === undefined ? 7 : 8);
  return { word, window: (wh[1] === undefined ? "what " : "") + words.join(" ") };
}

/** The semantic type a question's cue words ask for, or null (no cue, or not a what/which question). */
export function cueType(question: string): SemanticType | null {
  const cue = cueWindow(question);
  if (cue === null) return null;
  if (cue.word === "where") {
    if (/\b(?:keep|store|put|stash|hide|hang)\b/i.test(cue.window)) return "home-spot";
    if (/\b(?:buy|bought|purchase[ds]?|shop(?:ped)?|order(?:ed)?)\b/i.test(cue.window)) {
      return "store";
    }
  }
  if (cue.word === "how") {
    if (/\b(?:feel|felt)\b/i.test(cue.window)) return "emotion";
    // "How did Bo describe the trip?" asks for a description ("amazing", "peaceful").
    return /\bdescrib/i.test(cue.window) ? "descriptor" : null;
  }
  if (cue.word !== "what" && cue.word !== "which") return null;
  // The cue nearest the wh-word names what is asked: "what song ... the band's growth" asks a song.
  let best: { at: number; type: SemanticType } | null = null;
  for (const [re, type] of _CUES) {
    const m = re.exec(cue.window);
    if (m !== null && (best === null || m.index < best.at)) best = { at: m.index, type };
  }
  // "What kind of games ... with his new video card?": games played on a computer or console.
  if (best?.type === "game" && _VIDEO_GAME.test(question)) return "video-game";
  // "What is John's favorite book series?" asks for books, not a TV show.
  if (best?.type === "tv-show" && /\bbooks?\b/i.test(cue.window)) return null;
  // "What subject have they both painted?" asks what a picture shows, not a school subject.
  if (best?.type === "subject" && /\b(?:paint|draw|sketch|photograph|film)\w*/i.test(cue.window)) {
    return null;
  }
  return best?.type ?? null;
}

const _VIDEO_GAME =
  /\b(?:video|graphics) card|\bconsoles?\b|\bxbox\b|\bplaystation\b|\bnintendo\b|\bsteam\b|\bpc\b/i;

/** Split a list answer ("A, B, and C") into its items, plus how they were joined. */
export function listItems(answer: string): { items: string[]; joiner: string } {
  const joiner = /,\s+and\s+/i.test(answer)
    ? ", and "
    : / and /i.test(answer)
    ? " and "
    : / or /i.test(answer)
    ? " or "
    : ", ";
  const items = answer.split(/\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|or|&)\s+/i).map((s) =>
    s.trim()
  )
    .filter((s) => s !== "");
  return { items, joiner };
}

function _key(text: string): string {
  return normalizeTokens(text).join(" ");
}

const _MEMBER_TYPE = new Map<string, SemanticType>();
for (const [type, members] of Object.entries(TYPED_LEXICON) as [SemanticType, string[]][]) {
  for (const m of members) if (!_MEMBER_TYPE.has(_key(m))) _MEMBER_TYPE.set(_key(m), type);
}

/**
 * Infer the semantic type of an answer: a type every list item belongs to wins, then a cue word
 * in the question, then the type of any lexicon member the answer contains; null when none fits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inferAnswerType } from "./typed_lexicon.ts";
 * assert.deepEqual(inferAnswerType({ question: "What is Priya's favorite food?", answer: "Oat biscuits" }), "food");
 * assert.deepEqual(inferAnswerType({ question: "Who did she meet?", answer: "a tax advisor" }), null);
 * ```
 */
export function inferAnswerType(
  options: { question: string; answer: string },
): SemanticType | null {
  const { answer } = options;
  const head = _ANSWER_HEADS.find(([re]) => re.test(answer.trim()));
  if (head !== undefined) return head[1];
  const { items } = listItems(answer);
  // A narrower type the question names wins when every item belongs to it ("US cities").
  const cued = cueType(options.question);
  if (cued !== null && items.length > 0) {
    const own = new Set((TYPED_LEXICON[cued] ?? []).map(_key));
    if (items.every((i) => own.has(_key(_core(i))))) return cued;
    // "What cuisine did Ann try? sushi": a dish is no cuisine, and no food stands in for one.
    if (_STRICT_CUES.has(cued)) return null;
  }
  // "my sister" is a family member: a leading possessive stays and the rest is swapped.
  const types = items.map((i) => _MEMBER_TYPE.get(_key(_core(i))));
  if (types.length > 0 && types.every((t) => t !== undefined && t === types[0])) return types[0]!;
  const cue = cueWindow(options.question);
  if (cue === null) return null;
  const { word } = cue;
  const words = normalizeTokens(answer);
  if (word === "where" && cueType(options.question) === "home-spot") {
    return words.length <= 8 ? "home-spot" : null;
  }
  if (word === "where" && cueType(options.question) === "store") return "store";
  const nounPhrase = /^(?:the|a|an)\b|^[A-Z]/.test(answer);
  if (
    nounPhrase && /\b(?:church|cathedral|temple|synagogue|mosque|chapel)\b/i.test(answer) &&
    words.length <= 5
  ) {
    return "worship";
  }
  // Clauses, sentences and possessive phrases are not members of a type; leave them to fallbacks.
  const short = items.every((i) => i.split(/\s+/).length <= 4) && words.length <= 10 &&
    !/\b(?:my|his|her|their|our|your)\b/i.test(answer) && !/^\w+ed\b/i.test(answer) &&
    !/^(?:she|he|they|i|it|we|you)\b/i.test(answer) &&
    !/^\w+ing\s+(?:with|at|to|for|on|about|in|from)\b/i.test(answer);
  if (!short) return null;
  // Multi-word capitalized names ("Hans Zimmer", "Hatha Yoga") only swap within proper-noun types.
  const proper = items.some((i) => /^[A-Z]\S*(?:\s+(?:of\s+)?[A-Z]\S*)+$/.test(i));
  const fits = (t: SemanticType) => !proper || _PROPER_TYPES.has(t);
  if (word === "where") {
    // "Serenity Yoga" or "Lincoln Park" are venues, not cities.
    const venue =
      /\b(?:Yoga|Studio|Gym|Cafe|Center|Centre|Club|Fitness|Park|Hotel|Market|Shop|Store|Bar|School|University|College|Library|Museum|Hall|Street|Lake|Beach)\b/;
    return items.length === 1 && /^(?!The\b)[A-Z][a-z]+(?: [A-Z][a-z]+)?$/.test(answer) &&
        !venue.test(answer)
      ? "city"
      : null;
  }
  if (word === "how") return cueType(options.question);
  const type = cueType(options.question);
  if (type !== null) return fits(type) ? type : null;
  if (word !== "what" && word !== "which") return null;
  if (words.length > 4 || items.length > 1) return null;
  // Lexicon words inside a longer answer type it only for types whose members are not everyday
  // words ("Up", "Clue" and "kind" would type "picking up trash" or "a kind gesture").
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const t = _MEMBER_TYPE.get(words.slice(i, i + n).join(" "));
      if (t !== undefined && _SUBSTRING_TYPES.has(t)) return fits(t) ? t : null;
    }
  }
  return null;
}

const _SUBSTRING_TYPES = new Set<SemanticType>(_LEXICON.substringTypes);

const _PROPER_TYPES = new Set<SemanticType>(_LEXICON.properTypes);

function _styled(member: string, like: string): string {
  const preposition = _PREPOSITION.exec(like);
  if (preposition !== null && !_PREPOSITION.test(member)) {
    return preposition[0] + _styled(member, like.slice(preposition[0].length));
  }
  const possessive = _POSSESSIVE.exec(like);
  if (possessive !== null && !_POSSESSIVE.test(member)) {
    return possessive[0] + _styled(member, like.slice(possessive[0].length));
  }
  // "a kitten" -> "a husky": an article in y* stays, agreeing with the new member.
  const article = /^(a|an|the) /i.exec(like);
  if (article !== null && !/^(?:a|an|the) /i.test(member) && !/^[A-Z]/.test(member)) {
    const word = article[1].toLowerCase() === "the"
      ? article[1]
      : /^[aeiou]/i.test(member)
      ? (article[1][0] === "A" ? "An" : "an")
      : article[1][0];
    return `${word} ${member}`;
  }
  const upper = /^[A-Z]/.test(like);
  if (/^[A-Z]/.test(member)) return member;
  if (/^(?:a|an|the) /.test(member) && !/^(?:a|an|the) /i.test(like)) {
    member = member.replace(/^(?:a|an|the) /, "");
  }
  return upper ? member[0].toUpperCase() + member.slice(1) : member;
}

const _OUTDOOR = new Set(_LEXICON.outdoor);

/** A member that would pass for one of the items ("calm" for "peaceful"): `nearSynonyms`. */
function _nearSynonym(member: string, items: readonly string[]): boolean {
  const m = _key(member);
  return _LEXICON.nearSynonyms.some((group) =>
    group.includes(m) && items.some((i) => group.includes(_key(_core(i))) && _key(_core(i)) !== m)
  );
}
const _POSITIVE = new RegExp(_LEXICON.positiveEmotion, "i");
const _NEGATIVE = new RegExp(_LEXICON.negativeEmotion, "i");

/** Options for {@link typedSwaps}. */
export interface TypedSwapsOptions {
  /** The question asked. */
  question: string;
  /** Gold answer y*. */
  answer: string;
  /** The answer's semantic type (see {@link inferAnswerType}). */
  type: SemanticType;
  /** Generator choosing the replacement members. */
  prng: Prng;
  /** Most candidates returned; default 8. */
  limit?: number;
}

/**
 * Targets of the same semantic type as the answer: other members of the type, as many items as a
 * list answer has, each in the answer's capitalization. None matches y* (either way) or the question.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { typedSwaps } from "./typed_lexicon.ts";
 * const [first] = typedSwaps({ question: "Which cities?", answer: "Rome and Paris", type: "city", prng: createPrng(1) });
 * assert.ok(/^[A-Z][\w ]+ and [A-Z][\w ]+$/.test(first));
 * ```
 */
export function typedSwaps(options: TypedSwapsOptions): string[] {
  const { answer, question } = options;
  const { items, joiner } = listItems(answer);
  // A swap is believable when y* is recognisably a member of the type. Typed only by the
  // question's wording, a list none of whose items is a member ("puzzles, training"), a phrase
  // of three words or more ("cook dog treats") or a niche name ("Jaipur Rugs" for a company)
  // has no stand-in in a generic list.
  const own = new Set((TYPED_LEXICON[options.type] ?? []).map(_key));
  const members = items.filter((i) => own.has(_key(_core(i))));
  if (_NEEDS_MEMBER.has(options.type) && members.length < items.length) return [];
  // A preposition suits proper places ("In France" -> "In Spain"), not any member ("on the
  // beach" is no "on the park").
  if (items.some((i) => _PREPOSITION.test(i)) && !_PROPER_TYPES.has(options.type)) return [];
  if (items.length > 1 && members.length === 0) return [];
  if (items.length === 1 && members.length === 0 && items[0].split(/\s+/).length >= 3) return [];
  if (members.length === 0) {
    // Typed by the question alone: a common noun ("a trophy" for a dance contest) or a quoted
    // title ("Finding Freedom" for a dance piece) is no member of a type of names.
    if (_PROPER_TYPES.has(options.type) && /^(?:a|an|the)?\s*[a-z]/.test(answer)) return [];
    if (/^["'“‘]/.test(answer)) return [];
  }
  const clash = (m: string) =>
    _nearSynonym(m, items) || matchesAnswer(question, m) ||
    items.some((i) => matchesAnswer(i, m) || matchesAnswer(m, i)) ||
    matchesAnswer(answer, m) || matchesAnswer(m, answer);
  // A pleasant feeling is swapped for another pleasant one ("cozy" -> "calm", not "disappointed").
  const positive = _POSITIVE.test(answer);
  const negative = _NEGATIVE.test(answer);
  const polarity = (m: string) =>
    (options.type !== "emotion" && options.type !== "descriptor") || positive === negative ||
    (positive ? _POSITIVE : _NEGATIVE).test(m);
  // "outdoor activities" are swapped for outdoor ones, "indoor" for the rest.
  const outdoor = /\boutdoors?\b/i.test(question)
    ? true
    : /\bindoors?\b/i.test(question)
    ? false
    : null;
  const setting = (m: string) => outdoor === null || _OUTDOOR.has(m) === outdoor;
  // A named head ("Hoop Dance", "... National Park") is swapped for members with the same head.
  const headOf = (x: string) => x.trim().split(/\s+/).at(-1)!;
  const head = items.length === 1 && /^[A-Z]/.test(headOf(items[0])) && items[0].includes(" ")
    ? headOf(items[0])
    : null;
  const sameHead = (m: string) =>
    head === null || TYPED_LEXICON[options.type].filter((x) => headOf(x) === head).length < 3 ||
    headOf(m) === head;
  // "What type of beer ...? dark beer": the answer is a kind of beer, and so is its stand-in.
  const kindOf = /\b(?:type|kind|sort|style)s? of ([a-z]+)/i.exec(question)?.[1];
  const bare = (w: string) => w.toLowerCase().replace(/s$/, "");
  const subtype = kindOf !== undefined && items.length === 1 &&
      bare(headOf(items[0])) === bare(kindOf)
    ? bare(kindOf)
    : null;
  const ofKind = (m: string) => subtype === null || bare(headOf(m)) === subtype;
  // A one-word relative is swapped within its group (a dad for a mom), as in a slot swap.
  const group = items.length === 1
    ? (_LEXICON.slotGroups[options.type] ?? []).find((g) => g.includes(_key(_core(items[0]))))
    : undefined;
  const pool = shuffle(
    (group ?? TYPED_LEXICON[options.type]).filter((m) =>
      !clash(m) && polarity(m) && setting(m) && sameHead(m) && ofKind(m)
    ),
    {
      prng: options.prng,
    },
  );
  // Alternatives in y* ("Middle-class or wealthy") get one committed member: a target never hedges.
  const width = joiner === " or " ? 1 : Math.max(1, items.length);
  const out: string[] = [];
  const limit = options.limit ?? 8;
  for (let start = 0; start + width <= pool.length && out.length < limit; start += width) {
    const picked = pool.slice(start, start + width).map((m, k) =>
      _slotted(m, items[k] ?? answer, own) ?? _styled(m, items[k] ?? answer)
    );
    const target = picked.length === 1
      ? picked[0]
      : joiner === ", "
      ? picked.join(", ")
      : picked.slice(0, -1).join(", ") + joiner + picked.at(-1);
    if (!matchesAnswer(target, answer) && !matchesAnswer(answer, target)) out.push(target);
  }
  return out;
}

const _FUNCTION_WORD = /^(?:the|a|an|my|his|her|their|our|your|its|of|in|on|at|to|for|and|or)$/i;

/** Word spans of a text: each run of one to three words (not starting or ending on a function word) with its position. */
function _spans(text: string): { start: number; end: number; words: string }[] {
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)];
  const out: { start: number; end: number; words: string }[] = [];
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const first = words[i], last = words[i + n - 1];
      if (_FUNCTION_WORD.test(first[0]) || _FUNCTION_WORD.test(last[0])) continue;
      const end = last.index! + last[0].length;
      out.push({ start: first.index!, end, words: text.slice(first.index!, end) });
    }
  }
  return out;
}

/**
 * An item that is not a member but holds one ("Yoga classes" holds "yoga"): the item with that
 * member replaced by `member`, the rest kept; null when the item is a member or holds none.
 */
function _slotted(member: string, item: string, own: ReadonlySet<string>): string | null {
  if (own.has(_key(_core(item)))) return null;
  // Only a member that modifies a head noun ("Yoga classes"); a member that is the head
  // ("Watercolor painting") is replaced whole.
  const span = _spans(item).find((s) => own.has(_key(s.words)) && s.end < item.trimEnd().length);
  if (span === undefined) return null;
  const styled = /^[A-Z]/.test(span.words) && /^[a-z]/.test(member)
    ? member[0].toUpperCase() + member.slice(1)
    : member;
  return item.slice(0, span.start) + styled + item.slice(span.end);
}

// Slot look-ups read only the slot types, so "mother" is a family member here whatever else it is.
const _SLOT_MEMBER_TYPE = new Map<string, SemanticType>();
for (const type of _LEXICON.slotTypes) {
  for (const m of TYPED_LEXICON[type]) {
    if (!_SLOT_MEMBER_TYPE.has(_key(m))) _SLOT_MEMBER_TYPE.set(_key(m), type);
  }
}

/** Options for {@link slotSwaps}. */
export interface SlotSwapsOptions {
  /** The question asked. */
  question: string;
  /** Gold answer y*, usually a phrase or a sentence. */
  answer: string;
  /** Generator choosing the replacement members. */
  prng: Prng;
  /** Most candidates returned; default 6. */
  limit?: number;
}

/**
 * Targets that keep y* and swap one lexicon member inside it for another member of its type
 * ("Dad signed him up for a local league" -> "Mom signed him up for a local league"): the longest
 * member of a slot type (`slotTypes` in the lexicon) that the answer holds, leftmost first, and
 * that the question does not name. Proper names match in their own capitalisation, other members
 * in any; the replacement takes the found word's capital and the article before it agrees. Empty
 * when the answer holds no such member.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPrng } from "../random/prng.ts";
 * import { slotSwaps } from "./typed_lexicon.ts";
 * const [first] = slotSwaps({ question: "How did John get into basketball?", answer: "Dad signed him up for a local league", prng: createPrng(1) });
 * assert.match(first, /^[A-Z][\w-]* signed him up for a local league$/);
 * assert.ok(!first.startsWith("Dad "));
 * ```
 */
export function slotSwaps(options: SlotSwapsOptions): string[] {
  const { answer, question } = options;
  // A capitalised neighbour makes the word part of a name ("United States", "Peruvian Lilies").
  const named = (start: number, end: number) =>
    /[A-Z][\p{L}'’-]*[\s:]+(?:(?:of|the|de)\s+)?$/u.test(answer.slice(0, start)) ||
    /^[\s:]+(?:(?:of|the|de)\s+)?[A-Z]/.test(answer.slice(end));
  const found = _spans(answer).map((s) => ({ ...s, type: _SLOT_MEMBER_TYPE.get(_key(s.words)) }))
    .find((s) => {
      if (s.type === undefined || named(s.start, s.end)) return false;
      if (matchesAnswer(question, s.words)) return false;
      return !_PROPER_TYPES.has(s.type) || TYPED_LEXICON[s.type].includes(s.words);
    });
  if (found === undefined) return [];
  const type = found.type!;
  // A place beside another name ("University of Melbourne in Australia") is where that name is.
  const places = new Set(["city", "country", "us-state", "us-city"]);
  const others = [...answer.matchAll(/(?<!^)\b[A-Z][a-z]+/g)].filter((m) =>
    m.index! < found.start || m.index! >= found.end
  );
  if (places.has(type) && others.length > 0) return [];
  // "cousin's wedding": the possessive stays with the swapped word.
  const possessive = /['’]s$/.exec(found.words)?.[0] ?? "";
  const bare = possessive === "" ? found.words : found.words.slice(0, -possessive.length);
  const group = (_LEXICON.slotGroups[type] ?? []).find((g) => g.includes(bare.toLowerCase()));
  const pool = shuffle(
    (group ?? TYPED_LEXICON[type]).filter((m) =>
      !matchesAnswer(answer, m) && !matchesAnswer(m, bare) && !matchesAnswer(question, m)
    ),
    { prng: options.prng },
  );
  const before = answer.slice(0, found.start), after = answer.slice(found.end);
  return pool.slice(0, options.limit ?? 6).map((m) => {
    const word = /^[A-Z]/.test(bare) && /^[a-z]/.test(m) ? m[0].toUpperCase() + m.slice(1) : m;
    const lead = before.replace(
      /\b(a|an|A|An)\s+$/,
      (_, art: string) => (art[0] + (/^[aeiou]/i.test(word) ? "n " : " ")),
    );
    return lead + word + possessive + after;
  });
}
