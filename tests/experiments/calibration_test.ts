/**
 * The calibrated reference agent (every persona, the committed fit) against the paper's shapes:
 * every shape `calibrationTable` checks holds on the built-in demo set, the set the fit saw. On the
 * committed fixtures (invented text in the LoCoMo and LongMemEval layouts, a handful of usable
 * questions each) the table is computed end to end, factor by factor; with so few instances a
 * median moves in steps of a tenth or more, so there the shapes are reported, not asserted.
 * LoCoMo and LongMemEval themselves are checked by `deno task calibrate --dataset ...` (the
 * numbers are in the README), not here: the tests run without the benchmark files.
 */
import assert from "node:assert/strict";
import { calibrationTable, formatCalibration } from "../../lib/experiments/calibration.ts";
import { SIMULATOR_FIT } from "../../lib/agents/personas.ts";
import { FIXTURE_DIR } from "../data/_built.ts";

const FACTORS = [
  "writing, MINJA",
  "writing, Sleeper",
  "rankers at θw 0.5",
  "trace load",
  "memory size",
  "management",
  "budget K",
  "fill",
  "retrieval exposure",
  "asymmetric exposure",
];

Deno.test("calibration: every shape of the paper holds on the demo set with the committed fit", async () => {
  const table = await calibrationTable({ dataset: "demo" });
  assert.deepEqual(table.map((r) => r.factor), FACTORS);
  const failing = table.filter((r) => r.holds === false);
  assert.deepEqual(failing, [], formatCalibration(table));
  // Only trace load cannot be shown on the demo set (one trace load).
  assert.deepEqual(table.filter((r) => r.holds === null).map((r) => r.factor), ["trace load"]);
  assert.equal(SIMULATOR_FIT.report.shapesHolding, "9 of 9");
});

for (const dataset of ["locomo", "longmemeval"]) {
  Deno.test(`calibration: the table is computed factor by factor on the ${dataset} fixture`, async () => {
    const table = await calibrationTable({ dataset, dataDir: FIXTURE_DIR, bankSize: 20 });
    assert.deepEqual(table.map((r) => r.factor), FACTORS);
    for (const row of table) {
      assert.ok(Number.isFinite(row.distance) && row.distance >= 0, row.factor);
      assert.ok(row.simulator.length > 0 && !row.simulator.includes("NaN"), row.simulator);
    }
  });
}
