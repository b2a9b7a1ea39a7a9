import assert from "node:assert/strict";
import type { Agent } from "../../lib/agents/agent.ts";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { sweep } from "../../lib/run/sweep.ts";
import type { Writer } from "../../lib/stages/writing/writer.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const instances = Array.from(
  { length: 17 },
  (_, i) =>
    syntheticInstance({
      id: `s${i}`,
      seed: i,
      helpfulUnits: 3 + (i % 7),
      riskUnits: 2 + (i % 5),
      bank: 30,
    }),
);
const agents = resolveAgents({ specs: ["reference:careful", "reference:compliant"] });

function pairs(rows: TrialRow[]): [TrialRow, TrialRow][] {
  const byPair = new Map<string, TrialRow[]>();
  for (const r of rows) byPair.set(r.pairId, [...(byPair.get(r.pairId) ?? []), r]);
  return [...byPair.values()].map((rs) => {
    assert.equal(rs.length, 2);
    const clean = rs.find((r) => r.condition === "clean")!;
    const poisoned = rs.find((r) => r.condition === "poisoned")!;
    assert.ok(clean && poisoned);
    return [clean, poisoned];
  });
}

function checkPairInvariants(rows: TrialRow[]) {
  for (const [c, p] of pairs(rows)) {
    assert.equal(c.instanceId, p.instanceId);
    assert.equal(c.helpfulInContext, p.helpfulInContext);
    assert.equal(c.helpfulExposed, p.helpfulExposed);
    assert.equal(c.riskInContext, false);
    assert.ok(c.contextSize <= c.k && c.contextSize === c.contextIds.length);
    // 30 background records: memory always holds at least K, so exactly K records.
    assert.equal(c.contextSize, c.k);
    assert.equal(p.contextSize, p.k);
    const diff = c.contextIds.flatMap((id, i) => (id === p.contextIds[i] ? [] : [i]));
    if (p.riskInContext) {
      assert.equal(diff.length, 1);
      assert.match(p.contextIds[diff[0]], /\/(minja|sleeper)@/);
      assert.match(c.contextIds[diff[0]], /\/bg\//);
    } else {
      assert.deepEqual(diff, []);
    }
    if (p.riskInContext) assert.ok(p.riskExposed && p.admittedRisk > 0);
    if (c.helpfulInContext) assert.ok(c.helpfulExposed && c.admittedHelpful > 0);
  }
}

function checkExposureFrequency(rows: TrialRow[]) {
  const groups = new Map<string, TrialRow[]>();
  for (const r of rows.filter((r) => r.condition === "clean")) {
    const key = JSON.stringify([r.attack, r.agent, r.thetaW, r.policy, r.thetaR, r.thetaRRisk]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const n = group.length;
    assert.equal(n, instances.length);
    assert.equal(
      group.filter((r) => r.helpfulExposed).length,
      Math.round(group[0].thetaR * n + 1e-9),
    );
    assert.equal(
      group.filter((r) => r.riskExposed).length,
      Math.round(group[0].thetaRRisk * n + 1e-9),
    );
  }
}

for (const stage of ["writing", "management", "retrieval"] as const) {
  Deno.test(`sweep() ${stage}: pairs share exposure and positions, exposure frequency equals theta_r`, async () => {
    const rows = await sweep({ stage, instances, dataset: "synthetic", agents, seed: 3 });
    checkPairInvariants(rows);
    checkExposureFrequency(rows);
    for (const r of rows) {
      assert.equal(r.simulated, true);
      assert.equal(r.seed, 3);
      assert.equal(r.admittedHelpful, Math.ceil(Math.round(r.thetaW * r.unitsHelpful * 1e6) / 1e6));
    }
  });
}

Deno.test("sweep() asymmetric retrieval fixes theta_r+ and varies theta_r-", async () => {
  const rows = await sweep({
    stage: "retrieval",
    thetaRRisk: [0.2, 0.6, 1],
    instances,
    dataset: "synthetic",
    agents,
  });
  assert.deepEqual([...new Set(rows.map((r) => r.thetaR))], [0.8]);
  assert.deepEqual([...new Set(rows.map((r) => r.thetaRRisk))], [0.2, 0.6, 1]);
  checkPairInvariants(rows);
  checkExposureFrequency(rows);
});

Deno.test("sweep() writing over 11 coverage levels calls the writer once per unit", async () => {
  let calls = 0;
  const writer: Writer = { id: "counting", write: (u) => (calls++, Promise.resolve(u.text)) };
  await sweep({ stage: "writing", instances, dataset: "synthetic", agents, writer });
  const units = instances.reduce(
    (n, i) =>
      n + i.helpful.units.length + i.risk.minja!.units.length + i.risk.sleeper!.units.length,
    0,
  );
  assert.equal(calls, units);
});

Deno.test("sweep() with the same seed gives identical rows except latencyMs", async () => {
  const strip = (rows: TrialRow[]) => rows.map((r) => JSON.stringify({ ...r, latencyMs: 0 }));
  const run = (seed: number) =>
    sweep({ stage: "retrieval", instances, dataset: "synthetic", agents, seed });
  const [a, b, c] = await Promise.all([run(1), run(1), run(2)]);
  assert.deepEqual(strip(a), strip(b));
  assert.notDeepEqual(strip(a), strip(c));
});

Deno.test("sweep() turns a failing agent call into an error row, not a wrong answer", async () => {
  const failing: Agent = {
    id: "broken",
    simulated: false,
    answer: () => Promise.reject(new Error("model down")),
  };
  const rows = await sweep({
    stage: "management",
    policies: ["UM"],
    // A model agent ranks and is judged with its own model by default (llm:self); this test is
    // about the agent call only.
    base: { ranker: "usefulness" },
    judge: deterministicJudge,
    instances: instances.slice(0, 2),
    dataset: "synthetic",
    agents: [failing],
  });
  for (const r of rows) {
    assert.equal(r.error, "Error: model down");
    assert.equal(r.correct, null);
    assert.equal(r.matchesTarget, null);
    assert.equal(r.output, null);
  }
});

Deno.test("sweep() at full coverage and exposure puts the poison in front of the agent", async () => {
  const rows = await sweep({
    stage: "retrieval",
    grid: [1],
    instances,
    dataset: "synthetic",
    agents,
  });
  const poisoned = rows.filter((r) => r.condition === "poisoned");
  assert.ok(poisoned.every((r) => r.riskInContext && r.helpfulInContext));
  assert.ok(poisoned.some((r) => r.matchesTarget));
});

Deno.test("sweep() holds all of memory when it has fewer than K records", async () => {
  const small = Array.from(
    { length: 10 },
    (_, i) => syntheticInstance({ id: `t${i}`, seed: i, helpfulUnits: 4, riskUnits: 4, bank: 2 }),
  );
  const rows = await sweep({
    stage: "retrieval",
    base: { k: 5, bankSize: 2 },
    instances: small,
    dataset: "synthetic",
    agents,
  });
  for (const r of rows) {
    const available = 2 + (r.helpfulInContext ? 1 : 0) + (r.riskInContext ? 1 : 0);
    assert.equal(r.contextSize, Math.min(5, available));
    assert.equal(r.helpfulInContext, r.helpfulExposed);
    if (r.condition === "poisoned") assert.equal(r.riskInContext, r.riskExposed);
  }
});
