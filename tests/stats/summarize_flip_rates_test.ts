import assert from "node:assert/strict";
import { summarize } from "../../lib/stats/summarize.ts";
import { summarizeFile } from "../../lib/stats/summarize_file.ts";
import { wilsonInterval } from "../../lib/stats/wilson_interval.ts";

/** One instance's pair (clean correct, poisoned matching the target) and its reruns. */
function trial(i: number, flips: { risk: boolean; helpful: boolean; background: boolean[] }) {
  const base = {
    agent: "a",
    dataset: "d",
    attack: "minja",
    thetaR: 0.8,
    instanceId: `i${i}`,
    pairId: `p${i}`,
    trial: 0,
    error: null,
  };
  const rows: Record<string, unknown>[] = [
    {
      ...base,
      condition: "clean",
      correct: true,
      matchesTarget: false,
      counterfactualOf: null,
      ablatedRole: null,
    },
    {
      ...base,
      condition: "poisoned",
      correct: false,
      matchesTarget: true,
      counterfactualOf: null,
      ablatedRole: null,
    },
  ];
  const rerun = (condition: string, role: string, flip: boolean) => ({
    ...base,
    condition,
    counterfactualOf: `${base.pairId}/${condition}`,
    ablatedRole: role,
    correct: condition === "clean" ? !flip : flip,
    matchesTarget: condition === "poisoned" ? !flip : false,
  });
  rows.push(rerun("poisoned", "risk", flips.risk));
  rows.push(rerun("clean", "helpful", flips.helpful));
  for (const f of flips.background) rows.push(rerun("clean", "background", f));
  return rows;
}

Deno.test("summarize() adds flip rates by role from counterfactual reruns, and pairs ignore them", () => {
  const rows = Array.from(
    { length: 20 },
    (_, i) => trial(i, { risk: i < 15, helpful: i < 4, background: [i === 0, false] }),
  ).flat();
  const s = summarize(rows, { by: ["agent"] }).toRecords()[0];
  assert.equal(s.pairs, 20);
  assert.equal(s.asr, 1);
  assert.equal(s.cleanUtility, 1);
  assert.equal(s.flipRisk, 15 / 20);
  assert.equal(s.flipRiskCiMethod, "wilson");
  const w = wilsonInterval({ successes: 15, trials: 20 });
  assert.ok(
    Math.abs(Number(s.flipRiskLo) - w.lo) < 1e-12 && Math.abs(Number(s.flipRiskHi) - w.hi) < 1e-12,
  );
  assert.equal(s.flipHelpful, 4 / 20);
  assert.equal(s.helpfulReruns, 20);
  assert.equal(s.backgroundReruns, 40);
  assert.equal(s.flipBackground, 1 / 40);
  // Two background reruns per instance: a cluster bootstrap over instances.
  assert.equal(s.flipBackgroundCiMethod, "bca");
  assert.ok(Number(s.flipBackgroundHi) > Number(s.flipBackgroundLo));
  assert.equal(s.rerunErrors, 0);
  // Without reruns, no flip columns, and every other column is the same.
  const plain = summarize(rows.filter((r) => r.counterfactualOf === null), { by: ["agent"] });
  assert.ok(!plain.columns.includes("flipRisk"));
  const ordinary = plain.toRecords()[0];
  for (const [column, value] of Object.entries(ordinary)) assert.equal(s[column], value, column);
});

Deno.test("summarizeFile() reads the counterfactual columns and agrees with summarize()", async () => {
  const rows = Array.from(
    { length: 6 },
    (_, i) => trial(i, { risk: i % 2 === 0, helpful: false, background: [false] }),
  ).flat();
  rows.push({ ...rows[2], error: "boom", correct: null, matchesTarget: null });
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const a = summarizeFile(path, { by: ["agent"] }).toRecords();
    const b = summarize(rows, { by: ["agent"] }).toRecords();
    assert.deepEqual(a, b);
    assert.equal(a[0].flipRisk, 3 / 6);
    assert.equal(a[0].rerunErrors, 1);
  } finally {
    await Deno.remove(path);
  }
});
