/** A small curated lexicon of semantic types, so attacker targets are the same kind of thing as y*. */
import { matchesAnswer } from "../text/matches.ts";
import { normalizeTokens } from "../text/normalize.ts";
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
  | "video-game"
  | "console"
  | "organization"
  | "place"
  | "art"
  | "us-state"
  | "airline"
  | "app"
  | "language-app"
  | "music-streaming"
  | "tv-show"
  | "movie"
  | "song"
  | "musician"
  | "composer"
  | "cocktail"
  | "bulb"
  | "home-spot"
  | "store"
  | "restaurant"
  | "lodging"
  | "writing"
  | "family"
  | "worship"
  | "holiday"
  | "national-park"
  | "politics"
  | "finance"
  | "trait"
  | "yoga";

// Members are stored "|"-separated to keep the table readable; spelling is the display form.
const _RAW: Record<SemanticType, string> = {
  food:
    "lasagna|sushi|tacos|pancakes|ramen|pizza|chocolate chip cookies|banana bread|curry|dumplings|" +
    "mac and cheese|burritos|pad thai|apple pie|cheesecake|brownies|spaghetti|grilled salmon|" +
    "fried rice|cupcakes|ice cream|oatmeal|tiramisu|enchiladas",
  drink: "coffee|green tea|lemonade|hot chocolate|orange juice|iced tea|smoothies|espresso|" +
    "sparkling water|chai latte|kombucha|root beer|milkshakes",
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
  streaming: "Netflix|Hulu|Disney+|HBO Max|Prime Video|Peacock|Paramount+|Apple TV+",
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
  game: "chess|Monopoly|Scrabble|poker|Catan|Uno|Codenames|Ticket to Ride|Clue|Werewolf|" +
    "Exploding Kittens|Phase 10|Skip-Bo|checkers|Risk|Pictionary",
  "video-game": "Minecraft|Zelda|Mario Kart|Fortnite|The Sims|Tetris|Call of Duty|Overwatch|" +
    "Animal Crossing|Halo|Elden Ring|Stardew Valley|League of Legends",
  console: "Xbox|PlayStation|Nintendo Switch|PC|Wii|Gamecube|Nintendo DS|Steam Deck|Game Boy|" +
    "Xbox One|PS5|Sega Genesis",
  "us-state": "California|Florida|Texas|Oregon|Colorado|Ohio|Michigan|Minnesota|Pennsylvania|" +
    "Arizona|Georgia|Washington|Virginia|Illinois|Wisconsin|Indiana|Tennessee|Maine|Montana|" +
    "Utah|North Carolina|New Jersey|Massachusetts|Hawaii|Alaska|Vermont|Iowa|Kentucky",
  airline: "Delta|United|United Airlines|American Airlines|Southwest Airlines|JetBlue|" +
    "Alaska Airlines|Spirit Airlines|Frontier Airlines|Air Canada|British Airways|Lufthansa|" +
    "Emirates|Hawaiian Airlines|Delta Air Lines",
  "language-app": "Duolingo|Memrise|Babbel|Anki|Quizlet|Rosetta Stone|Busuu|Pimsleur|" +
    "LingoDeer|HelloTalk|Drops|Clozemaster",
  app: "Headspace|Khan Academy|Coursera|Udemy|Skillshare|Udacity|Wikipedia|Reddit|Evernote|" +
    "Trello|Notion|YouTube|Pinterest|Teoria|Codecademy",
  "music-streaming": "Spotify|Apple Music|Pandora|YouTube Music|Tidal|Amazon Music|Deezer|" +
    "SoundCloud",
  "tv-show": "Breaking Bad|The Office|Friends|Parks and Recreation|Stranger Things|The Crown|" +
    "Downton Abbey|Sherlock|Ted Lasso|Grey's Anatomy|Schitt's Creek|Brooklyn Nine-Nine|" +
    "Gilmore Girls|Call the Midwife|Midsomer Murders|Seinfeld",
  movie: "Toy Story|Finding Nemo|The Lion King|Frozen|Moana|Up|Coco|Zootopia|Aladdin|Mulan|" +
    "Tangled|Encanto|Inside Out|The Incredibles|Beauty and the Beast|WALL-E",
  song: "Imagine|Bohemian Rhapsody|Hey Jude|Yesterday|Wonderwall|Hallelujah|Clocks|Fix You|" +
    "Let It Be|Halo|Creep|Yellow|Dreams|Africa|Landslide|Vienna",
  musician: "Coldplay|Queen|The Beatles|Radiohead|Fleetwood Mac|Taylor Swift|Ed Sheeran|Adele|" +
    "Imagine Dragons|The Killers|Arctic Monkeys|Foo Fighters|Bon Jovi|U2|Maroon 5",
  composer: "Hans Zimmer|Howard Shore|Ennio Morricone|James Horner|Danny Elfman|Alan Menken|" +
    "Joe Hisaishi|Ludwig Göransson|Alexandre Desplat|Thomas Newman",
  cocktail: "mojito|margarita|old fashioned|negroni|cosmopolitan|whiskey sour|moscow mule|" +
    "espresso martini|aperol spritz|paloma|french 75|tom collins|mai tai|daiquiri|gin and tonic",
  bulb: "GE soft white bulb|Sylvania halogen bulb|Cree LED bulb|Philips Hue smart bulb|" +
    "compact fluorescent bulb|incandescent bulb|Edison filament bulb",
  "home-spot": "under my bed|in the garage|in the hall closet|in a storage bin in the basement|" +
    "on a shelf in the garage|in the attic|by the front door|in the laundry room|" +
    "in a box under the stairs|in the spare bedroom closet",
  store: "Target|Walmart|Costco|Trader Joe's|Whole Foods|Best Buy|Home Depot|IKEA|Macy's|" +
    "Nordstrom|TJ Maxx|H&M|Zara|Barnes & Noble|Old Navy|Kohl's|REI",
  restaurant: "Joe's Pizza|Katz's Delicatessen|Shake Shack|Sweetgreen|Balthazar|The Little Owl|" +
    "Blue Hill|Russ & Daughters|Veselka|Xi'an Famous Foods|Le Bernardin|Dirt Candy",
  lodging: "Generator Hostel|Flying Pig Downtown|St Christopher's Inn|Hostel One|" +
    "The Student Hotel|Meininger Hostel|ClinkNOORD|Stayokay Vondelpark",
  writing: "journaling|poetry|short stories|blog posts|song lyrics|essays|fan fiction|" +
    "a memoir|screenplays|letters|creative writing|novels|personal essays|haiku",
  family: "mother|father|mom|dad|sister|brother|grandmother|grandfather|grandma|grandpa|aunt|" +
    "uncle|cousin|daughter|son|wife|husband|niece|nephew|stepmother|stepfather|sister-in-law|" +
    "brother-in-law",
  worship: "St. Mary's Catholic Church|the First Baptist Church|the Methodist Church|" +
    "the Lutheran Church|the Presbyterian Church|Grace Community Church|" +
    "St. Paul's Cathedral|the Unitarian Church",
  holiday: "Christmas|Thanksgiving|Easter|New Year's Eve|Halloween|the Fourth of July|" +
    "Valentine's Day|Labor Day|Memorial Day|Hanukkah",
  "national-park": "Yellowstone National Park|Yosemite National Park|Glacier National Park|" +
    "Zion National Park|Acadia National Park|Grand Teton National Park|Olympic National Park|" +
    "Rocky Mountain National Park|Great Smoky Mountains National Park|Isle Royale National Park",
  politics: "liberal|conservative|moderate|progressive|libertarian|centrist|independent",
  finance: "low-income|working-class|middle-class|upper-middle-class|wealthy|" +
    "struggling financially|comfortable",
  trait: "kind|ambitious|creative|shy|stubborn|outgoing|patient|funny|generous|curious|" +
    "organized|impulsive|reserved|loyal|cautious|adventurous|easygoing|competitive",
  yoga: "Vinyasa Yoga|Yin Yoga|Ashtanga Yoga|Power Yoga|Kundalini Yoga|Iyengar Yoga|" +
    "Bikram Yoga|Restorative Yoga|Hatha Yoga",
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
  [/\bnational parks?\b/i, "national-park"],
  [/\b(?:us |u\.s\. )?states?\b(?! of)/i, "us-state"],
  [/\b(?:which|what)\s+(?:\w+\s+){0,2}cit(?:y|ies)\b|\bcities\b/i, "city"],
  [/\b(?:which|what)\s+(?:\w+\s+){0,2}countr(?:y|ies)\b|\bcountries\b/i, "country"],
  [/\bairlines?\b/i, "airline"],
  [/\b(?:holiday|festive season)s?\b/i, "holiday"],
  [/\bcomposers?\b/i, "composer"],
  [/\b(?:band|singer|musician|rapper|music artist)s?\b/i, "musician"],
  [/\b(?:songs?|tracks?|tunes?)\b/i, "song"],
  [/\bmusic streaming|streaming (?:service|platform) for music\b/i, "music-streaming"],
  [/\bstreaming\b/i, "streaming"],
  [/\b(?:tv )?(?:shows?|series|sitcoms?)\b/i, "tv-show"],
  [/\b(?:movie|film)s?\b(?! genre)/i, "movie"],
  [/\b(?:apps?|application|websites?|site|platform)\b/i, "app"],
  [/\binstruments?\b/i, "instrument"],
  [/\b(?:kind|type|style)s? of yoga\b/i, "yoga"],
  [/\b(?:sports?|team sport)\b/i, "sport"],
  [/\bcocktails?\b/i, "cocktail"],
  [/\b(?:drink|beverage|coffee|tea|wine|beer)s?\b/i, "drink"],
  [/\b(?:restaurant|eatery|bistro|diner|pizzeria)s?\b/i, "restaurant"],
  [/\b(?:hostel|hotel|motel|inn|b&b)s?\b/i, "lodging"],
  [/\b(?:store|shop|retailer|boutique)s?\b/i, "store"],
  [/\bbulbs?\b/i, "bulb"],
  [
    /\b(?:food|eat|ate|dish|snack|meal|recipe|bake[ds]?|cook(?:ed|s)?|dessert|cuisine)\b(?!\s+(?:shop|place|restaurant|eatery|spot|store|bar))/i,
    "food",
  ],
  [
    /\b(?:genre|kind of (?:music|book|movie|film)s?|type of (?:music|book|movie|film)s?)\b/i,
    "genre",
  ],
  [
    /\b(?:kind|type|form|sort|style)s? of writing\b|\bwhat (?:\w+ ){0,3}writ(?:e|es|ing)\b/i,
    "writing",
  ],
  [/\b(?:job|work(?:s|ed)? as|profession|career|occupation)\b/i, "profession"],
  [/\bpolitic/i, "politics"],
  [/\b(?:financial|income|wealth)/i, "finance"],
  [/\b(?:personality|traits?|qualities)\b/i, "trait"],
  [/\b(?:consoles?|mediums?|devices?) .*\bgames?\b/i, "console"],
  [/\b(?:car|vehicle|drive)s?\b/i, "vehicle"],
  [/\b(?:brand|company|companies)\b/i, "brand"],
  [/\b(?:feel|felt|feeling|emotion|mood)s?\b/i, "emotion"],
  [
    /\b(?:stud(?:y|ied|ying)|major(?:ed)? in|degree|subject|fields?|certification|certificate)\b/i,
    "subject",
  ],
  [/\b(?:health|condition|illness|injur(?:y|ies)|diagnos|symptom|sick)/i, "health"],
  [/\b(?:wear|wore|clothing|outfit|shirt|shoes)\b/i, "clothing"],
  [/\b(?:flowers?|plants?|garden(?:ing)?|grow(?:s|ing)?)\b/i, "plant"],
  [/\b(?:day of the week|weekday)\b/i, "weekday"],
  [/\b(?:what|which) season\b/i, "season"],
  [/\bvideo games?\b/i, "video-game"],
  [/\b(?:board game|card game|cards|game)s?\b/i, "game"],
  [/\b(?:volunteer(?:s|ed)?|organi[sz]ation|charity|shelter|club)\b/i, "organization"],
  [/\b(?:colou?rs?)\b/i, "color"],
  [/\b(?:paint(?:s|ed|ing)?|art(?:work)?|draw(?:s|ing)?)\b/i, "art"],
  [/\b(?:hobb(?:y|ies)|activit(?:y|ies)|for fun|skills?|pastime|passion|enjoy)/i, "activity"],
];

const _POSSESSIVE = /^(?:my|his|her|their|our|your)\s+/i;

/**
 * The cue window of a question: its last sentence from the wh-word (or "remind me of") on, eight
 * words long, with the wh-word; null when the question has none.
 */
export function _cueWindow(question: string): { word: string; window: string } | null {
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
export function _cueType(question: string): SemanticType | null {
  const cue = _cueWindow(question);
  if (cue === null) return null;
  if (cue.word === "where") {
    if (/\b(?:keep|store|put|stash|hide|hang)\b/i.test(cue.window)) return "home-spot";
  }
  if (cue.word !== "what" && cue.word !== "which") return null;
  // The cue nearest the wh-word names what is asked: "what song ... the band's growth" asks a song.
  let best: { at: number; type: SemanticType } | null = null;
  for (const [re, type] of _CUES) {
    const m = re.exec(cue.window);
    if (m !== null && (best === null || m.index < best.at)) best = { at: m.index, type };
  }
  return best?.type ?? null;
}

/** Split a list answer ("A, B, and C") into its items, plus how they were joined. */
export function _listItems(answer: string): { items: string[]; joiner: string } {
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
  const { items } = _listItems(answer);
  // "my sister" is a family member: a leading possessive stays and the rest is swapped.
  const types = items.map((i) => _MEMBER_TYPE.get(_key(i.replace(_POSSESSIVE, ""))));
  if (types.length > 0 && types.every((t) => t !== undefined && t === types[0])) return types[0]!;
  const cue = _cueWindow(options.question);
  if (cue === null) return null;
  const { word, window } = cue;
  const words = normalizeTokens(answer);
  if (word === "where" && _cueType(options.question) === "home-spot") {
    return words.length <= 8 ? "home-spot" : null;
  }
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
  if (word === "how") return /\b(?:feel|felt)\b/i.test(window) ? "emotion" : null;
  const type = _cueType(options.question);
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

const _SUBSTRING_TYPES = new Set<SemanticType>([
  "food",
  "drink",
  "city",
  "country",
  "animal",
  "color",
  "sport",
  "activity",
  "instrument",
  "genre",
  "profession",
  "brand",
  "vehicle",
  "emotion",
  "subject",
  "health",
  "clothing",
  "plant",
  "organization",
  "place",
  "art",
  "us-state",
  "airline",
  "cocktail",
]);

const _PROPER_TYPES = new Set<SemanticType>([
  "video-game",
  "console",
  "us-state",
  "airline",
  "app",
  "language-app",
  "music-streaming",
  "tv-show",
  "movie",
  "song",
  "musician",
  "composer",
  "store",
  "restaurant",
  "lodging",
  "worship",
  "holiday",
  "national-park",
  "yoga",
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
  const possessive = _POSSESSIVE.exec(like);
  if (possessive !== null && !_POSSESSIVE.test(member)) {
    return possessive[0] + _styled(member, like.slice(possessive[0].length));
  }
  const upper = /^[A-Z]/.test(like);
  if (/^[A-Z]/.test(member)) return member;
  if (/^(?:a|an|the) /.test(member) && !/^(?:a|an|the) /i.test(like)) {
    member = member.replace(/^(?:a|an|the) /, "");
  }
  return upper ? member[0].toUpperCase() + member.slice(1) : member;
}

const _OUTDOOR =
  /^(?:hiking|gardening|camping|fishing|bird watching|kayaking|photography|soccer|tennis|baseball|golf|running|cycling|rock climbing|surfing|skiing|swimming|volleyball|rugby|the park|the beach|the lake|the mountains|the zoo)$/;
const _POSITIVE =
  /\b(?:happy|proud|grateful|gratitude|excited|relieved|inspired|calm|hopeful|content|motivated|joy\w*|peace\w*|cozy|comfortable|warm|welcome[d]?|love[d]?|thankful|heartwarming|fulfilled|glad)\b/i;
const _NEGATIVE =
  /\b(?:nervous|anxious|frustrated|sad|overwhelmed|lonely|disappointed|angry|scared|afraid|upset|stress\w*|worried|guilty|hurt|jealous)\b/i;

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
  // A pleasant feeling is swapped for another pleasant one ("cozy" -> "calm", not "disappointed").
  const positive = _POSITIVE.test(answer);
  const negative = _NEGATIVE.test(answer);
  const polarity = (m: string) =>
    options.type !== "emotion" || positive === negative ||
    (positive ? _POSITIVE : _NEGATIVE).test(m);
  // "outdoor activities" are swapped for outdoor ones, "indoor" for the rest.
  const outdoor = /\boutdoors?\b/i.test(question)
    ? true
    : /\bindoors?\b/i.test(question)
    ? false
    : null;
  const setting = (m: string) => outdoor === null || _OUTDOOR.test(m) === outdoor;
  const pool = shuffle(
    TYPED_LEXICON[options.type].filter((m) => !clash(m) && polarity(m) && setting(m)),
    {
      prng: options.prng,
    },
  );
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
