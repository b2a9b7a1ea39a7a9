import assert from "node:assert/strict";
import { matchesAnswer } from "../../lib/text/matches.ts";
import { normalizeTokens } from "../../lib/text/normalize.ts";

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
  // Formats and inflection (issue 11).
  ["It cost $1.2k.", "$1,200"],
  ["About 1.5k followers", "1,500"],
  ["It took 5 hrs", "5 hours"],
  ["a 45-min drive", "45 minutes"],
  ["two and a half hours", "2.5 hours"],
  ["2½ hours", "2.5 hours"],
  ["one hundred and twenty guests", "120 guests"],
  ["they met twice", "2 times"],
  ["three quarters of an hour", "45 minutes"],
  ["at 7pm", "7 pm"],
  ["at 7:00 p.m.", "7 pm"],
  ["at 17:00", "5 pm"],
  ["on 21/03/2025", "21 March 2025"],
  ["on 3/21/2025", "21 March 2025"],
  ["on 21.03.2025", "March 21, 2025"],
  ["The Friday before 23January, 2022", "23 January 2022"],
  ["in 2023-05", "May 2023"],
  ["30 per cent", "30%"],
  ["He reads fantasy books.", "Read fantasy books"],
  ["reading fantasy books", "Read fantasy books"],
  ["she hiked and swam", "hiking"],
  ["two border collies", "border collie"],
  ["several cities", "city"],
  ["Note: 5", "note"],
  ["Dr. Osei", "Dr Osei"],
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
  ["She ran a 5K.", "5000"],
  ["category", "cats"],
  ["news", "newspaper"],
  ["3 hikes", "3 times"],
  ["in 2023-13", "2023"],
  ["On 14/03/2025", "3 14 2025"],
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
