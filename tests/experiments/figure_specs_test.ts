/** The figure specs honour every knob, label what produced them, and keep the paper's orders. */
import assert from "node:assert/strict";
import { referenceAgent } from "../../lib/agents/reference_agent.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import { anatomy } from "../../lib/experiments/anatomy.ts";
import { figure3Column } from "../../lib/experiments/figure3.ts";
import {
  figure5Rankers,
  figure6BudgetFill,
  figure7MemorySize,
} from "../../lib/experiments/rq2_figures.ts";
import { stageExperiment } from "../../lib/experiments/stage_experiments.ts";
import { notebookSetup } from "../../lib/experiments/notebook_setup.ts";

const quick = { n: 2, resamples: 10 } as const;

Deno.test("stageExperiment() honours grid, K, |B|, fill, policy and attack", async () => {
  const { options, models } = notebookSetup({
    DATASET: "demo",
    ATTACK: "sleeper",
    AGENT: ["reference:careful"],
    SEED: 3,
    N: 2,
    K: 3,
    FILL: "similarity",
    POLICY: "PQ",
    THETA_R: 0.5,
    BANK_SIZE: 50,
  });
  models.close();
  const result = await stageExperiment({ ...options, stage: "writing", grid: [0, 0.5, 1] });
  const distinct = (
    key: keyof typeof result.rows[0],
  ) => [...new Set(result.rows.map((r) => r[key]))];
  assert.deepEqual(distinct("thetaW"), [0, 0.5, 1]);
  assert.deepEqual(distinct("k"), [3]);
  assert.deepEqual(distinct("fill"), ["similarity"]);
  assert.deepEqual(distinct("policy"), ["PQ"]);
  assert.deepEqual(distinct("thetaR"), [0.5]);
  assert.deepEqual(distinct("bankSize"), [50]);
  assert.deepEqual(distinct("attack"), ["sleeper"]);
  assert.deepEqual(distinct("seed"), [3]);
  assert.deepEqual(result.summary.getColumn("backend").toArray(), [
    "simulator",
    "simulator",
    "simulator",
  ]);
  const fig = await figure3Column({ stage: "writing", result });
  const caption = fig.figure.caption;
  assert.match(caption, /PQ, θr = 0.5, K = 3, \|B\| = 50, similarity fill/);
  assert.match(caption, /not that LLMs behave so/);
});

Deno.test("the paper's values are drawn coloured by metric and named in the legend", async () => {
  const result = await stageExperiment({ ...quick, stage: "retrieval", grid: [0.2, 1] });
  const fig = await figure3Column({ stage: "retrieval", result });
  assert.match(fig.figure.svg, />paper: clean utility</);
  assert.match(fig.figure.svg, />paper: ASR</);
  // Paper diamonds take the metric's colour (ASR red), not black.
  assert.match(fig.figure.svg, /fill="#e8463a"[^>]*d="M0,-/);
  const table = fig.besidePaper!.frame;
  const row = table.toRecords().find((r) =>
    r["retrieval exposure θr"] === "1" && r.attack === "MINJA"
  )!;
  assert.equal(row["ASR: paper"], "0.340–0.640");
  assert.equal(typeof row["ASR: kit"], "number");
  assert.ok("ASR: P25" in row && "ASR: P75" in row);
});

Deno.test("Figure 5 draws the paper's four rankers in the paper's order", async () => {
  const fig = await figure5Rankers({ ...quick, grid: [0.5] });
  const headers = [
    "self · usefulness",
    "external · distinctiveness",
    "random order",
    "chronological order",
  ];
  const at = headers.map((h) => fig.figure.svg.indexOf(h));
  assert.ok(at.every((i) => i > 0), String(at));
  assert.deepEqual([...at].sort((a, b) => a - b), at);
  assert.deepEqual(
    [...new Set(fig.rows.map((r) => r.ranker))],
    ["usefulness", "distinctiveness", "random", "chronological"],
  );
});

Deno.test("Figure 6 draws the paper's four lines; Figure 7 puts |B| on the x-axis with the paper's 500", async () => {
  const six = await figure6BudgetFill({ ...quick, grid: [1] });
  assert.deepEqual(
    [...new Set(six.rows.map((r) => `${r.k} ${r.fill}`))],
    ["3 random", "5 random", "7 random", "5 similarity"],
  );
  for (const line of ["K = 3 · random fill", "K = 7 · random fill", "K = 5 · similarity fill"]) {
    assert.ok(six.figure.svg.includes(`>${line}<`), line);
  }
  // One panel per metric.
  assert.match(six.figure.svg, />clean utility<[\s\S]*>poisoned utility<[\s\S]*>ASR</);
  const seven = await figure7MemorySize({ ...quick, sizes: [25, 50] });
  assert.deepEqual([...new Set(seven.rows.map((r) => r.bankSize))], [25, 50]);
  const ticks = [...seven.figure.svg.matchAll(/aria-label="x-axis tick label"[\s\S]*?<\/g><\/g>/g)]
    .map((m) => [...m[0].matchAll(/>([^<>]+)<\/text>/g)].map((t) => t[1]));
  assert.deepEqual(ticks[0].slice(0, 3), ["25", "50", "500"]); // each panel repeats them
  assert.match(seven.besidePaper!.caption, /memory size \|B\|.* = 500: ASR 0.520/);
  // Policies are the lines, in the paper's order.
  const svg = seven.figure.svg;
  assert.ok(svg.indexOf(">UM<") < svg.indexOf(">PQ<") && svg.indexOf(">NC<") < svg.indexOf(">SC<"));
});

Deno.test("anatomy() shows the contexts the pair's rows record, risk slot marked", async () => {
  const [instance] = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });
  const walk = await anatomy({
    instance,
    attack: "minja",
    agent: referenceAgent({ persona: "balanced" }),
  });
  const [clean, poisoned] = walk.rows;
  assert.equal(clean.contextIds.length, 5);
  assert.equal(poisoned.riskInContext, true);
  const marked = walk.contexts.frame.getColumn("").toArray().filter((m) => m !== "");
  assert.equal(marked.length, 1);
  // The quarantine table has every policy in both conditions.
  assert.equal(walk.quarantine.frame.height, 8);
  // The reference agent's reading lists its values.
  assert.ok(walk.reading.frame.getColumn("step").toArray().includes("value"));
});
