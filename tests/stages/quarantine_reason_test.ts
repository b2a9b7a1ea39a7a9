import assert from "node:assert/strict";
import { loadDataset } from "../../lib/data/datasets.ts";
import { memoryState } from "../../lib/stages/management/memory_state.ts";
import { POLICIES } from "../../lib/stages/management/policies.ts";
import { quarantineReason } from "../../lib/stages/management/quarantine_reason.ts";
import { writeTraceRecord } from "../../lib/stages/writing/write_trace_record.ts";
import { WriteOnceCache } from "../../lib/stages/writing/write_once_cache.ts";
import { verbatimWriter } from "../../lib/stages/writing/writers/verbatim.ts";

Deno.test("quarantineReason() names the evidence of every record a built-in policy quarantines", async () => {
  const instances = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
  const cache = new WriteOnceCache({ writer: verbatimWriter });
  const seen = new Map<string, number>();
  for (const instance of instances) {
    for (const risk of [instance.risk.minja, instance.risk.sleeper]) {
      if (!risk) continue;
      const helpful = await writeTraceRecord({
        trace: instance.helpful,
        admitted: instance.helpful.units.map((u) => u.id),
        cache,
      });
      const poison = await writeTraceRecord({
        trace: risk,
        admitted: risk.units.map((u) => u.id),
        cache,
      });
      const state = memoryState({
        records: [...instance.background, helpful!, poison!],
        traces: [instance.helpful, risk],
      });
      for (const { value: policy } of POLICIES.entries()) {
        for (const record of policy.apply(state).quarantined) {
          const reason = quarantineReason({ policy, record, state });
          assert.ok(reason.startsWith(`${policy.id}: `), reason);
          // Never the fallback (the policy's description): a built-in names its evidence.
          assert.ok(!reason.includes(policy.description.replace(/\.$/, "")), reason);
          seen.set(policy.id, (seen.get(policy.id) ?? 0) + 1);
        }
      }
    }
  }
  assert.deepEqual(
    [...seen.keys()].sort(),
    ["NC", "PQ", "SC"],
    "each quarantining policy was exercised",
  );
});

Deno.test("quarantineReason() names a plugin policy by its id and description", () => {
  const record = {
    id: "r",
    text: "x",
    role: "background" as const,
    sourceUnitIds: [],
    numbers: [],
    asserts: null,
    provenance: {
      session: "s",
      channels: ["tool" as const],
      trusted: true,
      verified: false,
      writtenAt: 0,
    },
  };
  const policy = { id: "TQ", description: "Tool quarantine: tool records are excluded." };
  assert.equal(
    quarantineReason({ policy, record, state: { records: [record] } }),
    "TQ: Tool quarantine: tool records are excluded",
  );
});
