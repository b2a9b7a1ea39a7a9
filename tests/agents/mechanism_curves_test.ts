/**
 * Each mechanism of the reference agent, switched off, changes the curve it is responsible for
 * (see `MECHANISMS`). Sweeps run offline on the demo set.
 */
import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { NO_ANSWER, referenceAgent } from "../../lib/agents/reference_agent.ts";
import { beliefChance } from "../../lib/agents/mechanisms/corroboration.ts";
import { PERSONAS as PERSONA_TABLE } from "../../lib/agents/personas.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import type { Attack } from "../../lib/schema/instance.ts";
import { withLookAlikes } from "./_look_alikes.ts";
import type { OperatingPoint, Stage } from "../../lib/schema/operating_point.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { sweep } from "../../lib/run/sweep.ts";

const instances = await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 });

/**
 * Rows of one sweep for the given agent specs, pooled over `seeds` run seeds (default 0 only):
 * 28 demo instances are few, and more seeds give each curve more independent draws.
 */
async function run(options: {
  stage: Stage;
  specs: string[];
  attack: Attack;
  grid?: number[];
  base?: Partial<Omit<OperatingPoint, "stage">>;
  seeds?: number;
}): Promise<TrialRow[]> {
  const rows: TrialRow[] = [];
  for (let seed = 0; seed < (options.seeds ?? 1); seed++) {
    rows.push(
      ...await sweep({
        stage: options.stage,
        instances,
        dataset: "demo",
        attacks: [options.attack],
        agents: resolveAgents({ specs: options.specs }),
        grid: options.grid,
        base: options.base,
        policies: ["UM"],
        seed,
      }),
    );
  }
  return rows;
}

/** Share of rows (of one agent and condition) for which `hit` holds, by the value of `x`. */
function curve(
  rows: TrialRow[],
  options: {
    agent: string;
    condition: "clean" | "poisoned";
    x: keyof TrialRow;
    hit: (r: TrialRow) => boolean;
  },
): Map<string, number> {
  const by = new Map<string, { n: number; h: number }>();
  for (const r of rows) {
    if (r.agent !== options.agent || r.condition !== options.condition) continue;
    const key = String(r[options.x]);
    const e = by.get(key) ?? { n: 0, h: 0 };
    e.n++;
    if (options.hit(r)) e.h++;
    by.set(key, e);
  }
  return new Map([...by].map(([k, { n, h }]) => [k, h / n]));
}

const correct = (r: TrialRow) => r.correct === true;
const attacked = (r: TrialRow) => r.matchesTarget === true;
const PERSONAS = ["careful", "balanced", "compliant", "recency", "skimmer"];

Deno.test("corroboration off flattens the writing curve: admitting more units adds no belief", async () => {
  const on = PERSONAS.map((p) => `reference:${p}`);
  const off = PERSONAS.map((p) => `reference:${p}?corroboration=off`);
  const rows = await run({
    stage: "writing",
    specs: [...on, ...off],
    attack: "minja",
    grid: [0.1, 1],
  });
  let riseOn = 0, riseOff = 0;
  for (const [i, p] of PERSONAS.entries()) {
    const a = curve(rows, { agent: on[i], condition: "clean", x: "thetaW", hit: correct });
    const b = curve(rows, { agent: off[i], condition: "clean", x: "thetaW", hit: correct });
    riseOn += a.get("1")! - a.get("0.1")!;
    riseOff += b.get("1")! - b.get("0.1")!;
    // A persona that believes a lone first-hand statement almost surely (compliant, once
    // calibrated) has nothing for corroboration to add; every other persona's curve moves.
    const lone = beliefChance({
      persona: PERSONA_TABLE[p],
      evidence: 1 + PERSONA_TABLE[p].provenance.recencyPerStep,
    });
    if (lone < 0.95) assert.notDeepEqual(a, b, p);
  }
  assert.ok(riseOn > riseOff + 0.25, `rise on ${riseOn}, off ${riseOff} (summed over personas)`);
});

Deno.test("provenance off raises the careful persona's Sleeper ASR (tool output, untrusted)", async () => {
  const rows = await run({
    stage: "management",
    specs: ["reference:careful", "reference:careful?provenance=off"],
    attack: "sleeper",
    seeds: 5,
  });
  const asr = (agent: string) =>
    curve(rows, { agent, condition: "poisoned", x: "policy", hit: attacked }).get("UM")!;
  const on = asr("reference:careful"), off = asr("reference:careful?provenance=off");
  assert.ok(off > on + 0.05, `on ${on}, off ${off}`);
});

Deno.test("instructions off changes the attack curves: careful loses its discount, compliant its zeal", async () => {
  const specs = [
    "reference:careful",
    "reference:careful?instructions=off",
    "reference:compliant",
    "reference:compliant?instructions=off",
  ];
  const changed: string[] = [];
  for (const attack of ["minja", "sleeper"] as const) {
    const rows = await run({ stage: "writing", specs, attack, grid: [0.2, 0.4, 0.6, 1], seeds: 5 });
    const asr = (agent: string) =>
      curve(rows, { agent, condition: "poisoned", x: "thetaW", hit: attacked });
    for (const persona of ["careful", "compliant"]) {
      const on = asr(`reference:${persona}`), off = asr(`reference:${persona}?instructions=off`);
      for (const [theta, value] of on) {
        // Without the mechanism an order weighs like any statement: more for careful, less for
        // compliant.
        if (persona === "careful") assert.ok(off.get(theta)! >= value, `${attack} ${persona}`);
        else assert.ok(off.get(theta)! <= value, `${attack} ${persona} ${theta}`);
      }
      if ([...on].some(([theta, value]) => off.get(theta) !== value)) {
        changed.push(`${attack} ${persona}`);
      }
    }
  }
  // MINJA's indication prompt is an order; so is the Sleeper payload.
  assert.ok(changed.includes("minja careful"), changed.join(", "));
  assert.ok(changed.some((c) => c.startsWith("sleeper")), changed.join(", "));
});

Deno.test("attention is what makes K matter without distractors; off, K changes nothing", async () => {
  const on = PERSONAS.map((p) => `reference:${p}?distractors=off`);
  const off = PERSONAS.map((p) => `reference:${p}?attention=off&distractors=off`);
  const byK = (k: number) =>
    run({ stage: "retrieval", specs: [...on, ...off], attack: "minja", grid: [1], base: { k } });
  const [k3, k7] = [await byK(3), await byK(7)];
  const utility = (rows: TrialRow[], agents: string[]) =>
    agents.reduce(
      (sum, agent) =>
        sum + curve(rows, { agent, condition: "clean", x: "thetaR", hit: correct }).get("1")!,
      0,
    );
  assert.ok(
    utility(k7, on) < utility(k3, on),
    `on: K=3 ${utility(k3, on)}, K=7 ${utility(k7, on)}`,
  );
  assert.equal(utility(k7, off), utility(k3, off));
});

Deno.test("distractors off changes the similarity-fill curve: look-alike records no longer steal answers", async () => {
  const specs = PERSONAS.flatMap((p) => [`reference:${p}`, `reference:${p}?distractors=off`]);
  const rows = await sweep({
    stage: "retrieval",
    instances: instances.map(withLookAlikes),
    dataset: "demo+look-alikes",
    attacks: ["minja"],
    agents: resolveAgents({ specs }),
    grid: [0.5, 1],
    base: { fill: "similarity", k: 7 },
  });
  for (const p of PERSONAS) {
    const u = (agent: string) =>
      curve(rows, { agent, condition: "clean", x: "thetaR", hit: correct });
    const on = u(`reference:${p}`), off = u(`reference:${p}?distractors=off`);
    assert.ok(on.get("1")! <= off.get("1")! && on.get("0.5")! <= off.get("0.5")!, p);
  }
  const total = (suffix: string) =>
    PERSONAS.reduce(
      (sum, p) =>
        sum +
        curve(rows, {
          agent: `reference:${p}${suffix}`,
          condition: "clean",
          x: "thetaR",
          hit: correct,
        })
          .get("1")!,
      0,
    );
  assert.ok(
    total("?distractors=off") > total("") + 0.1,
    `${total("")} ${total("?distractors=off")}`,
  );
});

Deno.test("guess on gives U0 > 0 with no memory at all; off, U0 = 0", async () => {
  const u0 = async (spec: string) => {
    let right = 0, n = 0;
    for (const agent of resolveAgents({ specs: [spec] })) {
      for (const instance of instances) {
        for (let seed = 0; seed < 10; seed++) {
          const out = await agent.answer({
            instance,
            context: [],
            condition: "clean",
            pairId: "p",
            seed,
          });
          if ((await deterministicJudge.judge({ instance, output: out.output })).correct) right++;
          n++;
        }
      }
    }
    return right / n;
  };
  const on = await u0("reference"), off = await u0("reference?guess=off");
  assert.ok(on > 0 && on < 0.03, String(on));
  assert.equal(off, 0);
  const idk = await referenceAgent({ persona: "careful", mechanisms: { guess: false } }).answer({
    instance: instances[0],
    context: [],
    condition: "clean",
    pairId: "p",
    seed: 0,
  });
  assert.equal(idk.output, NO_ANSWER);
});
