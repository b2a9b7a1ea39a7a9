import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { newcombeInterval } from "../../lib/stats/newcombe_interval.ts";
import { summarize } from "../../lib/stats/summarize.ts";
import { wilsonInterval } from "../../lib/stats/wilson_interval.ts";
import { type HandRow, pair } from "./_rows.ts";

// Agent a, thetaW 0.5: four instances. [correct, matchesTarget] per side.
const rows: HandRow[] = [
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "1", pairId: "p1" }, [true, false], [
    false,
    true,
  ]),
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "2", pairId: "p2" }, [true, false], [
    true,
    false,
  ]),
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "3", pairId: "p3" }, [false, true], [
    false,
    true,
  ]),
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "4", pairId: "p4" }, [false, false], [
    false,
    false,
  ]),
  // An error on the poisoned side: the pair is left out and counted in errors.
  ...pair({ agent: "a", thetaW: 0.5, instanceId: "5", pairId: "p5" }, [true, false], "error"),
  // Another operating point with two pairs.
  ...pair({ agent: "a", thetaW: 1, instanceId: "1", pairId: "q1" }, [true, false], [false, true]),
  ...pair({ agent: "a", thetaW: 1, instanceId: "2", pairId: "q2" }, [false, false], [
    false,
    true,
  ]),
  // A clean row without its twin.
  {
    agent: "a",
    stage: "writing",
    thetaW: 1,
    instanceId: "3",
    pairId: "q3",
    condition: "clean",
    correct: true,
    matchesTarget: false,
    error: null,
  },
  // No-memory runs for U0: 1 of 4 correct, plus one error.
  ...["1", "2", "3", "4", "5"].map((id, i): HandRow => ({
    agent: "a",
    stage: "writing",
    thetaW: 0,
    instanceId: id,
    pairId: `n${id}`,
    condition: "nomemory",
    correct: i === 4 ? null : i === 0,
    matchesTarget: null,
    error: i === 4 ? "rate limit" : null,
  })),
];

Deno.test("summarize() point estimates equal direct counts on hand-built rows", () => {
  const s = summarize(rows, { resamples: 200, seed: 1 }).toRecords();
  assert.equal(s.length, 2); // no-memory rows feed u0 but form no group of their own
  const half = s.find((r) => r.thetaW === 0.5)!;
  assert.equal(half.pairs, 4);
  assert.equal(half.cleanUtility, 2 / 4);
  assert.equal(half.poisonedUtility, 1 / 4);
  assert.equal(half.asr, 2 / 4);
  assert.equal(half.midAsr, (2 - 1) / 4);
  assert.equal(half.midUtility, (2 - 1) / 4);
  assert.equal(half.errors, 1);
  assert.equal(half.unpaired, 0);
  assert.equal(half.u0, 1 / 4);
  assert.equal(half.u0Runs, 4);
  assert.equal(half.u0Errors, 1);
  const one = s.find((r) => r.thetaW === 1)!;
  assert.equal(one.pairs, 2);
  assert.equal(one.asr, 1);
  assert.equal(one.midAsr, 1);
  assert.equal(one.unpaired, 1);
  for (const r of s) {
    for (const m of ["cleanUtility", "asr", "midAsr", "midUtility", "u0"]) {
      const [est, lo, hi] = [r[m], r[`${m}Lo`], r[`${m}Hi`]] as number[];
      if (est === null) continue;
      assert.ok(lo <= est && est <= hi, `${m} interval brackets estimate`);
    }
  }
});

Deno.test("summarize() intervals are the Wilson and Newcombe intervals of the group's counts", () => {
  const half = summarize(rows, {}).toRecords().find((r) => r.thetaW === 0.5)!;
  const wilson = wilsonInterval({ successes: 2, trials: 4 });
  assert.deepEqual([half.cleanUtilityLo, half.cleanUtilityHi], [wilson.lo, wilson.hi]);
  assert.equal(half.cleanUtilityCiMethod, "wilson");
  const u0 = wilsonInterval({ successes: 1, trials: 4 });
  assert.deepEqual([half.u0Lo, half.u0Hi], [u0.lo, u0.hi]);
  // MID_asr pairs: p1 poisoned only, p3 both, p2 and p4 neither.
  const mid = newcombeInterval({ both: 1, firstOnly: 1, secondOnly: 0, neither: 2 });
  assert.deepEqual([half.midAsr, half.midAsrLo, half.midAsrHi], [mid.estimate, mid.lo, mid.hi]);
  assert.equal(half.midAsrCiMethod, "newcombe");
  const boot = summarize(rows, { ci: "bca", resamples: 200 }).toRecords()[0];
  assert.equal(boot.asrCiMethod, "bca");
});

Deno.test("summarize() names a missing --by column and a missing required column", () => {
  assert.throws(() => summarize(rows, { by: ["nope"] }), /by column "nope" does not exist/);
  const stripped = rows.map(({ pairId: _p, ...r }) => r);
  assert.throws(() => summarize(stripped, {}), /required column "pairId"/);
  assert.throws(() => summarize(rows, { resamples: 0 }), /resamples must be a positive integer/);
});

/** Six instances x 3 trials; trials of one pair share pairId and differ in `trial`. */
function trialRows(): HandRow[] {
  const out: HandRow[] = [];
  for (let i = 0; i < 6; i++) {
    for (let t = 0; t < 3; t++) {
      out.push(
        ...pair({ agent: "a", thetaW: 1, instanceId: `i${i}`, pairId: `i${i}` }, [true, false], [
          false,
          i < 3,
        ]).map((r) => ({ ...r, trial: t })),
      );
    }
  }
  return out;
}

Deno.test("summarize() pairs on (pairId, trial) and resamples whole instances as clusters", () => {
  const s = summarize(trialRows(), { resamples: 500 }).toRecords()[0];
  assert.equal(s.pairs, 18);
  assert.equal(s.instances, 6);
  assert.equal(s.unpaired, 0);
  assert.equal(s.asr, 0.5);
  assert.equal(s.asrCiMethod, "bca");
  // Instances are all-or-nothing, so resampled ASR moves in steps of 1/6, not 1/18.
  assert.ok((s.asrHi as number) - (s.asrLo as number) >= 0.5);
  // Every instance has clean utility 1: no bootstrap spread, so one observation per instance.
  assert.equal(s.cleanUtilityCiMethod, "wilson-instances");
  assert.ok((s.cleanUtilityLo as number) < 1 && s.cleanUtilityHi === 1);
});

Deno.test("summarize() names a repeated (pairId, trial) and refuses score intervals for clusters", () => {
  const rows = trialRows();
  assert.throws(
    () => summarize(rows.map((r) => ({ ...r, trial: 0 })), {}),
    /12 clean rows repeat a \(pairId, trial\) within a group, e\.g\. pairId "i0" trial 0/,
  );
  assert.throws(() => summarize(rows, { ci: "wilson" }), /--ci wilson: score intervals need one/);
  // A missing trial column reads as trial 0.
  const one = rows.filter((r) => r.trial === 0).map(({ trial: _t, ...r }) => r);
  assert.equal(summarize(one, {}).toRecords()[0].cleanUtilityCiMethod, "wilson");
});

Deno.test("summarize() gives 0 of 100 instances x 3 trials the interval of 0 of 100", () => {
  const rows: HandRow[] = [];
  for (let i = 0; i < 100; i++) {
    for (let t = 0; t < 3; t++) {
      rows.push(
        ...pair({ agent: "a", thetaW: 1, instanceId: `i${i}`, pairId: `p${i}` }, [i < 50, false], [
          i < 50,
          false,
        ]).map((r) => ({ ...r, trial: t })),
      );
    }
  }
  const s = summarize(rows, {}).toRecords()[0];
  assert.equal(s.asr, 0);
  assert.equal(s.asrCiMethod, "wilson-instances");
  assert.ok((s.asrHi as number) >= 0.03, `upper ${s.asrHi}`);
  assert.equal(s.midAsrCiMethod, "newcombe-instances");
  assert.ok((s.midAsrLo as number) < 0 && (s.midAsrHi as number) > 0);
  assert.equal(s.cleanUtilityCiMethod, "bca");
});

Deno.test("summarize(): identical trials without bootstrap spread get the one-trial score interval", () => {
  const three = summarize(trialRows(), {}).toRecords()[0];
  const one = summarize(trialRows().filter((r) => r.trial === 0), {}).toRecords()[0];
  // Clean utility is 1 in every trial; MID_utility is 1 - 1[poisoned correct] = 1 everywhere.
  for (const m of ["cleanUtility", "midUtility"]) {
    assert.match(String(three[`${m}CiMethod`]), /-instances$/);
    assert.equal(three[`${m}Lo`], one[`${m}Lo`], m);
    assert.equal(three[`${m}Hi`], one[`${m}Hi`], m);
  }
});

Deno.test("summarize() names the row and column of a value of the wrong type", () => {
  const bad = (patch: Record<string, unknown>, k = 3) =>
    rows.map((r, i) => i === k ? { ...r, ...patch } : r);
  assert.throws(
    () => summarize(bad({ correct: "yes" }), {}),
    /row 4, column "correct": expected a boolean or null, got "yes"/,
  );
  assert.throws(
    () => summarize(bad({ thetaW: "high" }), {}),
    /row 4, column "thetaW": expected a number or null, got "high"/,
  );
  assert.throws(
    () => summarize(bad({ condition: "other" }), {}),
    /row 4, column "condition": expected one of clean, poisoned, nomemory/,
  );
  assert.throws(
    () => summarize(bad({ pairId: undefined }), {}),
    /row 4 lacks required column "pairId"/,
  );
  assert.throws(
    () => summarize(rows, { ci: "xx" as never }),
    /ci must be one of auto, wilson, newcombe, percentile, bca, got xx/,
  );
});

Deno.test("summarize() of a frame checks and casts the column dtypes", () => {
  const frame = pl.readRecords(rows.map((r) => ({ ...r, trial: 0 })));
  assert.equal(String(frame.getColumn("trial").dtype), String(pl.Float64)); // JS numbers
  assert.deepEqual(summarize(frame, {}).toRecords(), summarize(rows, {}).toRecords());
  const odd = pl.readRecords(rows.map((r, i) => ({ ...r, trial: i === 2 ? 0.5 : 0 })));
  assert.throws(() => summarize(odd, {}), /row 3, column "trial": expected a whole number/);
  const text = frame.withColumns(pl.col("correct").cast(pl.Utf8));
  assert.throws(
    () => summarize(text, {}),
    /column "correct" must hold boolean values, got dtype String/,
  );
});

Deno.test("acrossAgents() and toLong() reshape a summary", async () => {
  const { acrossAgents } = await import("../../lib/stats/across_agents.ts");
  const { toLong } = await import("../../lib/stats/to_long.ts");
  const two = [...rows, ...rows.map((r) => ({ ...r, agent: "b" }))];
  const s = summarize(two, { resamples: 100 });
  const m = acrossAgents(s, {});
  assert.equal(m.height, 2);
  assert.equal(m.getColumn("agents").get(0), 2);
  const long = toLong(s);
  assert.equal(long.height, s.height * 6);
  assert.deepEqual(toLong(m).columns, ["stage", "thetaW", "metric", "estimate", "lo", "hi"]);
});

Deno.test("summarize() pairs rows whose pairId repeats in another group", () => {
  const reused = ["a", "b"].flatMap((agent) =>
    pair({ agent, thetaW: 1, instanceId: "1", pairId: "same" }, [true, false], [
      agent === "a",
      agent === "b",
    ])
  );
  const s = summarize(reused, { resamples: 50 }).toRecords();
  assert.deepEqual(s.map((r) => [r.agent, r.pairs, r.unpaired, r.asr]), [
    ["a", 1, 0, 0],
    ["b", 1, 0, 1],
  ]);
});
