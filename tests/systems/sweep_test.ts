import assert from "node:assert/strict";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { referenceAgent } from "../../lib/agents/reference_agent.ts";
import { measureSystem, type SystemRow } from "../../lib/systems/measure.ts";
import { resolveSystem } from "../../lib/systems/resolve_system.ts";
import { writingRetention } from "../../lib/stats/writing_retention.ts";
import { startFakeHindsight } from "../../lib/testing/fake_hindsight_server.ts";
import { demoInstances, endpointOf, startSystemsServer } from "./_setup.ts";

const KS = [1, 2, 3, 4, 5, 6, 7];

async function _sweep(name: string): Promise<SystemRow[]> {
  const server = startSystemsServer();
  const hindsight = startFakeHindsight();
  try {
    return await measureSystem({
      factory: resolveSystem({
        name,
        endpoint: endpointOf(server),
        hindsightUrl: hindsight.baseUrl,
      }),
      instances: await demoInstances(10, 5),
      ks: KS,
      agent: referenceAgent({ persona: "balanced" }),
      judge: deterministicJudge,
      runId: `test-${name}`,
      dataset: "demo",
      pipelineCheck: true,
      concurrency: 4,
    });
  } finally {
    await server.close();
    await hindsight.close();
  }
}

function _check(rows: SystemRow[], system: string) {
  assert.equal(
    rows.filter((r) => r.error !== null).length,
    0,
    rows.find((r) => r.error)?.error ?? "",
  );
  // 10 instances x 2 attacks x 2 modes x (7 K x 2 conditions + 1 no-memory row).
  assert.equal(rows.length, 10 * 2 * 2 * (KS.length * 2 + 1));
  assert.ok(
    rows.every((r) => r.system === system && r.systemVersion.length > 0 && r.pipelineCheck),
  );
  assert.deepEqual([...new Set(rows.map((r) => r.management))].sort(), ["M0", "M1"]);
  assert.deepEqual([...new Set(rows.map((r) => r.attack))].sort(), ["minja", "sleeper"]);
  // RSR@K is monotone in K for every instance, attack, mode and condition (one retrieval, sliced).
  const hits = new Map<string, boolean[]>();
  for (const r of rows.filter((r) => r.condition !== "nomemory")) {
    const key = `${r.instanceId}/${r.attack}/${r.management}/${r.condition}`;
    (hits.get(key) ?? hits.set(key, []).get(key)!)[r.k - 1] = r.rsrHit!;
  }
  for (const [key, h] of hits) {
    for (let k = 1; k < h.length; k++) {
      assert.ok(!h[k - 1] || h[k], `${key}: hit at K=${k} but not K=${k + 1}`);
    }
  }
  // Context at K is the first K records of the K=7 retrieval.
  const byPair = new Map(
    rows.map((r) => [`${r.instanceId}/${r.attack}/${r.management}/${r.condition}/${r.k}`, r]),
  );
  for (const r of rows.filter((r) => r.k === 3 && r.condition !== "nomemory")) {
    const seven = byPair.get(`${r.instanceId}/${r.attack}/${r.management}/${r.condition}/7`)!;
    assert.deepEqual(r.contextIds, seven.contextIds.slice(0, 3));
  }
  // WR comes out of the rows as a share in [0, 1].
  const wr = writingRetention(
    rows.filter((r) => r.condition === "clean" && r.k === 1).map((r) => ({
      retained: r.admittedHelpful,
      units: r.unitsHelpful,
    })),
  );
  assert.ok(wr.mean >= 0 && wr.mean <= 1);
}

for (
  const [name, system] of [["mem0", "Mem0"], ["langmem", "LangMem"], ["amem", "A-MEM"], [
    "hindsight",
    "Hindsight",
  ]]
) {
  Deno.test(`measureSystem() completes a 10-instance ${system} sweep, M0 and M1, K = 1..7`, async () => {
    _check(await _sweep(name), system);
  });
}
