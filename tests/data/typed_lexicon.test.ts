import assert from "node:assert/strict";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { attackTargets } from "../../lib/data/attack_targets.ts";
import { inferAnswerType, TYPED_LEXICON, typedSwaps } from "../../lib/data/typed_lexicon.ts";

const EXAMPLES = [
  { question: "What is Priya's favorite food?", answer: "Oat biscuits", type: "food" },
  {
    question: "What skill did Marco learn to take care of his dogs?",
    answer: "Grooming",
    type: "activity",
  },
  { question: "What does Marco view his pets as?", answer: "Family", type: "relationship" },
  {
    question: "Which cities has Omar been to?",
    answer: "Denver, Boston, Madrid, and Oslo",
    type: "city",
  },
] as const;

Deno.test("inferAnswerType() types the four reported examples", () => {
  for (const e of EXAMPLES) {
    assert.deepEqual(inferAnswerType({ question: e.question, answer: e.answer }), e.type);
  }
});

Deno.test("inferAnswerType() reads cues near the wh-word and leaves clauses untyped", () => {
  const t = (question: string, answer: string) => inferAnswerType({ question, answer });
  assert.deepEqual(t("What instrument does Tim play?", "violin"), "instrument");
  assert.deepEqual(t("What are the names of Marco's dogs?", "Pepper and Pixie"), "pet-name");
  assert.deepEqual(t("How did Maria feel after the race?", "Proud"), "emotion");
  assert.deepEqual(t("Where did I go on my trip?", "Hawaii"), "us-state");
  assert.deepEqual(t("Where did I go on my trip?", "Lisbon"), "city");
  assert.deepEqual(t("Where do I keep my sneakers?", "under my bed"), "home-spot");
  assert.deepEqual(t("Where do I take yoga classes?", "Serenity Yoga"), null);
  assert.deepEqual(t("What did Tim say about his injury?", "The doctor said it's fine"), null);
  assert.deepEqual(t("Which composer does Ravi enjoy playing?", "Hans Zimmer"), "composer");
  assert.deepEqual(t("Which Disney movie did Omar mention?", "Moana"), "movie");
  assert.deepEqual(t("Which airline did I fly with the most?", "United Airlines"), "airline");
  assert.deepEqual(t("Which state has this requirement?", "Pennsylvania"), "us-state");
  assert.deepEqual(t("What type of bulb did I replace?", "Philips LED bulb"), "bulb");
  assert.deepEqual(
    t("What kind of writing does Sam do?", "journalling, creative writing"),
    "writing",
  );
  assert.deepEqual(
    t("What mediums does Nate use to play games?", "Gamecube, PC,Playstation"),
    "console",
  );
  assert.deepEqual(t("Who gave me a stand mixer?", "my sister"), "family");
  assert.deepEqual(t("Remind me what song best showed the band's growth?", "Evolution"), "song");
  assert.deepEqual(t("How much is the painting worth?", "Triple what I paid"), null);
});

Deno.test("typedSwaps() gives other members of the type, never y* either way", () => {
  for (const e of EXAMPLES) {
    for (let seed = 1; seed <= 20; seed++) {
      const targets = typedSwaps({ ...e, prng: createPrng(seed) });
      assert.ok(targets.length > 0, `${e.answer}: no typed target`);
      for (const target of targets) {
        assert.ok(
          !matchesAnswer(target, e.answer) && !matchesAnswer(e.answer, target),
          `${e.answer} -> ${target}`,
        );
      }
    }
  }
});

Deno.test("typedSwaps() keeps list length, joiner and capitalization", () => {
  const [target] = typedSwaps({
    question: "Which cities has Omar been to?",
    answer: "Denver, Boston, Madrid, and Oslo",
    type: "city",
    prng: createPrng(2),
  });
  const parts = target.split(/, and |, /);
  assert.deepEqual(parts.length, 4, target);
  assert.ok(target.includes(", and "), target);
  for (const p of parts) {
    assert.ok(TYPED_LEXICON.city.includes(p), p);
    assert.ok(!["Denver", "Boston", "Madrid", "Oslo"].includes(p), p);
  }
  const [food] = typedSwaps({
    question: "What is Priya's favorite food?",
    answer: "Oat biscuits",
    type: "food",
    prng: createPrng(2),
  });
  assert.ok(/^[A-Z]/.test(food) && TYPED_LEXICON.food.includes(food.toLowerCase()), food);
});

Deno.test("attackTargets() prefers a typed swap over answer swaps", () => {
  const [first] = attackTargets({
    answer: "Oat biscuits",
    question: "What is Priya's favorite food?",
    kind: "entity",
    sameKindAnswers: [{ question: "What car does Priya drive?", answer: "Prius" }],
    prng: createPrng(1),
  });
  assert.deepEqual(first.kind, "typed-swap");
  assert.notDeepEqual(first.target, "Prius");
});

Deno.test("attackTargets() swaps in only answers of questions asking for the same thing", () => {
  const candidates = attackTargets({
    answer: "a tax advisor",
    question: "Which advisor helped Ann with her taxes?",
    kind: "entity",
    sameKindAnswers: [
      { question: "What car does Ann drive?", answer: "Prius" },
      { question: "What inspired Ann to hire an advisor?", answer: "a tax audit" },
      { question: "Which advisor did Bo hire?", answer: "a financial advisor" },
    ],
    prng: createPrng(1),
  });
  assert.deepEqual(candidates, [{ target: "a financial advisor", kind: "answer-swap" }]);
  const none = attackTargets({
    answer: "cook dog treats",
    question: "What does Ben like doing?",
    kind: "entity",
    sameKindAnswers: [{ question: "What car does Ann drive?", answer: "Prius" }],
    prng: createPrng(1),
  });
  assert.deepEqual(none, []);
});

Deno.test("attackTargets() swaps people only for people, never weekdays", () => {
  for (let seed = 1; seed <= 10; seed++) {
    // A list target sharing items with y* ("mother, father, her friend Anna") is rejected by
    // targetProblem, so attackTargets no longer offers it: the swap is shown on one item.
    const candidates = attackTargets({
      answer: "her friend Ines",
      question: "Which of Lena's friends has moved abroad?",
      kind: "entity",
      people: ["Anna", "Lena", "Ines", "Wednesday"],
      prng: createPrng(seed),
    });
    assert.deepEqual(candidates.map((c) => c.target), ["her friend Anna"]);
  }
});
