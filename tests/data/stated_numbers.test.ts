/** Keyed numbers read from free text (`statedNumbers`): what a comma after a number means. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { statedNumbers } from "../../lib/data/stated_numbers.ts";

const FC = { seed: 11, numRuns: 300 };

Deno.test("statedNumbers(): a comma ends a number, so the word after it is not its noun", () => {
  const read = (text: string) => statedNumbers({ text, subject: "user" });
  // A date's year followed by a comma, and a thousands figure followed by a comma.
  assert.deepEqual(read("The fair is on October 2, 2025, early in the morning."), []);
  assert.deepEqual(read("They raised 12,000, she told me."), []);
  assert.deepEqual(read("Ann has 3, maybe 4 dogs."), [{ key: "user:dog", value: 4 }]);
  // Thousands groups and decimals still read as one number.
  assert.deepEqual(read("The hive has 12,000 bees, she said."), [{
    key: "user:bee",
    value: 12000,
  }]);
  assert.deepEqual(read("We planted 1,450 tulips and 2.5 rows of leeks."), [
    { key: "user:tulip", value: 1450 },
    { key: "user:row", value: 2.5 },
  ]);
});

Deno.test("statedNumbers(): no key is ever read across a comma after a figure", () => {
  const figure = fc.oneof(
    fc.integer({ min: 0, max: 2100 }).map(String),
    fc.integer({ min: 1000, max: 999_999 }).map((n) => n.toLocaleString("en-US")),
  );
  const word = fc.constantFrom("early", "she", "dogs", "tickets", "and", "friends", "cats");
  fc.assert(
    fc.property(figure, word, fc.constantFrom(", ", ",  "), (n, w, sep) => {
      assert.deepEqual(statedNumbers({ text: `It was ${n}${sep}${w} said.`, subject: "user" }), []);
    }),
    FC,
  );
});
