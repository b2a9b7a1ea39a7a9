/**
 * The calibrated reference agent (every persona, the committed fit) against the paper's shapes:
 * every shape `calibrationTable` checks holds on the built-in demo set, the set the fit saw.
 * LoCoMo and LongMemEval are checked by `deno task calibrate --dataset ...`, not here: the tests
 * run without the benchmark files, and the committed fixtures (a handful of invented questions in
 * their layouts) cannot hold Figure 7's banks nor give medians finer than a tenth.
 */
import assert from "node:assert/strict";
import { calibrationTable, formatCalibration } from "../../lib/experiments/calibration.ts";
import { SIMULATOR_FIT } from "../../lib/agents/personas.ts";

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
