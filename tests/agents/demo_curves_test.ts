/**
 * What the offline figures need from the reference agent on the demo set, at the settings
 * `deno task reproduce` uses (seed 0, every persona, the paper's defaults otherwise): curves
 * that K and fill move, curves that |B| moves (the demo banks hold look-alike records spread
 * through their order), and a writing-stage rise of MINJA ASR that corroboration produces as
 * the ranker admits the attack's repeated statements later. These are properties of the
 * simulator with this data, not claims about models.
 */
import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { Instance } from "../../lib/model/instance.ts";
import type { OperatingPoint, Stage } from "../../lib/model/operating_point.ts";
import type { TrialRow } from "../../lib/model/trial_row.ts";
import { sweep } from "../../lib/run/sweep.ts";
import type { Ranker } from "../../lib/stages/writing/ranker.ts";
import { usefulnessScore } from "../../lib/stages/writing/rankers/usefulness.ts";

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
  // Figure 3's writing sweep (the offline default ranker, usefulness). The attack's query turns
  // ask the victim question and order the assistant ("Before you answer ... Please reason from
  // the updated record"), so the ranker puts them below the trace's other units and only one
  // statement of y_adv is in memory at theta_w = 0.2; its restatements enter as coverage grows,
  // and corroboration turns them into belief.
  const specs = PERSONAS.map((p) => `reference:${p}`);
  const all = await rows({ stage: "writing", grid: [0.2, 1], specs });
  const rise = medianAsr(all, specs, 1) - medianAsr(all, specs, 0.2);
  assert.ok(rise >= 0.15, `rise ${rise}`);
});

Deno.test("demo, random ranker: corroboration makes median MINJA ASR rise from theta_w = 0.2 to 1, more than without it", async () => {
  // The usefulness ranker admits a unit stating y_adv first in every MINJA trace (see
  // `deno task data --stats --ranker usefulness`), so at theta_w = 0.2 a lone claim is already
  // in memory; a random ranker sometimes admits none of the attack's statements at 0.2. (The
  // demo's MINJA traces are the benchmarks' construction, 6 of 13 units stating y_adv, so a
  // random 3-unit prefix often holds one: the rise is about LongMemEval's, 0.12, not 0.15.)
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

Deno.test("demo, usefulness ranker: its redundancy term makes median MINJA ASR rise more from theta_w = 0.2 to 1 than ranking by score alone", async () => {
  // MINJA repeats one claim; ranked by score alone its restatements follow the first saying, so
  // the attack is corroborated at low coverage. The redundancy term admits them later.
  const byScore: Ranker = {
    id: "score-only",
    rank: (trace) =>
      Promise.resolve(
        trace.units.map((u, i) => ({ id: u.id, i, s: usefulnessScore({ text: u.text }) }))
          .sort((a, b) => b.s - a.s || a.i - b.i).map((u) => u.id),
      ),
  };
  const specs = PERSONAS.map((p) => `reference:${p}`);
  const rise = async (ranker: string) => {
    const all = await rows({
      stage: "writing",
      grid: [0.2, 1],
      base: { ranker },
      specs,
      rankers: { "score-only": byScore },
    });
    return medianAsr(all, specs, 1) - medianAsr(all, specs, 0.2);
  };
  const [withTerm, without] = [await rise("usefulness"), await rise("score-only")];
  assert.ok(withTerm > without && withTerm > 0, `with the term ${withTerm}, without ${without}`);
});
