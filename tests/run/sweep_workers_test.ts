import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import { sweep, type SweepOptions } from "../../lib/run/sweep.ts";

const demo = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });

/** The rows file a sweep writes (latencyMs, the one timing column, zeroed) and its sidecar. */
async function run(workers: number, extra: Partial<SweepOptions> = {}) {
  const lines: string[] = [], sidecar: string[] = [];
  const returned = await sweep({
    stage: "writing",
    grid: [0, 0.5, 1],
    instances: demo.slice(0, 7),
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference:careful", "reference:compliant"] }),
    seed: 3,
    trials: 2,
    workers,
    trajectories: true,
    onRows: (rows, trajectory) => {
      for (const r of rows) lines.push(JSON.stringify({ ...r, latencyMs: 0 }));
      sidecar.push(JSON.stringify(trajectory));
    },
    ...extra,
  });
  const sha = (xs: string[]) => createHash("sha256").update(xs.join("\n")).digest("hex");
  return { rows: sha(lines), sidecar: sha(sidecar), count: lines.length, returned };
}

Deno.test("sweep({ workers }) writes the same bytes with 1 and 2 workers", async () => {
  const one = await run(1);
  const two = await run(2);
  assert.equal(one.count, 2 * 2 * 3 * 7 * 2 * 2); // attacks x agents x points x instances x trials x conditions
  assert.equal(two.rows, one.rows);
  assert.equal(two.sidecar, one.sidecar);
  assert.equal(two.returned.length, one.count);
  // More workers than instances, and a selection (a resume): still the same bytes, in order.
  const select = (key: string) => !key.endsWith("#1");
  assert.equal((await run(3, { select })).rows, (await run(1, { select })).rows);
});

Deno.test("sweep({ keepRows: false }) streams every row to onRows and keeps none", async () => {
  const kept = await run(1);
  for (const workers of [1, 2]) {
    const streamed = await run(workers, { keepRows: false });
    assert.deepEqual(streamed.returned, []);
    assert.equal(streamed.rows, kept.rows);
  }
});

Deno.test("sweep({ workers }) refuses what a worker cannot rebuild", async () => {
  const base = {
    stage: "writing" as const,
    instances: demo.slice(0, 1),
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference:careful"] }),
  };
  await assert.rejects(
    () => sweep({ ...base, workers: 0 }),
    /workers must be an integer >= 1, got 0/,
  );
  await assert.rejects(
    () => sweep({ ...base, workers: 2, judge: { id: "mine", judge: () => ({}) } as never }),
    /Cannot sweep on 2 workers: judge mine is not a registered judge/,
  );
  await assert.rejects(
    () => sweep({ ...base, workers: 2, rankers: {} }),
    /rankers holds functions/,
  );
});
