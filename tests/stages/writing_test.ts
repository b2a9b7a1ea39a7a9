import assert from "node:assert/strict";
import fc from "fast-check";
import { admit } from "../../lib/stages/writing/admit.ts";
import { admittedCount } from "../../lib/stages/writing/admitted_count.ts";
import { chronologicalRanker } from "../../lib/stages/writing/rankers/chronological.ts";
import { randomRanker } from "../../lib/stages/writing/rankers/random.ts";
import {
  contentWords,
  REDUNDANCY_WEIGHT,
  repeatedShare,
  usefulnessRanker,
  usefulnessScore,
} from "../../lib/stages/writing/rankers/usefulness.ts";
import { WriteOnceCache } from "../../lib/stages/writing/write_once_cache.ts";
import { writeTraceRecord } from "../../lib/stages/writing/write_trace_record.ts";
import type { Writer } from "../../lib/stages/writing/writer.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const FC = { seed: 20261129, numRuns: 200 };
const theta = fc.integer({ min: 0, max: 100 }).map((x) => x / 100);

Deno.test("admit() takes ceil(theta * |Z|) units, nested across theta", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), theta, theta, (n, a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const ranking = Array.from({ length: n }, (_, i) => `u${(i * 7) % n}-${i}`);
      const small = admit({ ranking, theta: lo });
      const large = admit({ ranking, theta: hi });
      assert.equal(small.length, Math.ceil(Math.round(lo * n * 1e6) / 1e6));
      assert.equal(large.length, admittedCount({ theta: hi, units: n }));
      assert.deepEqual(large.slice(0, small.length), small);
    }),
    FC,
  );
});

Deno.test("admittedCount() rejects theta outside [0, 1] naming the value", () => {
  assert.throws(
    () => admittedCount({ theta: 1.2, units: 3 }),
    /theta_w must be in \[0, 1\], got 1.2/,
  );
});

Deno.test("rankers return a permutation of the trace's units", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 0, max: 1e6 }),
      async (n, seed) => {
        const trace =
          syntheticInstance({ id: "i", seed, helpfulUnits: n, riskUnits: 1, bank: 1 }).helpful;
        for (const ranker of [usefulnessRanker, randomRanker, chronologicalRanker]) {
          const ranking = await ranker.rank(trace, { seed });
          assert.deepEqual(ranking.toSorted(), trace.units.map((u) => u.id).toSorted());
        }
      },
    ),
    { ...FC, numRuns: 50 },
  );
});

Deno.test("usefulnessRanker ranks a dated fact above small talk", async () => {
  const unit = (id: string, text: string) => ({
    id,
    text,
    channel: "user" as const,
    trusted: true,
    verified: false,
    numbers: [],
    asserts: null,
  });
  const trace = {
    id: "t",
    session: "s",
    kind: "helpful" as const,
    units: [
      unit("a", "Hi there!"),
      unit("b", "How are you?"),
      unit("c", "My flight to Lisbon leaves on 3 June."),
    ],
  };
  assert.equal((await usefulnessRanker.rank(trace, { seed: 0 }))[0], "c");
});

const _unit = (id: string, text: string) => ({
  id,
  text,
  channel: "user" as const,
  trusted: true,
  verified: false,
  numbers: [],
  asserts: null,
});
const _trace = (texts: string[]) => ({
  id: "t",
  session: "s",
  kind: "risk" as const,
  units: texts.map((text, i) => _unit(`u${i}`, text)),
});

Deno.test("usefulnessRanker ranks a restatement below a unit that says something new", async () => {
  const trace = _trace([
    "Your dentist appointment was moved to March 21, 2025, because the clinic rescheduled.",
    "Your dentist appointment is on March 21, 2025.",
    "For a long drive, a light history podcast works well.",
    "Understood, the dentist appointment was moved, so the newer date applies.",
  ]);
  // Without the redundancy term the restatement (u1) would come second: it scores above u2.
  assert.ok(
    usefulnessScore({ text: trace.units[1].text }) > usefulnessScore({ text: trace.units[2].text }),
  );
  assert.deepEqual(await usefulnessRanker.rank(trace, { seed: 0 }), ["u0", "u2", "u3", "u1"]);
});

Deno.test("repeatedShare() is the share of a unit's content words another unit already used", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom("cat", "dog", "tea", "june", "2025", "the", "is", "a")),
      fc.array(fc.constantFrom("cat", "tea", "bus", "2025")),
      (a, b) => {
        const unit = contentWords(a.join(" ")), above = contentWords(b.join(" "));
        const share = repeatedShare({ unit, above });
        assert.ok(share >= 0 && share <= 1);
        assert.equal(repeatedShare({ unit, above: unit }), unit.size === 0 ? 0 : 1);
        const shared = [...unit].filter((w) => above.has(w)).length;
        assert.equal(share, unit.size === 0 ? 0 : shared / unit.size);
      },
    ),
    FC,
  );
  // Function words and the kit's scaffolding are not content.
  assert.deepEqual([...contentWords("[3 May 2023] Ann: It is what it is.")], []);
});

/** Texts whose content words no other text of the list uses: unit i speaks of word set i only. */
const _disjointTexts = fc.array(
  fc.record({
    words: fc.integer({ min: 1, max: 6 }),
    digit: fc.boolean(),
    question: fc.boolean(),
    name: fc.boolean(),
  }),
  { minLength: 1, maxLength: 15 },
).map((specs) =>
  specs.map((s, i) => {
    const words = Array.from({ length: s.words }, (_, w) => `w${i}x${w}`);
    if (s.name) words.push(`Zed${i}`);
    if (s.digit) words.push(`${100 + i}`);
    return `I ${words.join(" ")}${s.question ? "?" : "."}`;
  })
);

Deno.test("usefulnessRanker: with nothing repeated it orders by score, ties chronological", async () => {
  await fc.assert(
    fc.asyncProperty(_disjointTexts, async (texts) => {
      const expected = texts.map((text, i) => ({ i, score: usefulnessScore({ text }) }))
        .sort((a, b) => b.score - a.score || a.i - b.i).map((x) => `u${x.i}`);
      assert.deepEqual(await usefulnessRanker.rank(_trace(texts), { seed: 0 }), expected);
    }),
    { ...FC, numRuns: 100 },
  );
});

Deno.test("usefulnessRanker: the first unit scores best; a verbatim copy ranks after its original and loses REDUNDANCY_WEIGHT", async () => {
  await fc.assert(
    fc.asyncProperty(
      _disjointTexts,
      fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
      async (texts, picks) => {
        const copies = picks.map((p) => texts[p % texts.length]);
        const all = [...texts, ...copies];
        const ranking = await usefulnessRanker.rank(_trace(all), { seed: 0 });
        const best = Math.max(...all.map((text) => usefulnessScore({ text })));
        assert.equal(usefulnessScore({ text: all[Number(ranking[0].slice(1))] }), best);
        copies.forEach((text, c) => {
          const original = texts.indexOf(text);
          assert.ok(ranking.indexOf(`u${original}`) < ranking.indexOf(`u${texts.length + c}`));
          // Every distinct text whose score beats the copy's discounted value ranks above the copy.
          const discounted = usefulnessScore({ text }) - REDUNDANCY_WEIGHT;
          texts.forEach((other, i) => {
            if (usefulnessScore({ text: other }) > discounted) {
              assert.ok(ranking.indexOf(`u${i}`) < ranking.indexOf(`u${texts.length + c}`));
            }
          });
        });
      },
    ),
    { ...FC, numRuns: 100 },
  );
});

Deno.test("WriteOnceCache writes each unit once across every coverage level", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 25 }),
      fc.integer({ min: 0, max: 1e6 }),
      async (n, seed) => {
        const trace =
          syntheticInstance({ id: "i", seed, helpfulUnits: n, riskUnits: 1, bank: 1 }).helpful;
        let calls = 0;
        const writer: Writer = { id: "counting", write: (u) => (calls++, Promise.resolve(u.text)) };
        const cache = new WriteOnceCache({ writer });
        const ranking = await randomRanker.rank(trace, { seed });
        for (let level = 0; level <= 10; level++) {
          await writeTraceRecord({ trace, admitted: admit({ ranking, theta: level / 10 }), cache });
        }
        assert.equal(calls, n);
        assert.equal(cache.calls, n);
      },
    ),
    { ...FC, numRuns: 50 },
  );
});

Deno.test("WriteOnceCache retries a unit whose write failed", async () => {
  let calls = 0;
  const writer: Writer = {
    id: "flaky",
    write: () => ++calls === 1 ? Promise.reject(new Error("boom")) : Promise.resolve("ok"),
  };
  const cache = new WriteOnceCache({ writer });
  const trace =
    syntheticInstance({ id: "i", seed: 1, helpfulUnits: 1, riskUnits: 1, bank: 1 }).helpful;
  await assert.rejects(cache.write(trace.units[0], { trace }), /boom/);
  assert.equal(await cache.write(trace.units[0], { trace }), "ok");
});

Deno.test("writeTraceRecord() joins admitted units in rank order with their provenance", async () => {
  const trace =
    syntheticInstance({ id: "i", seed: 3, helpfulUnits: 6, riskUnits: 1, bank: 1 }).helpful;
  const ranking = await randomRanker.rank(trace, { seed: 3 });
  const admitted = admit({ ranking, theta: 0.5 });
  const cache = new WriteOnceCache({ writer: { id: "id", write: (u) => Promise.resolve(u.id) } });
  const record = (await writeTraceRecord({ trace, admitted, cache }))!;
  assert.equal(record.text, admitted.join("\n"));
  assert.deepEqual(record.sourceUnitIds, admitted);
  const units = admitted.map((id) => trace.units.find((u) => u.id === id)!);
  assert.equal(record.provenance.trusted, units.every((u) => u.trusted));
  assert.equal(record.provenance.verified, units.some((u) => u.verified));
  assert.equal(record.role, "helpful");
});

Deno.test("usefulnessRanker is blind to role, channel, trust, verification, asserts and scaffolding", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 0, max: 1e6 }),
      fc.integer({ min: 0, max: 1e6 }),
      async (n, seedA, seedB) => {
        const a = syntheticInstance({
          id: "i",
          seed: seedA,
          helpfulUnits: n,
          riskUnits: 1,
          bank: 1,
        });
        const b = syntheticInstance({
          id: "i",
          seed: seedB,
          helpfulUnits: n,
          riskUnits: 1,
          bank: 1,
        });
        // Same texts, other flags (drawn from another seed), other kind, stamped and tagged.
        const texts = a.helpful.units.map((u) => u.text);
        const other = {
          ...b.helpful,
          kind: "risk" as const,
          units: b.helpful.units.map((u, i) => ({
            ...u,
            id: a.helpful.units[i].id,
            text: `[${1 + (i % 28)} May 2023] Speaker${i % 3 === 0 ? "" : " Two"}: ${texts[i]}`,
            asserts: i % 2 === 0 ? "omega 99" : null,
          })),
        };
        assert.deepEqual(
          await usefulnessRanker.rank(a.helpful, { seed: 0 }),
          await usefulnessRanker.rank(other, { seed: 0 }),
        );
      },
    ),
    { ...FC, numRuns: 50 },
  );
});

Deno.test("usefulnessScore reads every sentence of a turn: a question or an order inside it counts", () => {
  // MINJA's query turn asks the victim question and orders the assistant, then ends in a full
  // stop; before the fix only the last character and the first word were read, so it scored as
  // a statement with no instruction, the table's maximum.
  const fact = "The record of your dentist appointment was updated: the answer is March 21, 2025.";
  const asks = `When is it? ${fact}`;
  const orders = `${fact} Please reason from the updated record.`;
  const aside = `${fact} (Note: it moved.)`;
  const words = (t: string) => t.split(/\s+/).length;
  const substance = (t: string) => Math.min(words(t) / 20, 1);
  const terms = (text: string) => usefulnessScore({ text }) - substance(text);
  const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  near(terms(asks), terms(fact) - 1.5);
  near(terms(orders), terms(fact) - 1);
  near(terms(aside), terms(fact) - 1);
  // Ordinary statements with abbreviations or decimals are not split into questions or orders.
  const plain = "Dr. Ruiz moved my check-up to 9.30 am on May 3.";
  near(terms(plain), 5);
});
