import assert from "node:assert/strict";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import { SystemRow } from "../../lib/schema/system_row.ts";
import type { SessionReceived } from "../../lib/systems/measure.ts";
import { SYSTEMS } from "../../lib/systems/resolve_system.ts";
import { startPipelineCheck } from "../../lib/systems/pipeline_check.ts";
import { writingRetention } from "../../lib/stats/writing_retention.ts";
import { demoInstances, pipelineRun } from "./_setup.ts";
import { full } from "../support/tiers.ts";

const KS = [1, 2, 3, 4, 5, 6, 7];

function _withoutLatency(rows: readonly SystemRow[]): string {
  return rows.map((r) => JSON.stringify({ ...r, latencyMs: 0 })).join("\n");
}

for (const spec of SYSTEMS) {
  full.test(`${spec.name}: M0 and M1 receive one writing, a rerun sends nothing, same seed same rows`, async () => {
    const instances = await demoInstances(6, 5);
    const check = await startPipelineCheck({});
    const cache = new ResponseCache({ path: ":memory:" });
    let rows: SystemRow[] = [];
    try {
      const sessions: SessionReceived[] = [];
      const first = await pipelineRun({
        name: spec.name,
        instances,
        cache,
        check,
        ks: KS,
        extra: { onSession: (s) => sessions.push(s) },
      });
      rows = first.rows;
      assert.equal(
        rows.filter((r) => r.error !== null).length,
        0,
        rows.find((r) => r.error)?.error ?? "",
      );
      // 6 instances x 2 attacks x 2 modes x (7 K x 2 conditions + 1 no-memory row).
      assert.equal(rows.length, 6 * 2 * 2 * (KS.length * 2 + 1));
      for (const r of rows) SystemRow.parse(r);
      assert.ok(
        rows.every((r) =>
          r.kind === "system" && r.system === spec.display && r.pipelineCheck &&
          r.stage === null && r.thetaW === null && r.policy === null && r.fill === null &&
          r.ranker === null
        ),
      );

      // One pre-management state: both modes received the same facts or notes for every unit.
      assert.equal(sessions.length, 12);
      for (const s of sessions) {
        const m0 = s.received.get("M0")!, m1 = s.received.get("M1")!;
        assert.ok(m0.size > 0, `${s.instanceId}/${s.attack}: nothing written`);
        assert.deepEqual([...m1.entries()].sort(), [...m0.entries()].sort());
      }

      // RSR@K is monotone in K (one retrieval, sliced); the context at K is a prefix of K = 7's.
      const key = (r: SystemRow) => `${r.instanceId}/${r.attack}/${r.management}/${r.condition}`;
      const byKey = new Map<string, SystemRow[]>();
      for (const r of rows.filter((r) => r.condition !== "nomemory")) {
        byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
      }
      for (const [k, list] of byKey) {
        list.sort((a, b) => a.k - b.k);
        for (let i = 1; i < list.length; i++) {
          assert.ok(!list[i - 1].rsrHit || list[i].rsrHit, `${k}: rsr hit lost at K=${list[i].k}`);
          assert.ok(!list[i - 1].rsrHit || list[i - 1].traceHit, `${k}: evidence without trace`);
          const prev = list[i - 1].contextIds;
          assert.deepEqual(list[i].contextIds.slice(0, prev.length), prev);
        }
      }
      const wr = writingRetention(
        rows.filter((r) => r.condition === "clean" && r.k === 1 && r.management === "M0")
          .map((r) => ({ retained: r.admittedHelpful, units: r.unitsHelpful })),
      );
      assert.ok(wr.mean > 0 && wr.mean <= 1);

      // A rerun on the same cache: no model, embedding or server request, the same rows.
      const again = await pipelineRun({ name: spec.name, instances, cache, check, ks: KS });
      assert.equal(again.requests, 0);
      assert.equal(again.hindsightRequests, 0);
      assert.equal(_withoutLatency(again.rows), _withoutLatency(rows));
    } finally {
      cache.close();
      await check.close();
    }
    // Fresh stand-ins and a fresh cache, same seed: byte-identical rows apart from latencyMs.
    const fresh = await pipelineRun({ name: spec.name, instances, ks: KS });
    assert.equal(_withoutLatency(fresh.rows), _withoutLatency(rows));
  });
}
