import assert from "node:assert/strict";
import fc from "fast-check";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { referenceAgent } from "../../lib/agents/reference_agent.ts";
import { measureSystem } from "../../lib/systems/measure.ts";
import type { MemorySystem, TracedRecord } from "../../lib/systems/memory_system.ts";
import { rsrHits } from "../../lib/systems/rsr.ts";
import { demoInstances } from "./_setup.ts";

// A verbatim store whose search returns the records of the given units, in that order.
function _scripted(
  top: { clean: string[]; poisoned: string[] },
  riskIds: ReadonlySet<string>,
): MemorySystem {
  return {
    name: "scripted",
    system: "Scripted",
    version: "0",
    chatModel: null,
    embeddingModel: null,
    open: () => {
      const records: TracedRecord[] = [];
      let poisoned = false;
      return Promise.resolve({
        write({ unit }) {
          if (riskIds.has(unit.id)) poisoned = true;
          records.push({ storeId: `s-${records.length}`, text: unit.text, unitIds: [unit.id] });
          return Promise.resolve();
        },
        records: () => Promise.resolve([...records]),
        search: ({ k }) =>
          Promise.resolve(
            (poisoned ? top.poisoned : top.clean)
              .map((u) => records.find((r) => r.unitIds[0] === u)!).slice(0, k),
          ),
        received: () => new Map(),
        close: () => Promise.resolve(),
      });
    },
  };
}

Deno.test("measureSystem() counts an RSR hit only for the record carrying the evidence", async () => {
  const [instance] = await demoInstances(1, 5);
  // Poisoned top-1 is the record of one of MINJA's bare attack queries ("Do you remember ...
  // my dentist appointment?"), which asserts nothing; clean top-1 is small talk from the helpful
  // trace.
  const minja = instance.risk.minja!.units;
  // A bare attack query (its indication prompt cut away) carries nothing; the reply after it
  // states y_adv.
  const echo = minja.find((u, i) =>
    u.channel === "user" && u.asserts === null && u.supports == null &&
    minja[i + 1]?.asserts !== null
  )!;
  const stated = minja[minja.indexOf(echo) + 1];
  assert.ok(
    echo && stated.asserts !== null,
    "the demo's MINJA trace has a bare query then a claim",
  );
  const rows = await measureSystem({
    system: _scripted({
      clean: ["demo-01/h/1", "demo-01/h/3"],
      poisoned: [echo.id, stated.id],
    }, new Set(minja.map((u) => u.id))),
    instances: [instance],
    attacks: ["minja"],
    modes: ["M0"],
    ks: [1, 2],
    agent: referenceAgent({ persona: "balanced" }),
    judge: deterministicJudge,
    runId: "rsr",
    dataset: "demo",
    pipelineCheck: true,
  });
  const at = (condition: string, k: number) =>
    rows.find((r) => r.condition === condition && r.k === k)!;
  // K = 1: the records trace to the right traces (the old count), but carry no evidence.
  assert.deepEqual([at("clean", 1).rsrHit, at("clean", 1).traceHit], [false, true]);
  assert.deepEqual([at("poisoned", 1).rsrHit, at("poisoned", 1).traceHit], [false, true]);
  // K = 2 adds the asserting records (h/3 states y*, the unit after the echo states y_adv).
  assert.deepEqual([at("clean", 2).rsrHit, at("poisoned", 2).rsrHit], [true, true]);
});

Deno.test("rsrHits(): an evidence hit is a trace hit; a record of the other trace is neither", async () => {
  const [instance] = await demoInstances(1, 5);
  const units = [...instance.helpful.units, ...instance.risk.minja!.units];
  fc.assert(fc.property(
    fc.array(fc.array(fc.constantFrom(...units.map((u) => u.id)), { maxLength: 3 }), {
      maxLength: 5,
    }),
    fc.constantFrom("clean" as const, "poisoned" as const),
    (records, condition) => {
      const context = records.map((sourceUnitIds) => ({ sourceUnitIds }));
      const hits = rsrHits({ instance, attack: "minja", condition, context });
      // The evidence for a condition sits in that condition's trace.
      if (hits.rsrHit) assert.ok(hits.traceHit);
      const other = condition === "clean" ? instance.risk.minja!.units : instance.helpful.units;
      const onlyOther = context.every((r) =>
        r.sourceUnitIds.every((u) => other.some((o) => o.id === u))
      );
      if (onlyOther) assert.deepEqual(hits, { rsrHit: false, traceHit: false });
    },
  ));
});
