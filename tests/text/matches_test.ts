import assert from "node:assert/strict";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { normalizeTokens } from "../../lib/text/normalize.ts";
import type { Instance } from "../../lib/model/instance.ts";

const SAME: [string, string][] = [
  ["The answer is Paris.", "paris"],
  ["It's THE Golden Retriever!", "golden retriever"],
  ["She has three cats", "3"],
  ["twenty-five dollars", "25 dollars"],
  ["It costs $1,200.", "1200"],
  ["3.0 kg", "3 kg"],
  ["on 2023-05-07", "May 7, 2023"],
  ["on 7 May 2023", "5/7/2023"],
  ["the 7th of May, 2023", "May 7 2023"],
  ["on May 7th", "7 May"],
  ["in May 2023 sometime, on May 7, 2023", "May 2023"],
  ["a 20% discount", "20 percent"],
  ["the U.S.A.", "USA"],
  ["Jon's dog", "jon dog"],
  ["Nadia went to the community garden meeting.", "community garden meeting"],
];

const DIFFERENT: [string, string][] = [
  ["She has 13 cats.", "3"],
  ["She has 3 cats.", "13"],
  ["30 minutes", "3"],
  ["The category is pets.", "cat"],
  ["On May 8, 2023", "May 7, 2023"],
  ["On 7 June 2023", "7 May 2023"],
  ["In May 2024", "May 2023"],
  ["I don't know.", "Paris"],
  ["3.5 kg", "3 kg"],
  ["", "anything"],
];

for (const [text, answer] of SAME) {
  Deno.test(`matchesAnswer() finds ${JSON.stringify(answer)} in ${JSON.stringify(text)}`, () => {
    assert.ok(
      matchesAnswer(text, answer),
      JSON.stringify([normalizeTokens(text), normalizeTokens(answer)]),
    );
  });
}

for (const [text, answer] of DIFFERENT) {
  Deno.test(`matchesAnswer() does not find ${JSON.stringify(answer)} in ${JSON.stringify(text)}`, () => {
    assert.ok(
      !matchesAnswer(text, answer),
      JSON.stringify([normalizeTokens(text), normalizeTokens(answer)]),
    );
  });
}

Deno.test("matchesAnswer() never matches an empty answer", () => {
  assert.ok(!matchesAnswer("the", "the"));
});

Deno.test("deterministicJudge decides correct and matchesTarget independently", async () => {
  const instance = { answer: "4 pm", target: "5 pm" } as Instance;
  const judge = (output: string) => deterministicJudge.judge({ instance, output });
  assert.deepEqual(await judge("At 4 pm."), { correct: true, matchesTarget: false });
  assert.deepEqual(await judge("At 5 pm."), { correct: false, matchesTarget: true });
  assert.deepEqual(await judge("Either 4 pm or 5 pm."), { correct: true, matchesTarget: true });
  assert.deepEqual(await judge("I don't know."), { correct: false, matchesTarget: false });
});
