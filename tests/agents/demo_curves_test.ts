/**
 * What the offline figures need from the reference agent on the demo set, at the settings
 * `deno task reproduce` uses (seed 0, every persona, the paper's defaults otherwise): curves
 * that K and fill move, curves that |B| moves once a bank holds near-miss records, and a
 * writing-stage rise of MINJA ASR that corroboration produces when the ranker does not admit the
 * attack's statements first. These are properties of the simulator with this data, not claims
 * about models.
 */
import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { Instance } from "../../lib/model/instance.ts";
import type { OperatingPoint, Stage } from "../../lib/model/operating_point.ts";
import type { TrialRow } from "../../lib/model/trial_row.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { withLookAlikes } from "./_look_alikes.ts";

const PERSONAS = ["careful", "balanced", "compliant", "recency", "skimmer"];

async function rows(options: {
  stage: Stage;
  grid?: number[];
  base?: Partial<Omit<OperatingPoint, "stage">>;
  bankSize?: number;
  specs?: string[];
  instances?: (instances: Instance[]) => Instance[];
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

Deno.test("demo with near-miss records in the bank: |B| changes the management results", async () => {
  // The shipped demo banks are unrelated to every question by construction, so only attention
  // to their length can react to them; ten look-alike records make |B| a dilution of near misses.
  const management = (bankSize: number) =>
    rows({ stage: "management", bankSize, instances: (is) => is.map(withLookAlikes) })
      .then((r) => metrics(r, "policy"));
  const [small, large] = [await management(25), await management(128)];
  assert.notDeepEqual(small, large);
});

Deno.test("demo, random ranker: corroboration makes median MINJA ASR rise by 0.15 or more from theta_w = 0.2 to 1", async () => {
  // The usefulness ranker admits a unit stating y_adv first in every MINJA trace (see
  // `deno task data --stats --ranker usefulness`), so at theta_w = 0.2 the attack is already
  // corroborated; a random ranker admits the attack's statements gradually.
  const on = PERSONAS.map((p) => `reference:${p}`);
  const off = PERSONAS.map((p) => `reference:${p}?corroboration=off`);
  const all = await rows({
    stage: "writing",
    grid: [0.2, 1],
    base: { ranker: "random" },
    specs: [...on, ...off],
  });
  const rise = (specs: string[]) => medianAsr(all, specs, 1) - medianAsr(all, specs, 0.2);
  assert.ok(rise(on) >= 0.15, `rise with corroboration ${rise(on)}`);
  assert.ok(rise(off) < rise(on), `rise without corroboration ${rise(off)}`);
});
