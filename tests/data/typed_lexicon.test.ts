import assert from "node:assert/strict";
import { matchesAnswer } from "../../lib/judges/matches.ts";
import { createPrng } from "../../lib/random/prng.ts";
import { attackTargets } from "../../lib/data/attack_targets.ts";
import { inferAnswerType, TYPED_LEXICON, typedSwaps } from "../../lib/data/typed_lexicon.ts";

const EXAMPLES = [
  { question: "What is Evan's favorite food?", answer: "Ginger snaps", type: "food" },
  {
    question: "What skill did Audrey learn to take care of her dogs?",
    answer: "Grooming",
    type: "activity",
  },
  { question: "What does Audrey view her pets as?", answer: "Family", type: "relationship" },
  {
    question: "Which cities has John been to?",
    answer: "Seattle, Chicago, New York, and Paris",
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
  assert.deepEqual(t("What are the names of Audrey's dogs?", "Pepper and Pixie"), "pet-name");
  assert.deepEqual(t("How did Maria feel after the race?", "Proud"), "emotion");
  assert.deepEqual(t("Where did I go on my trip?", "Hawaii"), "city");
  assert.deepEqual(t("Where do I keep my sneakers?", "under my bed"), null);
  assert.deepEqual(t("What did Tim say about his injury?", "The doctor said it's fine"), null);
  assert.deepEqual(t("Which composer does Tim enjoy playing?", "John Williams"), null);
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
    question: "Which cities has John been to?",
    answer: "Seattle, Chicago, New York, and Paris",
    type: "city",
    prng: createPrng(2),
  });
  const parts = target.split(/, and |, /);
  assert.deepEqual(parts.length, 4, target);
  assert.ok(target.includes(", and "), target);
  for (const p of parts) {
    assert.ok(TYPED_LEXICON.city.includes(p), p);
    assert.ok(!["Seattle", "Chicago", "New York", "Paris"].includes(p), p);
  }
  const [food] = typedSwaps({
    question: "What is Evan's favorite food?",
    answer: "Ginger snaps",
    type: "food",
    prng: createPrng(2),
  });
  assert.ok(/^[A-Z]/.test(food) && TYPED_LEXICON.food.includes(food.toLowerCase()), food);
});

Deno.test("attackTargets() prefers a typed swap over answer swaps", () => {
  const [first] = attackTargets({
    answer: "Ginger snaps",
    question: "What is Evan's favorite food?",
    kind: "entity",
    sameKindAnswers: ["Prius"],
    prng: createPrng(1),
  });
  assert.deepEqual(first.kind, "typed-swap");
  assert.notDeepEqual(first.target, "Prius");
});

Deno.test("attackTargets() falls back to swaps sharing a question word", () => {
  const candidates = attackTargets({
    answer: "a tax advisor",
    question: "Who helped Ann with her taxes advisor?",
    kind: "entity",
    sameKindAnswers: ["Hats", "a financial advisor"],
    prng: createPrng(1),
  });
  assert.deepEqual(candidates[0], { target: "a financial advisor", kind: "answer-swap" });
});
