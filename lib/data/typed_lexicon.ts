/** A small curated lexicon of semantic types, so attacker targets are the same kind of thing as y*. */
import { matchesAnswer } from "../judges/matches.ts";
import { normalizeTokens } from "../judges/normalize.ts";
import type { Prng } from "../random/prng.ts";
import { shuffle } from "../random/shuffle.ts";

/** The semantic types the lexicon knows. */
export type SemanticType =
  | "food"
  | "drink"
  | "city"
  | "country"
  | "animal"
  | "pet-name"
  | "color"
  | "sport"
  | "activity"
  | "instrument"
  | "genre"
  | "profession"
  | "brand"
  | "streaming"
  | "vehicle"
  | "relationship"
  | "emotion"
  | "subject"
  | "health"
  | "clothing"
  | "plant"
  | "season"
  | "weekday"
  | "game"
  | "organization"
  | "place"
  | "art";

// Members are stored "|"-separated to keep the table readable; spelling is the display form.
const _RAW: Record<SemanticType, string> = {
  food:
    "lasagna|sushi|tacos|pancakes|ramen|pizza|chocolate chip cookies|banana bread|curry|dumplings|" +
    "mac and cheese|burritos|pad thai|apple pie|cheesecake|brownies|spaghetti|grilled salmon|" +
    "fried rice|cupcakes|ice cream|oatmeal|tiramisu|enchiladas",
  drink: "coffee|green tea|lemonade|hot chocolate|orange juice|iced tea|smoothies|espresso|" +
    "sparkling water|chai latte|kombucha|root beer|milkshakes|mojito|margarita|sangria|whiskey sour",
  city: "Boston|Denver|Miami|Rome|Austin|Toronto|Barcelona|Berlin|Tokyo|Portland|Dublin|" +
    "San Diego|Amsterdam|Nashville|Lisbon|Vancouver|Prague|Atlanta|Melbourne|Vienna|" +
    "Seattle|Chicago|New York|Paris|London",
  country: "Canada|Japan|Italy|Mexico|Brazil|Germany|Spain|Australia|Portugal|Greece|Ireland|" +
    "Thailand|Norway|Peru|Vietnam|Kenya|Sweden|France|India|Morocco",
  animal: "golden retriever|labrador|beagle|poodle|corgi|husky|dachshund|bulldog|tabby cat|" +
    "siamese cat|parrot|hamster|rabbit|turtle|guinea pig|goldfish|horse|ferret|cockatiel|" +
    "german shepherd|chihuahua|border collie",
  "pet-name": "Max|Bella|Charlie|Luna|Cooper|Daisy|Milo|Rocky|Buddy|Coco|Oscar|Ruby|Teddy|" +
    "Pepper|Ziggy|Biscuit|Shadow|Maple|Simba|Nala",
  color: "red|blue|green|yellow|purple|orange|pink|teal|navy|maroon|turquoise|lavender|beige",
  sport: "soccer|basketball|tennis|baseball|volleyball|swimming|golf|hockey|running|cycling|" +
    "rock climbing|surfing|boxing|skiing|badminton|rugby|table tennis|martial arts",
  activity: "painting|hiking|baking|gardening|knitting|photography|yoga|pottery|camping|fishing|" +
    "cooking|dancing|journaling|woodworking|bird watching|kayaking|sewing|calligraphy|" +
    "scrapbooking|meditation|volunteering|reading|writing poetry|origami",
  instrument: "piano|guitar|violin|drums|cello|flute|saxophone|ukulele|trumpet|clarinet|harp|" +
    "bass guitar|banjo|harmonica",
  genre: "science fiction|mystery|fantasy|romance|horror|thriller|historical fiction|biography|" +
    "comedy|documentary|poetry|self-help|jazz|classical|hip hop|country music|rock|pop|" +
    "indie folk|graphic novels",
  profession: "nurse|teacher|software engineer|accountant|chef|graphic designer|architect|" +
    "lawyer|pharmacist|journalist|electrician|dentist|librarian|social worker|veterinarian|" +
    "data analyst|marketing manager|photographer|mechanic|counselor|firefighter",
  brand: "Nike|Adidas|Apple|Samsung|Toyota|Ikea|Starbucks|Sony|Canon|Lego|Patagonia|Nintendo|" +
    "Honda|Dell|Zara",
  streaming: "Spotify|Netflix|Hulu|Apple Music|Pandora|YouTube Music|Disney+|Tidal|Audible|HBO Max",
  vehicle: "Honda Civic|Toyota Corolla|Ford Mustang|Subaru Outback|Jeep Wrangler|Tesla Model 3|" +
    "Mazda CX-5|Volkswagen Golf|motorcycle|minivan|pickup truck|scooter|bicycle",
  relationship: "family|friends|companions|roommates|coworkers|neighbors|siblings|partners|" +
    "children|teammates|mentors|classmates|best friends|guardians",
  emotion: "happy|proud|grateful|excited|nervous|anxious|relieved|frustrated|sad|overwhelmed|" +
    "inspired|calm|hopeful|lonely|content|motivated|disappointed|joyful|peaceful",
  subject: "biology|chemistry|psychology|economics|history|computer science|mathematics|" +
    "philosophy|art history|marketing|nursing|engineering|sociology|political science|" +
    "physics|literature|education|environmental science|graphic design|music theory",
  health: "asthma|migraines|back pain|allergies|diabetes|insomnia|a sprained ankle|the flu|" +
    "high blood pressure|a broken wrist|arthritis|a knee injury|bronchitis|eczema",
  clothing: "hoodie|sneakers|leather jacket|scarf|sundress|boots|beanie|denim jacket|sweater|" +
    "baseball cap|blazer|sandals|raincoat|cardigan",
  plant: "sunflowers|roses|tulips|orchids|daisies|lavender|succulents|ferns|lilies|peonies|" +
    "marigolds|cacti|bonsai|basil|hydrangeas|geraniums",
  season: "spring|summer|autumn|winter|fall",
  weekday: "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday",
  game: "chess|Monopoly|Scrabble|poker|Minecraft|Catan|Zelda|Mario Kart|Fortnite|sudoku|" +
    "crossword puzzles|Uno|The Sims|Tetris|checkers",
  organization: "a food bank|an animal shelter|a homeless shelter|a youth center|a book club|" +
    "a community garden|a hospital|a nonprofit|a charity|a church|a library|a support group|" +
    "a local school|a hiking club",
  place: "the park|the beach|the museum|a cafe|the library|the lake|the gym|the mountains|" +
    "the zoo|a bookstore|the farmers market|the aquarium|a bakery|the botanical garden|" +
    "an art gallery|the community center",
  art: "watercolor|oil painting|sculpture|sketching|pottery|abstract art|portraits|landscapes|" +
    "mosaics|printmaking|charcoal drawing|stained glass",
};

/** Members of each semantic type, in display spelling. */
export const TYPED_LEXICON: Readonly<Record<SemanticType, readonly string[]>> = Object.fromEntries(
  Object.entries(_RAW).map(([t, raw]) => [t, raw.split("|")]),
) as unknown as Record<SemanticType, readonly string[]>;

// Question cues in priority order: specific before general ("pet name" before "pet").
const _CUES: [RegExp, SemanticType][] = [
  [
    /\b(?:pet|dog|cat|puppy|kitten|horse)s?'?s?\b.*\bname|\bname.*\b(?:pet|dog|cat|puppy)s?\b/i,
    "pet-name",
  ],
  [
    /\b(?:breed|kind of (?:dog|cat|pet|animal)|type of (?:dog|cat|pet|animal)|what (?:pet|animal)s?)\b/i,
    "animal",
  ],
  [/\b(?:which|what)\s+(?:\w+\s+){0,2}cit(?:y|ies)\b|\bcities\b/i, "city"],
  [/\b(?:which|what)\s+(?:\w+\s+){0,2}countr(?:y|ies)\b|\bcountries\b/i, "country"],
  [/\binstruments?\b/i, "instrument"],
  [/\b(?:sports?|team sport)\b/i, "sport"],
  [/\b(?:drink|beverage|coffee|tea|cocktail|wine|beer)s?\b/i, "drink"],
  [
    /\b(?:food|eat|ate|dish|snack|meal|recipe|bake[ds]?|cook(?:ed|s)?|dessert|cuisine)\b(?!\s+(?:shop|place|restaurant|eatery|spot|store|bar))/i,
    "food",
  ],
  [
    /\b(?:genre|kind of (?:music|book|movie|film)s?|type of (?:music|book|movie|film)s?)\b/i,
    "genre",
  ],
  [/\b(?:job|work(?:s|ed)? as|profession|career|occupation)\b/i, "profession"],
  [/\b(?:car|vehicle|drive)s?\b/i, "vehicle"],
  [/\bstreaming\b/i, "streaming"],
  [/\b(?:brand|company|companies)\b/i, "brand"],
  [/\b(?:feel|felt|feeling|emotion|mood)s?\b/i, "emotion"],
  [/\b(?:stud(?:y|ied|ying)|major(?:ed)? in|degree|subject|fields?)\b/i, "subject"],
  [/\b(?:health|condition|illness|injur(?:y|ies)|diagnos|symptom|sick)/i, "health"],
  [/\b(?:wear|wore|clothing|outfit|shirt|shoes)\b/i, "clothing"],
  [/\b(?:flowers?|plants?|garden(?:ing)?|grow(?:s|ing)?)\b/i, "plant"],
  [/\b(?:day of the week|weekday)\b/i, "weekday"],
  [/\b(?:what|which) season\b/i, "season"],
  [/\b(?:board game|video game|game)s?\b/i, "game"],
  [/\b(?:volunteer(?:s|ed)?|organi[sz]ation|charity|shelter|club)\b/i, "organization"],
  [/\b(?:colou?rs?)\b/i, "color"],
  [/\b(?:paint(?:s|ed|ing)?|art(?:work)?|draw(?:s|ing)?)\b/i, "art"],
  [/\b(?:hobb(?:y|ies)|activit(?:y|ies)|for fun|skills?|pastime|passion|enjoy)/i, "activity"],
];

/** Split a list answer ("A, B, and C") into its items, plus how they were joined. */
export function _listItems(answer: string): { items: string[]; joiner: string } {
  const joiner = /,\s+and\s+/i.test(answer) ? ", and " : / and /i.test(answer) ? " and " : ", ";
  const items = answer.split(/\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+/i).map((s) => s.trim())
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
 * assert.deepEqual(inferAnswerType({ question: "What is Evan's favorite food?", answer: "Ginger snaps" }), "food");
 * assert.deepEqual(inferAnswerType({ question: "Who did she meet?", answer: "a tax advisor" }), null);
 * ```
 */
export function inferAnswerType(
  options: { question: string; answer: string },
): SemanticType | null {
  const { answer } = options;
  const { items } = _listItems(answer);
  const types = items.map((i) => _MEMBER_TYPE.get(_key(i)));
  if (types.length > 0 && types.every((t) => t !== undefined && t === types[0])) return types[0]!;
  // Cues count only near the wh-word of the last sentence: "What kind of writing ... his health
  // issues?" asks for writing, and long LongMemEval preambles mention many unrelated nouns.
  const last = options.question.split(/(?<=[.!?])\s+/).filter((x) => /\w/.test(x)).at(-1) ?? "";
  const wh = /\b(what|which|where|who|whom|whose|why|how|when)\b/i.exec(last);
  if (wh === null) return null;
  const word = wh[1].toLowerCase();
  const window = last.slice(wh.index).split(/\s+/).slice(0, 8).join(" ");
  // Clauses, sentences and possessive phrases are not members of a type; leave them to fallbacks.
  const short = items.every((i) => i.split(/\s+/).length <= 4) &&
    normalizeTokens(answer).length <= 10 && !/\b(?:my|his|her|their|our|your)\b/i.test(answer) &&
    !/^\w+ed\b/i.test(answer);
  if (!short) return null;
  // Multi-word capitalized names ("John Williams", "Hatha Yoga") only swap within proper-noun types.
  const proper = items.some((i) => /^[A-Z]\S*(?:\s+(?:of\s+)?[A-Z]\S*)+$/.test(i));
  const fits = (t: SemanticType) => !proper || _PROPER_TYPES.has(t);
  if (word === "where") {
    return items.length === 1 && /^(?!The\b)[A-Z][a-z]+(?: [A-Z][a-z]+)?$/.test(answer)
      ? "city"
      : null;
  }
  if (word === "how") return /\b(?:feel|felt)\b/i.test(window) ? "emotion" : null;
  if (word !== "what" && word !== "which") return null;
  for (const [cue, type] of _CUES) if (cue.test(window)) return fits(type) ? type : null;
  const words = normalizeTokens(answer);
  if (words.length > 4) return null;
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const t = _MEMBER_TYPE.get(words.slice(i, i + n).join(" "));
      if (t !== undefined) return fits(t) ? t : null;
    }
  }
  return null;
}

const _PROPER_TYPES = new Set<SemanticType>([
  "city",
  "country",
  "brand",
  "streaming",
  "pet-name",
  "game",
  "vehicle",
  "weekday",
  "subject",
]);

function _styled(member: string, like: string): string {
  const upper = /^[A-Z]/.test(like);
  if (/^[A-Z]/.test(member)) return member;
  if (/^(?:a|an|the) /.test(member) && !/^(?:a|an|the) /i.test(like)) {
    member = member.replace(/^(?:a|an|the) /, "");
  }
  return upper ? member[0].toUpperCase() + member.slice(1) : member;
}

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
  const { items, joiner } = _listItems(answer);
  const clash = (m: string) =>
    matchesAnswer(question, m) ||
    items.some((i) => matchesAnswer(i, m) || matchesAnswer(m, i)) ||
    matchesAnswer(answer, m) || matchesAnswer(m, answer);
  const pool = shuffle(TYPED_LEXICON[options.type].filter((m) => !clash(m)), {
    prng: options.prng,
  });
  const width = Math.max(1, items.length);
  const out: string[] = [];
  const limit = options.limit ?? 8;
  for (let start = 0; start + width <= pool.length && out.length < limit; start += width) {
    const picked = pool.slice(start, start + width).map((m, k) => _styled(m, items[k] ?? answer));
    const target = picked.length === 1
      ? picked[0]
      : joiner === ", "
      ? picked.join(", ")
      : picked.slice(0, -1).join(", ") + joiner + picked.at(-1);
    if (!matchesAnswer(target, answer) && !matchesAnswer(answer, target)) out.push(target);
  }
  return out;
}
