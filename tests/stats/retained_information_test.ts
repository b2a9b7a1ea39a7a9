/**
 * WR's rule (Table 1: "the proportion of source units whose information is retained in the
 * resulting memory records"): a unit counts when the facts it states are recoverable from the
 * live records that trace to it. Before issue 22 a unit counted as soon as any live record traced
 * to it, so every record below that traces to a unit but drops its content counted as retained.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { informationRetained, unitFacts } from "../../lib/stats/retained_information.ts";

const DENTIST = {
  text: "The dental clinic called: my dentist appointment with Dr. Nkemelu is on March 14, 2025, " +
    "in the morning.",
  asserts: "March 14, 2025",
  numbers: [{ key: "user:date:when-is-my-dentist-appointment", value: 20250314 }],
};
const HANDBAG = {
  text: "[26 May 2023] User: I spent $1,200 on a designer handbag from Marlowe last spring.",
  asserts: "$1200",
  numbers: [{ key: "user:value:how-much-did-i-spend-on-a-designer-handbag", value: 1200 }],
};
const SMALL_TALK = {
  text: "Hi, I had such a long day at the pottery class.",
  asserts: null,
  numbers: [],
};

Deno.test("informationRetained() keeps a unit whose facts a paraphrase still states", () => {
  for (
    const [unit, record] of [
      [DENTIST, "User's dentist appointment with Dr Nkemelu is on 2025-03-14"],
      [DENTIST, "Dentist (Dr. Nkemelu): 14 March 2025, morning"],
      [HANDBAG, "Spent 1200 dollars on a designer handbag from Marlowe"],
      [HANDBAG, "User bought a Marlowe designer handbag for $1.2k"],
      [SMALL_TALK, "User had a long day at pottery class"],
    ] as const
  ) assert.ok(informationRetained({ unit, records: [record] }), record);
});

Deno.test("informationRetained() refuses records that trace to a unit but drop its content", () => {
  const dropped: [typeof DENTIST | typeof HANDBAG | typeof SMALL_TALK, string][] = [
    // The answer assertion (the date) is gone.
    [DENTIST, "User has a dentist appointment with Dr. Nkemelu in the morning"],
    // The date is there, the named entity is not.
    [DENTIST, "Dentist appointment on March 14, 2025"],
    // The keyed number changed (an extraction that misread it).
    [HANDBAG, "Spent $1,000 on a designer handbag from Marlowe"],
    // The amount survived, the brand did not.
    [HANDBAG, "Spent $1,200 on a handbag"],
    // Topic kept, content lost.
    [SMALL_TALK, "User greeted the assistant"],
  ];
  for (const [unit, record] of dropped) {
    assert.ok(!informationRetained({ unit, records: [record] }), record);
  }
  // Nothing traces to the unit.
  assert.ok(!informationRetained({ unit: DENTIST, records: [] }));
  // Two records that trace to the unit state its facts between them.
  assert.ok(informationRetained({
    unit: DENTIST,
    records: ["Dentist is Dr. Nkemelu", "The appointment is on March 14, 2025"],
  }));
});

Deno.test("unitFacts() reads names, not scaffolding, sentence starts, titles or calendar words", () => {
  const facts = unitFacts({
    text: '[16 May 2023] Calvin: Thanks, Dave! On Monday I met Dr. Osei. "The record" was fine.',
    asserts: null,
    numbers: [],
  });
  assert.deepEqual(facts.entities, ["dave", "osei"]);
  assert.deepEqual(unitFacts(HANDBAG).numbers, ["1200"]);
  assert.deepEqual(unitFacts({ text: "Great, thanks.", asserts: null, numbers: [] }).words, [
    "great",
  ]);
});

Deno.test("informationRetained() is the records' text only: order, ids and extra records do not matter", () => {
  const pieces = [
    "Dentist appointment with Dr. Nkemelu",
    "on March 14, 2025",
    "User keeps an insurance card in the other wallet",
    "Dentist appointment moved",
  ];
  fc.assert(fc.property(fc.shuffledSubarray(pieces), fc.array(fc.string()), (records, noise) => {
    const base = informationRetained({ unit: DENTIST, records });
    assert.equal(informationRetained({ unit: DENTIST, records: [...records].reverse() }), base);
    // A record adds facts, it never takes one away.
    if (base) assert.ok(informationRetained({ unit: DENTIST, records: [...records, ...noise] }));
  }));
});
