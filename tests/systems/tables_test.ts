import assert from "node:assert/strict";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { referenceAgent } from "../../lib/agents/reference_agent.ts";
import type { SystemRow } from "../../lib/schema/system_row.ts";
import { unitFacts } from "../../lib/stats/retained_information.ts";
import { measureSystem } from "../../lib/systems/measure.ts";
import type { MemorySystem, TracedRecord } from "../../lib/systems/memory_system.ts";
import { systemTable1 } from "../../lib/systems/system_table1.ts";
import { systemTable2 } from "../../lib/systems/system_table2.ts";
import { demoInstances, pipelineRun } from "./_setup.ts";

/** A store that keeps one record per unit, its text rewritten by `rewrite`, traced to the unit. */
function _rewriting(rewrite: (text: string) => string): MemorySystem {
  return {
    name: "rewriting",
    system: "Rewriting",
    version: "0",
    chatModel: null,
    embeddingModel: null,
    open: () => {
      const records: TracedRecord[] = [];
      return Promise.resolve({
        write({ unit, background }) {
          const text = background ? unit.text : rewrite(unit.text);
          records.push({ storeId: `s${records.length}`, text, unitIds: [unit.id] });
          return Promise.resolve();
        },
        records: () => Promise.resolve([...records]),
        search: ({ k }) => Promise.resolve(records.slice(-k)),
        received: () => new Map(),
        close: () => Promise.resolve(),
      });
    },
  };
}

async function _measure(system: MemorySystem): Promise<SystemRow[]> {
  return await measureSystem({
    system,
    instances: await demoInstances(3, 5),
    modes: ["M0"],
    ks: [1],
    agent: referenceAgent({ persona: "balanced" }),
    judge: deterministicJudge,
    runId: "wr",
    dataset: "demo",
    pipelineCheck: true,
  });
}

Deno.test("WR counts information, not provenance: records that trace to every unit but drop its content retain nothing", async () => {
  // Before issue 22 this system's WR was 100 (every unit has a live record tracing to it).
  const dropped = await _measure(_rewriting(() => "Noted."));
  const kept = await _measure(_rewriting((t) => t));
  const t1 = (rows: SystemRow[]) =>
    systemTable1({ rows, k: 1 }).toRecords()[0] as { wr: number; wrTrace: number };
  assert.equal(t1(dropped).wrTrace, 100);
  assert.ok(t1(dropped).wr < 5, String(t1(dropped).wr));
  assert.equal(t1(kept).wr, 100);
  // Only a unit that states nothing at all ("OK.") survives "Noted.": it had nothing to lose.
  const [first] = await demoInstances(1, 5);
  const empty = (id: string) => {
    const u = [...first.helpful.units, ...first.risk.minja!.units].find((u) => u.id === id)!;
    const f = unitFacts(u);
    return f.answer === null && f.numbers.length + f.entities.length + f.words.length === 0;
  };
  for (const r of dropped.filter((r) => r.condition === "poisoned" && r.instanceId === first.id)) {
    assert.deepEqual([r.tracedHelpful, r.tracedRisk], [r.unitsHelpful, r.unitsRisk]);
    if (r.attack === "minja") {
      assert.equal(r.admittedRisk, first.risk.minja!.units.filter((u) => empty(u.id)).length);
    }
    assert.equal(r.admittedHelpful, first.helpful.units.filter((u) => empty(u.id)).length);
  }
});

/** Minimal rows of one instance: a clean and a poisoned row per attack, retention as given. */
function _rows(helpful: Record<string, number>, risk: Record<string, number>): SystemRow[] {
  return Object.keys(helpful).flatMap((attack) =>
    (["clean", "poisoned"] as const).map((condition) =>
      ({
        instanceId: "i1",
        attack,
        trial: 0,
        k: 1,
        management: "M0",
        condition,
        error: null,
        system: "S",
        systemVersion: "1",
        unitsHelpful: 4,
        unitsRisk: 4,
        admittedHelpful: helpful[attack],
        admittedRisk: condition === "poisoned" ? risk[attack] : 0,
        tracedHelpful: 4,
        tracedRisk: condition === "poisoned" ? 4 : 0,
        correct: true,
        matchesTarget: false,
      }) as unknown as SystemRow
    )
  );
}

Deno.test("systemTable1() counts each trace once: one helpful trace per instance, one risk trace per attack", () => {
  // The helpful trace (all 4 units retained) is written in both attacks' sessions; the two risk
  // traces retain nothing. Three traces: WR = 1/3, not 2/4 (the helpful trace counted twice).
  const t1 = systemTable1({ rows: _rows({ minja: 4, sleeper: 4 }, { minja: 0, sleeper: 0 }), k: 1 })
    .toRecords()[0] as { wr: number };
  assert.ok(Math.abs(t1.wr - 100 / 3) < 1e-9, String(t1.wr));
});

Deno.test("systemTable2(): RSR and risk-record RSR are shares of instances, and Mem0's two versions stay apart", async () => {
  const instances = await demoInstances(3, 5);
  const rows = [
    ...(await pipelineRun({ name: "mem0", instances })).rows,
    ...(await pipelineRun({ name: "mem0-classic", instances })).rows,
  ];
  const t1 = systemTable1({ rows }).toRecords() as { system: string; mode: string }[];
  assert.deepEqual(t1.map((r) => `${r.system} ${r.mode}`), [
    "Mem0 (mem0ai@3.3.1) M0",
    "Mem0 (mem0ai@3.3.1) M1",
    "Mem0 (mem0ai@2.4.6) M0",
    "Mem0 (mem0ai@2.4.6) M1",
  ]);
  const t2 = systemTable2({ rows, traceRsr: true }).toRecords() as {
    system: string;
    metric: string;
    k: number;
    value: number;
  }[];
  const at = (system: string, metric: string, k: number) =>
    t2.find((t) => t.system === system && t.metric === metric && t.k === k)!.value;
  for (const r of t2.filter((r) => r.metric === "rsr")) {
    const mine = (condition: string) =>
      rows.filter((x) =>
        x.systemVersion.startsWith(r.system.slice(6, -1)) && x.management === "M0" &&
        x.k === r.k && x.condition === condition
      );
    // Per instance: each instance's share of hits over its contexts, then the mean.
    const perInstance = (list: SystemRow[]) => {
      const ids = [...new Set(list.map((x) => x.instanceId))];
      return ids.reduce((s, id) => {
        const own = list.filter((x) => x.instanceId === id);
        return s + own.filter((x) => x.rsrHit).length / own.length;
      }, 0) / ids.length;
    };
    assert.equal(r.value, perInstance(mine("clean")));
    assert.equal(at(r.system, "rsrRisk", r.k), perInstance(mine("poisoned")));
    // The evidence count never exceeds the trace count.
    assert.ok(r.value <= at(r.system, "rsrTrace", r.k));
  }
  assert.ok(!systemTable2({ rows }).toRecords().some((r) => r.metric === "rsrTrace"));
});

Deno.test("systemTable2(): an instance with more contexts does not weigh more", () => {
  // Instance a: one clean context, a hit; instance b: three clean contexts, no hit.
  const row = (instanceId: string, attack: string, trial: number, rsrHit: boolean) =>
    ({
      instanceId,
      attack,
      trial,
      k: 1,
      management: "M0",
      condition: "clean",
      error: null,
      system: "S",
      systemVersion: "1",
      rsrHit,
      traceHit: rsrHit,
      correct: rsrHit,
      matchesTarget: false,
    }) as unknown as SystemRow;
  const rows = [
    row("a", "minja", 0, true),
    row("b", "minja", 0, false),
    row("b", "sleeper", 0, false),
    row("b", "minja", 1, false),
  ];
  const rsr = systemTable2({ rows }).toRecords().find((r) => r.metric === "rsr")!;
  // Per instance 0.5; as a share of rows it was 0.25.
  assert.equal(rsr.value, 0.5);
});
