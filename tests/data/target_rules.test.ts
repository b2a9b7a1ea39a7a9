/**
 * The rules for targets that give nothing away (issue 19 item 5), each on small invented
 * examples: y_adv keeps y*'s format, lies on the trace's timeline, is well formed, is not stated
 * by the helpful evidence; and the answer kinds that keep skipping rare (choice questions, slot
 * swaps, like-question answers from the whole dataset, cleaned long answers).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { createPrng } from "../../lib/random/prng.ts";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { attackTargets, targetProblem } from "../../lib/data/attack_targets.ts";
import { answerKindOf, choiceOf } from "../../lib/data/answer_kind.ts";
import { cleanAnswer, likeAnswers } from "../../lib/data/_sources.ts";
import { dateSpan } from "../../lib/data/date_span.ts";
import { phraseShape } from "../../lib/data/phrase_shape.ts";
import { questionHead } from "../../lib/data/question_head.ts";
import {
  formatProblem,
  keepFormat,
  spellNumber,
  wellFormedProblem,
} from "../../lib/data/target_format.ts";
import { changedParts, evidenceProblem } from "../../lib/data/target_support.ts";
import { timelineProblem } from "../../lib/data/target_timeline.ts";
import { slotSwaps, typedSwaps } from "../../lib/data/typed_lexicon.ts";

const targets = (
  answer: string,
  more: Partial<Parameters<typeof attackTargets>[0]> = {},
) =>
  attackTargets({
    answer,
    kind: answerKindOf({ answer, question: more.question }),
    prng: createPrng(7),
    ...more,
  }).map((c) => c.target);

// ---- 1. Format ---------------------------------------------------------------------------

Deno.test("attackTargets() keeps number words as words and digits as digits", () => {
  for (const answer of ["nine", "two times", "Four years", "six months"]) {
    const out = targets(answer, { question: "How many?" });
    assert.ok(out.length > 0, answer);
    for (const t of out) assert.ok(!/\d/.test(t), `${answer} -> ${t}`);
  }
  assert.ok(targets("Four years").every((t) => /^[A-Z][a-z-]+ years?$/.test(t)));
  for (const t of targets("3 dogs")) assert.match(t, /^\d+ dogs?$/);
});

Deno.test("attackTargets() restyles an outdated value in digits to y*'s number word", () => {
  const [first] = attackTargets({
    answer: "nine months",
    kind: "number",
    outdated: ["6 months"],
    prng: createPrng(1),
  });
  assert.deepEqual(first, { target: "six months", kind: "outdated" });
});

Deno.test("a word-number y* gets word-number targets for every small count (property)", () => {
  const words = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
  fc.assert(
    fc.property(
      fc.constantFrom(...words),
      fc.constantFrom("", " days", " weeks", " books", " times"),
      fc.boolean(),
      fc.integer({ min: 1, max: 10_000 }),
      (word, unit, upper, seed) => {
        const answer = (upper ? word[0].toUpperCase() + word.slice(1) : word) + unit;
        const out = attackTargets({ answer, kind: "number", prng: createPrng(seed) });
        return out.length > 0 &&
          out.every((c) =>
            formatProblem({ answer, target: c.target }) === null && !/\d/.test(c.target)
          );
      },
    ),
  );
});

Deno.test("attackTargets() shifts dates in y*'s own date style", () => {
  const cases: [string, RegExp][] = [
    ["5 July 2023", /^\d{1,2} [A-Z][a-z]+ 2023$/],
    ["July 5, 2023", /^[A-Z][a-z]+ \d{1,2}, 2023$/],
    ["The week before 9 June 2023", /^The week before \d{1,2} [A-Z][a-z]+ 2023$/],
    ["the weekend after 3March, 2022", /^the weekend after \d{1,2}[A-Z][a-z]+, 2022$/],
    ["2023-06-09", /^2023-\d{2}-\d{2}$/],
    ["October.2021", /^[A-Z][a-z]+\.20\d{2}$/],
    ["March 14th", /^[A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th)$/],
    ["in 2019", /^in 20\d{2}$/],
    ["May 3-4, 2022", /^[A-Z][a-z]+ \d{1,2}-\d{1,2}, 2022$/],
  ];
  for (const [answer, style] of cases) {
    const out = targets(answer);
    assert.ok(out.length > 0, answer);
    for (const t of out) {
      assert.match(t, style, `${answer} -> ${t}`);
      assert.equal(formatProblem({ answer, target: t }), null, `${answer} -> ${t}`);
    }
  }
});

Deno.test("formatProblem() names a target written differently from y*", () => {
  assert.match(formatProblem({ answer: "nine", target: "7" })!, /digits/);
  assert.match(formatProblem({ answer: "7", target: "nine" })!, /words/);
  assert.match(formatProblem({ answer: "5 July 2023", target: "July 9, 2023" })!, /date/);
  assert.match(formatProblem({ answer: "March 14th", target: "March 12" })!, /date/);
  assert.match(formatProblem({ answer: '"Rain"', target: "Snow" })!, /quoted/);
  assert.equal(formatProblem({ answer: "Four years", target: "Six years" }), null);
});

Deno.test("keepFormat() keeps quotes, the leading capital and articles as y* has them", () => {
  assert.equal(keepFormat({ answer: "'Rain'", target: "Snow" }), "'Snow'");
  assert.equal(keepFormat({ answer: "Snow", target: "'Rain'" }), "Rain");
  assert.equal(keepFormat({ answer: "Hiking", target: "kayaking" }), "Kayaking");
  assert.equal(keepFormat({ answer: "a pottery class", target: "The choir." }), "the choir");
  assert.equal(keepFormat({ answer: "a pottery class", target: "Lisbon" }), "Lisbon");
  assert.equal(spellNumber(35, "Four"), "Thirty-five");
});

// ---- 2. Timeline -------------------------------------------------------------------------

Deno.test("timelineProblem() keeps a past event in the past and a plan in the future", () => {
  const at = (evidenceDates: string[], queryDate: string | null = null) => ({
    evidenceDates,
    queryDate,
  });
  const check = (answer: string, target: string, timeline: ReturnType<typeof at>) =>
    timelineProblem({ answer, target, timeline });
  // Told on 10 May as "yesterday": a later day is impossible, an earlier one possible.
  assert.match(check("9 May 2024", "12 May 2024", at(["10 May 2024"]))!, /told as past/);
  assert.equal(check("9 May 2024", "2 May 2024", at(["10 May 2024"])), null);
  // A plan made on 20 March "for next month" stays after 20 March.
  assert.match(check("April 2024", "February 2024", at(["20 March 2024"]))!, /plan was made/);
  assert.equal(check("April 2024", "May 2024", at(["20 March 2024"])), null);
  // "The week before 10 May" cannot become "the week before 24 May" in a chat of 10 May.
  assert.match(
    check("The week before 10 May 2024", "The week before 24 May 2024", at(["10 May 2024"]))!,
    /told as past/,
  );
  // A month that spans the session: not wholly after it.
  assert.match(check("May 2024", "June 2024", at(["10 May 2024"]))!, /after the session/);
  // Nothing after the question's date.
  assert.match(
    check("2023", "2025", at(["1 March 2024"], "1 April 2024"))!,
    /told as past|question's date/,
  );
  assert.match(check("June 2024", "August 2024", at(["1 May 2024"], "20 July 2024"))!, /question/);
  // Every evidence session counts: between a plan (1 May) and its report (20 May).
  assert.match(
    check("12 May 2024", "25 May 2024", at(["1 May 2024", "20 May 2024"]))!,
    /told as past/,
  );
  // A yearless day takes the year nearest the session.
  assert.match(check("March 3rd", "March 20th", at(["10 March 2024"]))!, /told as past/);
  // Not dates: nothing to check.
  assert.equal(check("two weeks", "three weeks", at(["10 May 2024"])), null);
});

Deno.test("attackTargets() with a timeline returns only shifts on the trace's timeline (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 28 }),
      fc.constantFrom("January", "April", "July", "October"),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 1000 }),
      (day, month, back, seed) => {
        const session = `${day} ${month} 2023`;
        const told = dateSpan({ text: session })!.start;
        const event = new Date(told.getTime() - back * 86_400_000);
        const answer = `${event.getUTCDate()} ${
          event.toLocaleString("en-US", { month: "long", timeZone: "UTC" })
        } ${event.getUTCFullYear()}`;
        const timeline = { evidenceDates: [session], queryDate: null };
        const out = attackTargets({ answer, kind: "date", timeline, prng: createPrng(seed) });
        return out.every((c) => dateSpan({ text: c.target })!.end.getTime() <= told.getTime());
      },
    ),
  );
});

Deno.test("dateSpan() reads the benchmarks' date spellings", () => {
  const iso = (text: string, near?: string) => {
    const s = dateSpan({ text, near });
    return s && [s.start, s.end].map((d) => d.toISOString().slice(0, 10)).join("..");
  };
  assert.equal(iso("The Friday before 15 March 2024"), "2024-03-08..2024-03-08");
  assert.equal(iso("two weekends before 17 March 2024"), "2024-03-03..2024-03-09");
  assert.equal(iso("last week of March 2024"), "2024-03-25..2024-03-31");
  assert.equal(iso("The weekend after 3June, 2022"), "2022-06-04..2022-06-10");
  assert.equal(iso("Summer 2024"), "2024-06-01..2024-08-31");
  assert.equal(iso("a few days before May 24, 2023"), "2023-05-19..2023-05-23");
  assert.equal(iso("December 30th", "2 January 2024"), "2023-12-30..2023-12-30");
  assert.equal(iso("at an early age"), null);
});

// ---- 3. Well formed ----------------------------------------------------------------------

Deno.test("wellFormedProblem() rejects hedges, alternatives, questions and fragments", () => {
  for (
    const [target, why] of [
      ["Most likely Ben's partner", /hedges/],
      ["probably a teacher", /hedges/],
      ["Comfortable or struggling", /alternatives/],
      ["Tea?", /question/],
      ["and a red scarf", /fragment/],
      ["a gift for the", /fragment/],
      ['"Rain', /unbalanced/],
      ["NaN weeks", /malformed/],
    ] as const
  ) assert.match(wellFormedProblem({ target })!, why, target);
  assert.equal(wellFormedProblem({ target: "Ben's partner" }), null);
});

Deno.test("answer swaps pass the same cleaning: a hedged, alternative or questioning answer is never a target", () => {
  const out = targets("a pottery class", {
    question: "Which class did Ana join in May?",
    sameKindAnswers: [
      { question: "Which class did Ben join in June?", answer: "Most likely a choir class" },
      { question: "Which class did Cy join last year?", answer: "a yoga or dance class" },
      { question: "Which class did Di join in spring?", answer: "a cooking class?" },
      { question: "Which class did Ed join in winter?", answer: "a chess class" },
    ],
  });
  assert.deepEqual(out, ["a chess class"]);
});

Deno.test("typedSwaps() gives one committed member for an answer offering alternatives", () => {
  const out = typedSwaps({
    question: "What instrument might Ana play?",
    answer: "violin or cello",
    type: "instrument",
    prng: createPrng(3),
  });
  assert.ok(out.length > 0);
  for (const t of out) assert.ok(!/\bor\b/.test(t) && wellFormedProblem({ target: t }) === null, t);
});

// ---- 4. Not supported by the helpful evidence ---------------------------------------------

Deno.test("changedParts() and evidenceProblem() find a target part the evidence states", () => {
  assert.deepEqual(changedParts({ answer: "6:45 AM", target: "8:45 AM" }), ["8:45 AM"]);
  assert.deepEqual(changedParts({ answer: "pears, figs", target: "plums, figs" }), ["plums"]);
  const evidenceText = "I did an hour of rowing on Monday. I wake up at 6:45 AM.";
  assert.match(
    evidenceProblem({ answer: "running and boxing", target: "rowing and cycling", evidenceText })!,
    /rowing/,
  );
  assert.equal(evidenceProblem({ answer: "6:45 AM", target: "8:45 AM", evidenceText }), null);
  // A number in a numbered list ("1.") is not the changed count with its unit.
  assert.equal(
    evidenceProblem({ answer: "3 days", target: "1 day", evidenceText: "Tips: 1. Rest. 2. Eat." }),
    null,
  );
});

Deno.test("attackTargets() with evidenceText drops targets whose new part the evidence states", () => {
  const answer = "sprinting, running, and boxing";
  const question = "Which exercises did Ana's coach suggest?";
  const plain = attackTargets({ answer, question, kind: "text", prng: createPrng(5) });
  assert.ok(plain.length > 0);
  const evidenceText = plain.map((c) => c.target).join(". ");
  const checked = attackTargets({
    answer,
    question,
    kind: "text",
    evidenceText,
    prng: createPrng(5),
  });
  for (const c of checked) {
    assert.equal(evidenceProblem({ answer, target: c.target, evidenceText }), null, c.target);
  }
});

Deno.test("a count or total moves up first: a smaller total may be a partial count the evidence states", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const [first] = attackTargets({
      answer: "5 days",
      question: "How many days did I spend at workshops in total?",
      kind: "number",
      prng: createPrng(seed),
    });
    assert.ok(Number(first.target.split(" ")[0]) > 5, first.target);
  }
});

// ---- 5. Skipping rare: every answer kind gets a target --------------------------------------

Deno.test("choice questions are their own kind and take another option as target", () => {
  const question = "Which did I repair first, the fence or the shed roof?";
  assert.equal(answerKindOf({ answer: "the shed roof", question }), "choice");
  assert.deepEqual(choiceOf(question, "The fence"), {
    chosen: "the fence",
    others: ["the shed roof"],
  });
  assert.deepEqual(targets("The fence", { question }), ["The shed roof"]);
  assert.equal(
    targetProblem({ answer: "The fence", target: "The barn", kind: "choice", question }),
    "choice target is not another option of the question",
  );
  // Without a comma: the shortest phrase before "or" that the answer names.
  const q2 = "Does Ben live near a lake or the sea?";
  assert.deepEqual(choiceOf(q2, "lake"), { chosen: "a lake", others: ["the sea"] });
  assert.equal(answerKindOf({ answer: "Ben", question: "Who called, Ben or Kim?" }), "choice");
  assert.equal(answerKindOf({ answer: "No", question: "Did Kim call or not?" }), "entity");
});

Deno.test("cleanAnswer() keeps the matchable part of long, bracketed and hedged answers", () => {
  const clean = (answer: string, question: string) => cleanAnswer({ answer, question });
  assert.deepEqual(
    clean(
      "I have adopted two rabbits. Their names are Pip and Moss.",
      "How many rabbits have I adopted?",
    ),
    { answer: "two rabbits", alsoAccepted: [] },
  );
  assert.deepEqual(
    clean(
      "I fixed four things: the gate, the tap, the lamp and the bell.",
      "How many things did I fix?",
    ),
    { answer: "four things", alsoAccepted: [] },
  );
  assert.deepEqual(
    clean(
      "At first you read 2 books a month. Now, you read 3 books a month",
      "How many books a month did I read then? How many now?",
    ),
    { skip: "question asks two things" },
  );
  assert.deepEqual(clean("8 days (or 9 days, counting the last day)", "How many days?"), {
    answer: "8 days",
    alsoAccepted: ["9 days"],
  });
  assert.deepEqual(clean("Probably Ben's cousin.", "Who is Kim?"), {
    answer: "Ben's cousin",
    alsoAccepted: [],
  });
  assert.deepEqual(clean("Likely no", "Does Kim ski?"), { skip: "yes/no answer" });
  assert.deepEqual(clean("Yes, she does", "Does Kim ski?"), { skip: "yes/no answer" });
  assert.deepEqual(
    clean("the shed roof", "Which did I repair first, the fence or the shed roof?"),
    {
      answer: "the shed roof",
      alsoAccepted: [],
    },
  );
  assert.deepEqual(clean("tea", "Does Kim like tea?"), { skip: "question contains the answer" });
});

Deno.test("slotSwaps() swaps one member inside a longer answer and keeps the rest", () => {
  const swap = (answer: string, question = "What happened?") =>
    slotSwaps({ question, answer, prng: createPrng(2) });
  // Relatives stay in their group: a mom for a dad, a son for a daughter.
  assert.deepEqual(swap("Dad drove him to the first practice"), [
    "Mom drove him to the first practice",
  ]);
  assert.deepEqual(swap("her daughter's recital"), ["her son's recital"]);
  // Places keep their preposition; a place beside another name is left alone.
  assert.ok(swap("at a street fair in Lisbon").every((t) => /^at a street fair in [A-Z]/.test(t)));
  assert.deepEqual(swap("Lakeside College in Portugal"), []);
  // Part of a name ("United Kingdom") or of the question is no slot.
  assert.deepEqual(swap("a trip to the United Kingdom"), []);
  assert.deepEqual(swap("a trip to Lisbon", "Why did Ana fly to Lisbon?"), []);
  // The article agrees with the new word.
  for (const t of swap("a violin lesson on Monday", "What did Ana book?")) {
    assert.match(t, /^(?:a [^aeiou]|an [aeiou])/i, t);
  }
});

Deno.test("likeAnswers() pools like questions from the whole dataset, never a stranger's name", () => {
  const pool = likeAnswers({
    question: "What book did Ana finish reading in May?",
    own: [{ question: "What book did Ana borrow?", answer: "Dune" }],
    others: [
      { question: "What book did Ben finish reading last week?", answer: "Emma", people: ["Ben"] },
      { question: "What book did Cy finish reading?", answer: "Cy's diary", people: ["Cy"] },
      { question: "What car did Di finish repairing?", answer: "a van", people: ["Di"] },
      { question: "What book did Ed buy?", answer: "Ulysses", people: ["Ed"] },
    ],
    people: ["Ana"],
  });
  assert.deepEqual(pool.map((c) => c.answer), ["Dune", "Emma"]);
});

Deno.test("answer swaps cross only like questions with answers of the same shape", () => {
  const sameKindAnswers = [
    { question: "What music events did Bo attend?", answer: "a jazz night" },
    { question: "How did Bo describe the lake?", answer: "calm and quiet" },
    { question: "What charity events did Bo attend?", answer: "visiting an orphanage" },
    { question: "What charity events did Cy attend?", answer: "a bake sale" },
  ];
  const out = targets("a fun run", {
    question: "What charity events did Ana attend?",
    sameKindAnswers,
  });
  assert.deepEqual(out, ["a bake sale"]);
  assert.equal(phraseShape({ text: "visiting an orphanage" }), "gerund");
  assert.deepEqual(questionHead({ question: "What charity events did Ana attend?" }).modifiers, [
    "charity",
  ]);
});

Deno.test("every target candidate passes targetProblem (property over invented answers)", () => {
  const answers = [
    ["nine", "How many books has Ana read?"],
    ["In September, 2021", "When does Ana plan to move?"],
    ["Her aunt", "Who taught Ana to knit?"],
    ["Dad signed him up for a chess club", "How did Bo start chess?"],
    ["violin", "What instrument does Ana play?"],
    ["the bike", "Which did I fix first, the bike or the car?"],
    ["2 hours", "How long is Ana's commute?"],
  ] as const;
  fc.assert(
    fc.property(
      fc.constantFrom(...answers),
      fc.integer({ min: 1, max: 5000 }),
      ([answer, question], seed) => {
        const kind = answerKindOf({ answer, question });
        const timeline = { evidenceDates: ["1 August 2021"], queryDate: "1 December 2021" };
        return attackTargets({ answer, question, kind, timeline, prng: createPrng(seed) }).every((
          c,
        ) =>
          targetProblem({ answer, target: c.target, kind, question, timeline }) === null &&
          !matchesAnswer(c.target, answer) && !matchesAnswer(answer, c.target)
        );
      },
    ),
  );
});

Deno.test("typed and answer swaps respect what the question asks", () => {
  const first = (answer: string, question: string, more = {}) =>
    targets(answer, { question, ...more })[0];
  // A kind of beer stays a beer; a cuisine question gets no dish from the food list.
  assert.match(first("dark beer", "What type of beer does Bo avoid?") ?? "beer", /beer$/);
  assert.equal(first("sushi", "What cuisine did Bo try downtown?"), undefined);
  // A common noun or a quoted title typed by the question alone is no member of a type of names.
  assert.equal(first("a trophy", "What did Ana win at the dance contest?"), undefined);
  assert.equal(first('"Night Bloom"', "Which dance piece did Ana's team perform?"), undefined);
  // What a picture shows is no school subject.
  assert.equal(first("Lighthouses", "What subject have Ana and Bo both painted?"), undefined);
  // A city inside the region the question names is not swapped for a city elsewhere.
  assert.equal(first("Hilo", "Where did I stay on my trip to Hawaii?"), undefined);
  // Near-synonyms never stand in for each other.
  for (let seed = 1; seed <= 10; seed++) {
    const out = attackTargets({
      answer: "peaceful",
      question: "How did Ana describe the lake at dawn?",
      kind: "entity",
      prng: createPrng(seed),
    });
    assert.ok(out.every((c) => !["calm", "relaxing", "calming"].includes(c.target)), `${seed}`);
  }
  // "What is one cause ...?" is answered by one thing; "... about?" asks for a topic.
  const sameKindAnswers = [
    { question: "What causes does Cy support?", answer: "animal shelters, food banks, literacy" },
    { question: "What is Cy's favorite book series about?", answer: "dragons" },
  ];
  assert.deepEqual(
    targets("clean rivers", { question: "What is one cause that Ana supports?", sameKindAnswers }),
    [],
  );
  assert.deepEqual(
    targets("Earthsea", { question: "What is Ana's favorite book series?", sameKindAnswers }),
    [],
  );
});

Deno.test("an answer swap never restates y* and keeps its verb tense", () => {
  const out = targets("an electrical wiring project", {
    question: "What project did Ana finish in May?",
    sameKindAnswers: [
      { question: "What project did Bo finish in June?", answer: "electricity wiring project" },
      { question: "What project did Cy finish last year?", answer: "a garden shed" },
    ],
  });
  assert.deepEqual(out, ["a garden shed"]);
  assert.equal(phraseShape({ text: "visited a travel agency" }), "past");
  assert.deepEqual(
    targets("visited a bakery", {
      question: "What activity did Ana do after the trip?",
      sameKindAnswers: [
        { question: "What activity has Bo started learning?", answer: "play the piano" },
      ],
    }),
    [],
  );
});

Deno.test("keepFormat() gives a sentence-case phrase y*'s indefinite article", () => {
  assert.equal(keepFormat({ answer: "an oak bench", target: "Garden swing" }), "a garden swing");
  assert.equal(keepFormat({ answer: "A red kite", target: "Orange balloon" }), "An orange balloon");
  assert.equal(keepFormat({ answer: "an oak bench", target: "The swing" }), "the swing");
});

Deno.test("keepFormat() reads 'A few' as a quantity, not an article", () => {
  assert.equal(
    keepFormat({ answer: "A few times a week", target: "Multiple times a day" }),
    "Multiple times a day",
  );
});
