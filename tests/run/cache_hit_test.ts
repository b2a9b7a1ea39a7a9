/**
 * `cacheHit` is deterministic (issue 22, item 7): the same run writes the same rows, cacheHit
 * included, at concurrency 1, 8 or 32, interrupted and resumed, or rerun on a warm cache. A
 * row is a cache hit when each of its model calls was answered by a reply another run put in
 * the cache, or one an earlier row of the run (in plan order) asked for.
 */
import assert from "node:assert/strict";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { trialKey } from "../../lib/run/run_pair.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const instances = Array.from(
  { length: 6 },
  (_, i) => syntheticInstance({ id: `h${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
);

/** A sweep whose rows repeat requests (the same context at two coverage levels, twins alike). */
async function run(options: {
  baseUrl: string;
  cachePath: string;
  concurrency: number;
  select?: (key: string) => boolean;
}): Promise<TrialRow[]> {
  const models = modelSetup({
    cachePath: options.cachePath,
    baseUrl: options.baseUrl,
    judge: "llm:self",
    concurrency: options.concurrency,
    env: { OPENAI_API_KEY: "sk-cache-hit-test" },
  });
  try {
    return await sweep({
      stage: "writing",
      grid: [0, 0.5, 1],
      base: { ranker: "chronological", bankSize: 12, thetaR: 0.5 },
      instances,
      dataset: "synthetic",
      agents: models.agents(["llm:fake-1"]),
      judge: models.judge,
      concurrency: options.concurrency,
      ...(options.select && { select: options.select }),
    });
  } finally {
    models.close();
  }
}

const bytes = (rows: TrialRow[]) => rows.map((r) => JSON.stringify({ ...r, latencyMs: 0 }));

Deno.test("cacheHit: the same rows at concurrency 1, 8 and 32, after an interrupted and resumed run, and on a warm cache", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir({ prefix: "memgauge-hits-" });
  try {
    const one = await run({
      baseUrl: server.baseUrl,
      cachePath: `${dir}/1.sqlite`,
      concurrency: 1,
    });
    assert.ok(one.every((r) => r.error === null), one.find((r) => r.error)?.error ?? "");
    const hits = one.filter((r) => r.cacheHit === true).length;
    // Some rows repeat an earlier row's requests (e.g. theta_w = 0, where twins are equal).
    assert.ok(hits > 0 && hits < one.length, `${hits} of ${one.length}`);
    for (const concurrency of [8, 32]) {
      const rows = await run({
        baseUrl: server.baseUrl,
        cachePath: `${dir}/c${concurrency}.sqlite`,
        concurrency,
      });
      assert.deepEqual(bytes(rows), bytes(one), `concurrency ${concurrency}`);
    }
    // Interrupted: the first process answered 60% of the pair trials but wrote only 40% (the
    // rest were in flight or waiting for earlier pairs when it was killed); the resume runs the
    // 60% it lacks on the same cache.
    const keys = [...new Set(one.map(trialKey))];
    const answered = new Set(keys.slice(0, Math.round(keys.length * 0.6)));
    const written = new Set(keys.slice(0, Math.round(keys.length * 0.4)));
    const cut = await run({
      baseUrl: server.baseUrl,
      cachePath: `${dir}/resume.sqlite`,
      concurrency: 8,
      select: (k) => answered.has(k),
    });
    const resumed = await run({
      baseUrl: server.baseUrl,
      cachePath: `${dir}/resume.sqlite`,
      concurrency: 8,
      select: (k) => !written.has(k),
    });
    const joined = [...cut.filter((r) => written.has(trialKey(r))), ...resumed];
    assert.deepEqual(bytes(joined), bytes(one), "interrupted and resumed");
    // A rerun of the same run on its warm cache: zero requests, the same bytes.
    const before = server.requests;
    const warm = await run({
      baseUrl: server.baseUrl,
      cachePath: `${dir}/1.sqlite`,
      concurrency: 8,
    });
    assert.equal(server.requests, before);
    assert.deepEqual(bytes(warm), bytes(one), "warm cache");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
