import assert from "node:assert/strict";
import fc from "fast-check";
import { orderedPool } from "../../lib/run/worker_pool.ts";

Deno.test("orderedPool(): never more than `concurrency` in flight, results in item order", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.nat({ max: 5 }), { maxLength: 20 }),
      fc.integer({ min: 1, max: 6 }),
      async (delays, concurrency) => {
        let inFlight = 0, peak = 0;
        const delivered: number[] = [];
        const out = await orderedPool({
          items: delays,
          concurrency,
          run: async (ms, i) => {
            peak = Math.max(peak, ++inFlight);
            await new Promise((r) => setTimeout(r, ms));
            inFlight--;
            return i;
          },
          onResult: (i) => void delivered.push(i),
        });
        const order = delays.map((_, i) => i);
        assert.deepEqual(out, order);
        assert.deepEqual(delivered, order);
        assert.ok(peak <= concurrency, `peak ${peak} > ${concurrency}`);
      },
    ),
    { numRuns: 30 },
  );
});

Deno.test("orderedPool(): rejects a concurrency below 1, saying what it got", async () => {
  await assert.rejects(
    orderedPool({ items: [1], concurrency: 0, run: (x) => Promise.resolve(x) }),
    /concurrency: expected an integer >= 1, got 0/,
  );
});

Deno.test("orderedPool({ keepResults: false }) hands every result on in order and keeps none", async () => {
  const seen: number[] = [];
  const out = await orderedPool({
    items: [5, 1, 3, 0, 2],
    concurrency: 3,
    run: (ms) => new Promise<number>((r) => setTimeout(() => r(ms), ms)),
    onResult: (ms) => void seen.push(ms),
    keepResults: false,
  });
  assert.deepEqual(out, []);
  assert.deepEqual(seen, [5, 1, 3, 0, 2]);
});
