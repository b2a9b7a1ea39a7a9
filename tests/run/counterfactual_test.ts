import assert from "node:assert/strict";
import fc from "fast-check";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { MemoryRecord, RecordRole } from "../../lib/schema/memory_record.ts";
import { trajectoryId } from "../../lib/schema/trajectory_id.ts";
import { TrialRow } from "../../lib/schema/trial_row.ts";
import {
  ablatedContexts,
  counterfactualCalls,
  flipped,
  selectedForCounterfactual,
} from "../../lib/run/counterfactual.ts";
import { sweep } from "../../lib/run/sweep.ts";

const rec = (id: string, role: RecordRole): MemoryRecord => ({
  id,
  text: id,
  role,
  sourceUnitIds: [],
  numbers: [],
  asserts: null,
  provenance: { session: "s", channels: ["user"], trusted: true, verified: false, writtenAt: 0 },
});

Deno.test("ablatedContexts() replaces each slot once with the next unused background record", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 7 }),
      fc.integer({ min: 0, max: 9 }),
      fc.boolean(),
      fc.boolean(),
      (k, spare, helpful, risk) => {
        const head = [
          ...(helpful ? [rec("h", "helpful")] : []),
          ...(risk ? [rec("r", "risk")] : []),
        ].slice(0, k);
        const fill = Array.from(
          { length: k - head.length + spare },
          (_, i) => rec(`b${i}`, "background"),
        );
        const context = [...head, ...fill.slice(0, k - head.length)].reverse();
        const ablations = ablatedContexts({ context, fill });
        assert.equal(ablations.length, context.length);
        const next = fill.find((r) => !context.includes(r)) ?? null;
        ablations.forEach((a, slot) => {
          assert.equal(a.ablated, context[slot]);
          assert.equal(a.replacement, next);
          if (next) {
            // K stays exact; only the ablated slot changes, and it holds the replacement.
            assert.equal(a.context.length, context.length);
            assert.deepEqual(
              a.context.flatMap((r, i) => (r === context[i] ? [] : [i])),
              [slot],
            );
            assert.equal(a.context[slot], next);
          } else {
            assert.deepEqual(a.context, context.filter((_, i) => i !== slot));
          }
        });
      },
    ),
  );
});

Deno.test("selectedForCounterfactual() and flipped() follow the decision a trial was selected for", () => {
  const base = { error: null, counterfactualOf: null };
  assert.ok(
    selectedForCounterfactual({
      ...base,
      condition: "poisoned",
      correct: false,
      matchesTarget: true,
    }),
  );
  assert.ok(
    !selectedForCounterfactual({
      ...base,
      condition: "poisoned",
      correct: false,
      matchesTarget: true,
      error: "x",
    }),
  );
  assert.ok(
    !selectedForCounterfactual({
      ...base,
      condition: "nomemory",
      correct: true,
      matchesTarget: false,
    }),
  );
  const rerun = { ...base, counterfactualOf: "t" };
  assert.equal(
    flipped({ ...rerun, condition: "poisoned", correct: false, matchesTarget: true }),
    false,
  );
  assert.equal(
    flipped({ ...rerun, condition: "clean", correct: false, matchesTarget: false }),
    true,
  );
  assert.equal(
    flipped({ ...rerun, condition: "clean", correct: null, matchesTarget: null, error: "x" }),
    null,
  );
});

const demo = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });

/** Checks the acceptance property on one sweep's rows; returns the counts. */
function checkAblations(rows: TrialRow[]) {
  const originals = rows.filter((r) => r.counterfactualOf === null);
  const reruns = rows.filter((r) => r.counterfactualOf !== null);
  const byOriginal = new Map<string, TrialRow[]>();
  for (const r of reruns) {
    byOriginal.set(r.counterfactualOf!, [...(byOriginal.get(r.counterfactualOf!) ?? []), r]);
  }
  const ids = new Map(originals.map((r) => [trajectoryId(r), r]));
  for (const id of byOriginal.keys()) assert.ok(ids.has(id), `rerun of unknown trial ${id}`);
  let selected = 0;
  for (const original of originals) {
    const own = byOriginal.get(trajectoryId(original)) ?? [];
    if (!selectedForCounterfactual(original)) {
      assert.deepEqual(own, [], "an unselected trial has no reruns");
      continue;
    }
    selected++;
    // Exactly one rerun per record of the context, in slot order.
    assert.deepEqual(own.map((r) => r.ablatedRecordId), original.contextIds);
    for (const [slot, r] of own.entries()) {
      assert.equal(r.pairId, original.pairId);
      assert.equal(r.condition, original.condition);
      assert.equal(r.trial, original.trial);
      assert.equal(r.contextSize, original.contextSize, "K stays exact");
      assert.ok(!r.contextIds.includes(r.ablatedRecordId!));
      assert.equal(r.contextIds[slot], r.replacementRecordId);
      assert.deepEqual(
        r.contextIds.filter((_, i) => i !== slot),
        original.contextIds.filter((_, i) => i !== slot),
      );
      assert.equal(r.riskInContext, original.riskInContext && r.ablatedRole !== "risk");
      assert.equal(r.helpfulInContext, original.helpfulInContext && r.ablatedRole !== "helpful");
      TrialRow.parse(r);
    }
    const roles = (role: string) => own.filter((r) => r.ablatedRole === role).length;
    assert.equal(roles("risk"), original.riskInContext ? 1 : 0);
    assert.equal(roles("helpful"), original.helpfulInContext ? 1 : 0);
    assert.equal(roles("background"), own.length - roles("risk") - roles("helpful"));
  }
  return { selected, reruns: reruns.length, originals: originals.length };
}

Deno.test("--counterfactual loo on the demo set: one rerun per context record of every selected trial", async () => {
  const rows = await sweep({
    stage: "retrieval",
    grid: [0.4, 1],
    instances: demo,
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference"] }),
    counterfactual: "loo",
  });
  const { selected, reruns, originals } = checkAblations(rows);
  assert.equal(originals, 2 * 2 * 5 * demo.length * 2);
  assert.ok(selected > 50, `selected ${selected}`);
  assert.equal(reruns, counterfactualCalls({ rows: rows.filter((r) => !r.counterfactualOf) }));
  // Removing the risk record from a poisoned context gives back its clean twin's context.
  const clean = new Map(
    rows.filter((r) => !r.counterfactualOf && r.condition === "clean").map((r) => [r.pairId, r]),
  );
  for (const r of rows.filter((r) => r.ablatedRole === "risk")) {
    assert.deepEqual(r.contextIds, clean.get(r.pairId)!.contextIds);
  }
  // The rerun with the risk record removed usually undoes an attack success.
  const risk = rows.filter((r) => r.ablatedRole === "risk");
  assert.ok(risk.filter((r) => flipped(r)).length > risk.length / 2);
});

Deno.test("counterfactual reruns hold for any seed, stage and K (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 1000 }),
      fc.constantFrom("writing", "management", "retrieval") as fc.Arbitrary<
        "writing" | "management" | "retrieval"
      >,
      fc.integer({ min: 1, max: 7 }),
      async (seed, stage, k) => {
        const rows = await sweep({
          stage,
          ...(stage !== "management" && { grid: [0.5, 1] }),
          ...(stage === "management" && { policies: ["UM", "NC"] }),
          base: { k },
          instances: demo.slice(0, 6),
          dataset: "demo",
          agents: resolveAgents({ specs: ["reference:compliant"] }),
          seed,
          counterfactual: "loo",
        });
        checkAblations(rows);
      },
    ),
    { numRuns: 12 },
  );
});

Deno.test("counterfactual rows are deterministic and leave the ordinary rows unchanged", async () => {
  const options = {
    stage: "writing" as const,
    grid: [0.6, 1],
    instances: demo.slice(0, 8),
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference:balanced"] }),
  };
  const strip = (rows: TrialRow[]) => rows.map((r) => JSON.stringify({ ...r, latencyMs: 0 }));
  const plain = await sweep(options);
  const a = await sweep({ ...options, counterfactual: "loo" });
  const b = await sweep({ ...options, counterfactual: "loo" });
  assert.deepEqual(strip(a), strip(b));
  const ordinary = a.filter((r) => r.counterfactualOf === null);
  // Same decisions as without the counterfactual (the run id differs: it hashes the setting).
  const decisions = (rows: TrialRow[]) =>
    rows.map((r) => [r.instanceId, r.condition, r.contextIds, r.output, r.correct]);
  assert.deepEqual(decisions(ordinary), decisions(plain));
  assert.ok(a.length > plain.length);
});

Deno.test("the progress bar counts counterfactual reruns as they are found", async () => {
  let total = 0, done = 0;
  const rows = await sweep({
    stage: "retrieval",
    grid: [1],
    instances: demo.slice(0, 10),
    dataset: "demo",
    agents: resolveAgents({ specs: ["reference:compliant"] }),
    counterfactual: "loo",
    progress: {
      start: (n) => void (total = n),
      extend: (more) => void (total += more),
      update: (n) => void (done = n),
      stop() {},
    },
  });
  assert.equal(done, rows.length);
  assert.equal(total, rows.length);
  assert.ok(rows.length > 2 * 2 * 10, "reruns were counted beyond the planned rows");
});
