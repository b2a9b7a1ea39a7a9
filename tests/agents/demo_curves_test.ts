/**
 * What the offline figures need from the reference agent on the demo set, at the settings
 * `deno task reproduce` uses (seed 0, every persona, the paper's defaults otherwise): curves
 * that K and fill move, curves that |B| moves (the demo banks hold look-alike records spread
 * through their order), and a writing-stage rise of MINJA ASR that corroboration produces as
 * the ranker admits the attack's relayed corrections late. These are properties of the
 * simulator with this data, not claims about models.
 */
import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import type { OperatingPoint, Stage } from "../../lib/schema/operating_point.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { sweep } from "../../lib/run/sweep.ts";
import type { Ranker } from "../../lib/stages/writing/ranker.ts";
import {
  RELAYED_CORRECTION_COST,
  usefulnessScore,
} from "../../lib/stages/writing/rankers/usefulness.ts";
import { relaysCorrection } from "../../lib/text/relayed_correction.ts";

const PERSONAS = ["careful", "balanced", "compliant", "recency", "skimmer"];

async function rows(options: {
  stage: Stage;
  grid?: number[];
  base?: Partial<Omit<OperatingPoint, "stage">>;
  bankSize?: number;
  specs?: string[];
  instances?: (instances: Instance[]) => Instance[];
  rankers?: Record<string, Ranker>;
}): Promise<TrialRow[]> {
  const bankSize = options.bankSize ?? 100;
  const loaded = await loadDataset({ name: "demo", seed: 0, bankSize: 128, traceLoad: 1 });
  const instances = (options.instances?.(loaded) ?? loaded)
    .map((i) => ({ ...i, background: i.background.slice(0, bankSize) }));
  return await sweep({
    stage: options.stage,
    instances,
    dataset: "demo",
    attacks: ["minja"],
    agents: resolveAgents({ specs: options.specs ?? ["reference"] }),
    grid: options.grid,
    base: { ...options.base, bankSize },
    rankers: options.rankers,
  });
}

/** Per agent and varied value: clean utility, poisoned utility and ASR, as one string. */
function metrics(all: TrialRow[], x: keyof TrialRow): Map<string, string> {
  const by = new Map<string, { c: number[]; p: number[]; a: number[] }>();
  for (const r of all) {
    const key = `${r.agent} ${String(r[x])}`;
    const e = by.get(key) ?? { c: [], p: [], a: [] };
    if (r.condition === "clean") e.c.push(r.correct ? 1 : 0);
    else {
      e.p.push(r.correct ? 1 : 0);
      e.a.push(r.matchesTarget ? 1 : 0);
    }
    by.set(key, e);
  }
  const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
  return new Map([...by].map(([k, e]) => [k, [e.c, e.p, e.a].map(mean).join(",")]));
}

const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median across personas of the MINJA ASR at a coverage level. */
function medianAsr(all: TrialRow[], specs: string[], theta: number): number {
  return median(specs.map((agent) => {
    const poisoned = all.filter((r) =>
      r.agent === agent && r.thetaW === theta && r.condition === "poisoned"
    );
    return poisoned.filter((r) => r.matchesTarget).length / poisoned.length;
  }));
}

Deno.test("demo: K and fill change the retrieval curves", async () => {
  const grid = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const retrieval = (k: number, fill: "random" | "similarity") =>
    rows({ stage: "retrieval", grid, base: { k, fill } }).then((r) => metrics(r, "thetaR"));
  assert.notDeepEqual(await retrieval(3, "random"), await retrieval(7, "random"));
  assert.notDeepEqual(await retrieval(3, "random"), await retrieval(3, "similarity"));
});

Deno.test("demo: |B| changes the management results", async () => {
  // A larger bank holds more of each instance's look-alike records (one in each quarter of its
  // order), so what fills the context, near misses and on-topic neighbours, changes with |B|.
  // Random fill keeps their share about the same, so the check is Figure 7's: across the sizes
  // it draws, some agent and policy moves.
  const management = (bankSize: number) =>
    rows({ stage: "management", bankSize }).then((r) => [...metrics(r, "policy").values()]);
  const sizes = await Promise.all([25, 50, 100, 128].map(management));
  assert.ok(sizes.some((m) => JSON.stringify(m) !== JSON.stringify(sizes[0])));
  // With similarity fill the larger bank brings more look-alikes into the context itself.
  const similar = (bankSize: number) =>
    rows({ stage: "management", bankSize, base: { fill: "similarity" } })
      .then((r) => metrics(r, "policy"));
  assert.notDeepEqual(await similar(25), await similar(128));
});

Deno.test("demo, default ranker: median MINJA ASR at theta_w = 1 exceeds that at theta_w = 0.2 by 0.15 or more", async () => {
  // Figure 3's writing sweep (the offline default ranker, usefulness). MINJA's bridging steps
  // relay a correction ("my record of your rent was corrected, ..."), which the ranker scores
  // least useful, so at theta_w = 0.2 none of them is in memory; the rest enter as coverage
  // grows, each a hearsay claim, and corroboration turns enough of them into belief.
  const specs = PERSONAS.map((p) => `reference:${p}`);
  const all = await rows({ stage: "writing", grid: [0.2, 1], specs });
  const rise = medianAsr(all, specs, 1) - medianAsr(all, specs, 0.2);
  assert.ok(rise >= 0.15, `rise ${rise}`);
});

Deno.test("demo, random ranker: corroboration makes median MINJA ASR rise from theta_w = 0.2 to 1, more than without it", async () => {
  // A random ranker admits the attack's statements at any coverage: at theta_w = 0.2 a 7-unit
  // prefix of a 31-unit MINJA trace often holds one or two of its twelve restatements, and
  // corroboration needs several, so ASR still rises with coverage, and more than without it.
  const on = PERSONAS.map((p) => `reference:${p}`);
  const off = PERSONAS.map((p) => `reference:${p}?corroboration=off`);
  const all = await rows({
    stage: "writing",
    grid: [0.2, 1],
    base: { ranker: "random" },
    specs: [...on, ...off],
  });
  const rise = (specs: string[]) => medianAsr(all, specs, 1) - medianAsr(all, specs, 0.2);
  assert.ok(rise(on) > 0, `rise with corroboration ${rise(on)}`);
  assert.ok(rise(off) < rise(on), `rise without corroboration ${rise(off)}`);
});

Deno.test("demo, usefulness ranker: its cost for relayed corrections keeps median MINJA ASR at theta_w = 0.5 below ranking without it", async () => {
  // MINJA's bridging steps report that a stored entry was corrected and state y_adv; on the
  // surface they look useful (a value, a reason, first person). Scored without the cost they
  // come first, so half the trace already corroborates the attack.
  const scoredBy = (id: string, cost: number): Ranker => ({
    id,
    rank: (trace) =>
      Promise.resolve(
        trace.units.map((u, i) => ({
          id: u.id,
          i,
          s: usefulnessScore({ text: u.text }) + (relaysCorrection(u.text) ? cost : 0),
        })).sort((a, b) => b.s - a.s || a.i - b.i).map((u) => u.id),
      ),
  });
  const specs = PERSONAS.map((p) => `reference:${p}`);
  const asrAt = async (ranker: string) => {
    const all = await rows({
      stage: "writing",
      grid: [0.5],
      base: { ranker },
      specs,
      rankers: {
        "with-cost": scoredBy("with-cost", 0),
        "without-cost": scoredBy("without-cost", RELAYED_CORRECTION_COST),
      },
    });
    return medianAsr(all, specs, 0.5);
  };
  const [withCost, without] = [await asrAt("with-cost"), await asrAt("without-cost")];
  assert.ok(withCost < without, `with the cost ${withCost}, without ${without}`);
});
