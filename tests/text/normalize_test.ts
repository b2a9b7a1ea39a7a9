import assert from "node:assert/strict";
import { normalizeTokens, normalizeWithBreaks, stemToken } from "../../lib/text/normalize.ts";

const TOKENS: [string, string[]][] = [
  ["$1.2k", ["1200"]],
  ["$25k", ["25000"]],
  ["a 5K run", ["5k", "run"]],
  ["$2M and 1.5M", ["2000000", "and", "1500000"]],
  ["3M tape", ["3m", "tape"]],
  ["fifteen hundred", ["1500"]],
  ["five six", ["5", "6"]],
  ["two thousand and twenty", ["2020"]],
  ["one and a half", ["1.5"]],
  ["an hour and a half", ["1.5", "hours"]],
  ["half an hour", ["30", "minutes"]],
  ["10:00am", ["10", "am"]],
  ["13:45", ["1:45", "pm"]],
  ["3:1", ["3:1"]],
  ["2023-05-07", ["date:2023-05-07"]],
  ["2023/05/07", ["date:2023-05-07"]],
  ["12/05/2023", ["date:2023-12-05"]],
  ["13/05/2023", ["date:2023-05-13"]],
  ["|pipes|", ["pipes"]],
];

for (const [text, want] of TOKENS) {
  Deno.test(`normalizeTokens() reads ${JSON.stringify(text)}`, () => {
    assert.deepEqual(normalizeTokens(text), want);
  });
}

Deno.test("normalizeWithBreaks() keeps clause punctuation and drops nothing else", () => {
  assert.deepEqual(normalizeWithBreaks("Not 3, but 5 (maybe). Is it? Yes; done: ok — fine!"), [
    "not",
    "3",
    "|,",
    "but",
    "5",
    "|(",
    "maybe",
    "|)",
    "|.",
    "is",
    "it",
    "|?",
    "yes",
    "|;",
    "done",
    "|:",
    "ok",
    "|-",
    "fine",
    "|!",
  ]);
  assert.deepEqual(normalizeWithBreaks("3.5 kg on May 7, 2023."), [
    "3.5",
    "kg",
    "on",
    "date:2023-05-07",
    "|.",
  ]);
  assert.deepEqual(normalizeWithBreaks("Dr. Osei"), ["dr", "osei"]);
});

Deno.test("normalizeTokens() is normalizeWithBreaks() without the breaks", () => {
  const text = "Either 3 or 5; maybe (not) — who knows? It's 7:00 p.m., the 7th of May.";
  assert.deepEqual(
    normalizeTokens(text),
    normalizeWithBreaks(text).filter((t) => !t.startsWith("|")),
  );
});

const SAME_STEM: [string, string][] = [
  ["read", "reads"],
  ["read", "reading"],
  ["hike", "hiking"],
  ["hike", "hiked"],
  ["city", "cities"],
  ["study", "studied"],
  ["collie", "collies"],
  ["swim", "swimming"],
  ["stop", "stopped"],
  ["box", "boxes"],
  ["class", "classes"],
  ["increase", "increased"],
];
const OTHER_STEM: [string, string][] = [["cat", "category"], ["paint", "pain"], ["3", "3s"], [
  "bus",
  "bu",
]];

Deno.test("stemToken() joins inflections and keeps different words apart", () => {
  for (const [a, b] of SAME_STEM) assert.equal(stemToken(a), stemToken(b), `${a} ${b}`);
  for (const [a, b] of OTHER_STEM) assert.notEqual(stemToken(a), stemToken(b), `${a} ${b}`);
});
