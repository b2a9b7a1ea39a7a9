import assert from "node:assert/strict";
import { systemTable1 } from "../../lib/systems/system_table1.ts";
import { systemTable2 } from "../../lib/systems/system_table2.ts";
import { demoInstances, pipelineRun } from "./_setup.ts";

Deno.test("systemTable1() and systemTable2() read the evidence RSR and tell Mem0's two versions apart", async () => {
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
  for (const r of t2.filter((r) => r.metric === "rsr")) {
    const mine = rows.filter((x) =>
      x.systemVersion.startsWith(r.system.slice(6, -1)) && x.management === "M0" && x.k === r.k &&
      x.condition !== "nomemory"
    );
    assert.equal(r.value, mine.filter((x) => x.rsrHit).length / mine.length);
    const trace = t2.find((t) => t.system === r.system && t.metric === "rsrTrace" && t.k === r.k)!;
    // The evidence count never exceeds the trace count.
    assert.ok(r.value <= trace.value);
  }
  assert.ok(!systemTable2({ rows }).toRecords().some((r) => r.metric === "rsrTrace"));
});
