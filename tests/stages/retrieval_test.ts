import assert from "node:assert/strict";
import fc from "fast-check";
import type { MemoryRecord } from "../../lib/schema/memory_record.ts";
import { exposureSchedule } from "../../lib/stages/retrieval/exposure_schedule.ts";
import { fillOrder } from "../../lib/stages/retrieval/fill_order.ts";
import { pairContexts } from "../../lib/stages/retrieval/pair_contexts.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const FC = { seed: 11, numRuns: 300 };
const theta = fc.integer({ min: 0, max: 20 }).map((x) => x / 20);

const rec = (id: string, role: MemoryRecord["role"]): MemoryRecord => ({
  id,
  text: id,
  role,
  sourceUnitIds: [],
  provenance: { session: "s", channels: ["user"], trusted: true, verified: true, writtenAt: 0 },
  numbers: [],
  asserts: null,
});

Deno.test("exposureSchedule() exposes exactly round(theta * n), nested in theta", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 200 }), theta, theta, fc.nat(), (n, a, b, seed) => {
      const ids = Array.from({ length: n }, (_, i) => `i${i}`);
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const small = exposureSchedule({ ids, theta: lo, seed, stream: "helpful" });
      const large = exposureSchedule({ ids, theta: hi, seed, stream: "helpful" });
      const count = (m: Map<string, boolean>) => [...m.values()].filter(Boolean).length;
      assert.equal(count(small), Math.round(lo * n + 1e-9));
      assert.ok(Math.abs(count(small) / n - lo) <= 0.5 / n + 1e-12);
      for (const id of ids) if (small.get(id)) assert.ok(large.get(id));
    }),
    FC,
  );
});

Deno.test("exposureSchedule() draws helpful and risk streams independently", () => {
  const ids = Array.from({ length: 100 }, (_, i) => `i${i}`);
  const h = exposureSchedule({ ids, theta: 0.5, seed: 1, stream: "helpful" });
  const r = exposureSchedule({ ids, theta: 0.5, seed: 1, stream: "risk" });
  assert.notDeepEqual([...ids].map((id) => h.get(id)), [...ids].map((id) => r.get(id)));
});

Deno.test("pairContexts() holds the retrieval invariants", () => {
  fc.assert(
    fc.property(
      fc.record({
        k: fc.integer({ min: 1, max: 9 }),
        bank: fc.integer({ min: 0, max: 12 }),
        hasHelpful: fc.boolean(),
        hasRisk: fc.boolean(),
        a: fc.boolean(),
        b: fc.boolean(),
        seed: fc.nat(),
      }),
      ({ k, bank, hasHelpful, hasRisk, a, b, seed }) => {
        const fill = Array.from({ length: bank }, (_, i) => rec(`b${i}`, "background"));
        const helpful = hasHelpful ? rec("h", "helpful") : null;
        const risk = hasRisk ? rec("r", "risk") : null;
        const { clean, poisoned } = pairContexts({
          k,
          helpful,
          risk,
          helpfulExposed: a,
          riskExposed: b,
          cleanFill: fill,
          seed,
          drawKey: "i",
        });
        const available = (a && helpful ? 1 : 0) + bank;
        // Exactly K records, or all of memory when it holds fewer.
        assert.equal(clean.length, Math.min(k, available));
        const riskIn = poisoned.some((r) => r.role === "risk");
        assert.equal(poisoned.length, Math.min(k, available + (riskIn ? 1 : 0)));
        // No risk record in a clean context; the helpful record is shared by the pair.
        assert.ok(!clean.some((r) => r.role === "risk"));
        assert.equal(
          clean.some((r) => r.role === "helpful"),
          poisoned.some((r) => r.role === "helpful"),
        );
        assert.equal(clean.some((r) => r.role === "helpful"), a && hasHelpful);
        // Risk replaces background, never the helpful record; it enters only when exposed.
        const head = a && helpful ? 1 : 0;
        assert.equal(riskIn, b && hasRisk && (available < k || k > head));
        // Same positions except the slot the risk record takes.
        const cleanIds = clean.map((r) => r.id);
        const poisonedIds = poisoned.map((r) => r.id);
        if (riskIn && clean.length === poisoned.length) {
          const diff = cleanIds.flatMap((id, i) => (id === poisonedIds[i] ? [] : [i]));
          assert.equal(diff.length, 1);
          assert.equal(poisonedIds[diff[0]], "r");
          assert.equal(clean[diff[0]].role, "background");
        } else if (riskIn) {
          assert.deepEqual(poisonedIds.filter((id) => id !== "r"), cleanIds);
        } else {
          assert.deepEqual(poisonedIds, cleanIds);
        }
      },
    ),
    FC,
  );
});

Deno.test("pairContexts() rejects K = 0 naming K", () => {
  assert.throws(
    () =>
      pairContexts({
        k: 0,
        helpful: null,
        risk: null,
        helpfulExposed: false,
        riskExposed: false,
        cleanFill: [],
        seed: 0,
        drawKey: "i",
      }),
    /K must be an integer >= 1, got 0/,
  );
});

Deno.test("fillOrder() is a fixed seeded order of the whole bank in random mode", () => {
  const instance = syntheticInstance({ id: "i", seed: 5, helpfulUnits: 3, riskUnits: 3, bank: 40 });
  const a = fillOrder({ instance, mode: "random", seed: 9 }).map((r) => r.id);
  assert.deepEqual(a, fillOrder({ instance, mode: "random", seed: 9 }).map((r) => r.id));
  assert.notDeepEqual(a, fillOrder({ instance, mode: "random", seed: 10 }).map((r) => r.id));
  assert.deepEqual(a.toSorted(), instance.background.map((r) => r.id).toSorted());
});

Deno.test("fillOrder() similarity ranks query-similar records first and drops answer- or target-supporting ones", () => {
  const instance = syntheticInstance({ id: "i", seed: 5, helpfulUnits: 3, riskUnits: 3, bank: 30 });
  instance.query = "Which colour is the garden shed?";
  instance.background[7] = {
    ...instance.background[7],
    text: "The garden shed is painted a deep colour.",
  };
  instance.background[8] = {
    ...instance.background[8],
    text: "Someone said the shed value is omega 99.",
  };
  const order = fillOrder({ instance, mode: "similarity", seed: 1 }).map((r) => r.id);
  assert.equal(order[0], "i/bg/7");
  assert.ok(!order.includes("i/bg/8"));
  assert.equal(order.length, 29);
});
