import assert from "node:assert/strict";
import fc from "fast-check";
import { RequestLimiter, type RequestOutcome } from "../../lib/models/request_limiter.ts";

Deno.test("RequestLimiter keeps its window in [1, concurrency] and never runs more than the window", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 16 }),
      fc.array(fc.constantFrom<RequestOutcome>("ok", "congested", "failed"), {
        minLength: 1,
        maxLength: 200,
      }),
      async (concurrency, outcomes) => {
        const limiter = new RequestLimiter({ concurrency });
        let active = 0;
        await Promise.all(outcomes.map(async (outcome) => {
          const slot = await limiter.acquire();
          active++;
          assert.ok(active <= concurrency);
          await Promise.resolve();
          active--;
          slot.release({ outcome });
          assert.ok(limiter.limit >= 1 && limiter.limit <= concurrency);
        }));
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("RequestLimiter: sparse 429s cost nothing, a sustained 12.5% narrows the window, a window of 429s halves it, clean windows add one", async () => {
  const limiter = new RequestLimiter({ concurrency: 16 });
  const answer = async (outcome: RequestOutcome) => (await limiter.acquire()).release({ outcome });
  const window = async (congested: number) => {
    for (let i = 0; i < limiter.limit - congested; i++) await answer("ok");
    for (let i = 0; i < congested; i++) await answer("congested");
  };
  // One or two 429s in a window of 16, now and then: a provider's random rejections.
  for (const congested of [1, 0, 2, 0, 1, 1, 0]) await window(congested);
  assert.equal(limiter.limit, 16);
  // Two in every window (12.5%): the smoothed share reaches 10% on the fourth, 16 * (1 - 2/32).
  for (let i = 0; i < 3; i++) await window(2);
  assert.equal(limiter.limit, 16);
  await window(2);
  assert.equal(limiter.limit, 15);
  // A whole window of 429s halves it at once: 15 * (1 - 1/2) = 7.5.
  await window(15);
  assert.equal(limiter.limit, 7);
  // Clean windows climb back by one each.
  await window(0);
  assert.equal(limiter.limit, 8);
  // 500s and other failures say nothing about load.
  for (let i = 0; i < 50; i++) await answer("failed");
  assert.equal(limiter.limit, 8);
  assert.ok(limiter.stats.decreases === 2 && limiter.stats.lowest === 7);
});

Deno.test("RequestLimiter: a streak of 429s with Retry-After pauses this endpoint only", async () => {
  const a = new RequestLimiter({ concurrency: 4 }), b = new RequestLimiter({ concurrency: 4 });
  for (let i = 0; i < 3; i++) {
    (await a.acquire()).release({ outcome: "congested", retryAfterMs: 150 });
  }
  const t = performance.now();
  (await b.acquire()).release({ outcome: "ok" });
  assert.ok(performance.now() - t < 100, "another endpoint is not held");
  (await a.acquire()).release({ outcome: "ok" });
  assert.ok(performance.now() - t >= 140, "this endpoint waited out Retry-After");
  assert.equal(a.stats.pauses, 1);
});

Deno.test("RequestLimiter: a single 429 does not pause the endpoint", async () => {
  const limiter = new RequestLimiter({ concurrency: 4 });
  (await limiter.acquire()).release({ outcome: "congested", retryAfterMs: 5000 });
  const t = performance.now();
  (await limiter.acquire()).release({ outcome: "ok" });
  assert.ok(performance.now() - t < 100);
});

Deno.test("RequestLimiter: priority waiters (retries) go first", async () => {
  const limiter = new RequestLimiter({ concurrency: 1 });
  const held = await limiter.acquire();
  const order: string[] = [];
  const fresh = limiter.acquire().then((s) => (order.push("fresh"), s.release({ outcome: "ok" })));
  const retry = limiter.acquire({ priority: true }).then((s) => (
    order.push("retry"), s.release({ outcome: "ok" })
  ));
  held.release({ outcome: "ok" });
  await Promise.all([fresh, retry]);
  assert.deepEqual(order, ["retry", "fresh"]);
});
