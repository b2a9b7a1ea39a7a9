import assert from "node:assert/strict";
import { pairedBootstrap, type PairOutcome } from "../../lib/stats/paired_bootstrap.ts";
import type { IntervalMethod } from "../../lib/stats/bootstrap_ratios.ts";

/**
 * scipy.stats.bootstrap(paired=True, vectorized=True, n_resamples=200_000, random_state=0,
 * confidence_level=0.95), scipy 1.10.1 / numpy 1.24.2 from Debian python3-scipy, produced by
 * `/usr/bin/python3 tests/stats/fixtures/scipy_bootstrap.py` (fixtures defined there and below).
 */
const SCIPY: Record<string, [number, number]> = {
  "A.cleanUtility.percentile": [0.46, 0.74],
  "A.cleanUtility.BCa": [0.46, 0.74],
  "A.asr.percentile": [0.22, 0.48],
  "A.asr.BCa": [0.22, 0.48],
  "A.midAsr.percentile": [0.08, 0.4],
  "A.midAsr.BCa": [0.08, 0.4],
  "A.midUtility.percentile": [0.12, 0.44],
  "A.midUtility.BCa": [0.12, 0.44],
  "C.asr.percentile": [0.04, 0.15],
  "C.midAsr.percentile": [0.01, 0.14],
  "C.asr.BCa": [0.04, 0.16],
  "C.midAsr.BCa": [0.01, 0.14],
  "B.midAsr.percentile": [0.17647058823529413, 0.54],
  "B.midAsr.BCa": [0.19148936170212766, 0.5576923076923077],
};

function close(actual: number, expected: number, tol: number, what = "") {
  assert.ok(
    Math.abs(actual - expected) <= tol,
    `${what} ${actual} not within ${tol} of ${expected}`,
  );
}

function fixtureA(): PairOutcome[] {
  return Array.from({ length: 50 }, (_, i) => ({
    instanceId: `a${i}`,
    cleanCorrect: i % 5 < 3,
    poisonedCorrect: i % 5 === 0 || i % 7 === 0,
    cleanTarget: i % 11 === 0,
    poisonedTarget: i % 3 === 0,
  }));
}

function fixtureC(): PairOutcome[] {
  return Array.from({ length: 100 }, (_, i) => ({
    instanceId: `c${i}`,
    cleanCorrect: false,
    poisonedCorrect: false,
    cleanTarget: i % 50 === 7,
    poisonedTarget: i % 12 === 0,
  }));
}

function fixtureB(): PairOutcome[] {
  const pairs: PairOutcome[] = [];
  for (let j = 0; j < 20; j++) {
    for (let r = 0; r < 1 + (j % 4); r++) {
      pairs.push({
        instanceId: `b${j}`,
        cleanCorrect: false,
        poisonedCorrect: false,
        cleanTarget: (j + r) % 9 === 0,
        poisonedTarget: (j * r + j) % 3 === 0,
      });
    }
  }
  return pairs;
}

// Monte Carlo error of a 2.5% quantile with 50,000 resamples is about 0.001 here; on a grid of
// step 1/n a bound may still land on the neighbouring grid value, so allow one step.
const RESAMPLES = 50_000;

for (const ci of ["percentile", "bca"] as IntervalMethod[]) {
  const tag = ci === "bca" ? "BCa" : "percentile";
  Deno.test(`pairedBootstrap() matches scipy ${tag} intervals, one pair per instance`, () => {
    const a = pairedBootstrap(fixtureA(), { resamples: RESAMPLES, ci, seed: 11 });
    for (const m of ["cleanUtility", "asr", "midAsr", "midUtility"] as const) {
      const [lo, hi] = SCIPY[`A.${m}.${tag}`];
      close(a[m].lo, lo, 0.02 + 1e-9, `A.${m} lo`);
      close(a[m].hi, hi, 0.02 + 1e-9, `A.${m} hi`);
    }
    const c = pairedBootstrap(fixtureC(), { resamples: RESAMPLES, ci, seed: 12 });
    for (const m of ["asr", "midAsr"] as const) {
      const [lo, hi] = SCIPY[`C.${m}.${tag}`];
      close(c[m].lo, lo, 0.01 + 1e-9, `C.${m} lo`);
      close(c[m].hi, hi, 0.01 + 1e-9, `C.${m} hi`);
    }
  });

  Deno.test(`pairedBootstrap() matches scipy ${tag} cluster intervals, several trials`, () => {
    const b = pairedBootstrap(fixtureB(), { resamples: RESAMPLES, ci, seed: 13 });
    const [lo, hi] = SCIPY[`B.midAsr.${tag}`];
    close(b.midAsr.lo, lo, 0.02);
    close(b.midAsr.hi, hi, 0.02);
    assert.deepEqual(b.instances, 20);
  });
}

Deno.test("pairedBootstrap() point estimates equal direct counts", () => {
  const pairs = fixtureA();
  const r = pairedBootstrap(pairs, { resamples: 10 });
  const mean = (f: (p: PairOutcome) => number) =>
    pairs.reduce((s, p) => s + f(p), 0) / pairs.length;
  assert.deepEqual(r.cleanUtility.estimate, mean((p) => +p.cleanCorrect));
  assert.deepEqual(r.poisonedUtility.estimate, mean((p) => +p.poisonedCorrect));
  assert.deepEqual(r.asr.estimate, mean((p) => +p.poisonedTarget));
  close(r.midAsr.estimate, mean((p) => +p.poisonedTarget - +p.cleanTarget), 1e-12);
  close(
    r.midUtility.estimate,
    mean((p) => +p.cleanCorrect - +p.poisonedCorrect),
    1e-12,
  );
  assert.deepEqual(r.pairs, 50);
});

Deno.test("pairedBootstrap() is reproducible from its seed", () => {
  const a = pairedBootstrap(fixtureB(), { resamples: 2000, seed: 5, ci: "bca" });
  const b = pairedBootstrap(fixtureB(), { resamples: 2000, seed: 5, ci: "bca" });
  assert.deepEqual(a, b);
});

Deno.test("pairedBootstrap() gives NaN for no pairs and a point for a constant sample", () => {
  const empty = pairedBootstrap([], { resamples: 10 });
  assert.ok(Number.isNaN(empty.asr.estimate) && Number.isNaN(empty.asr.lo));
  const same = pairedBootstrap(
    [0, 1, 2].map((i) => ({
      instanceId: `${i}`,
      cleanCorrect: true,
      poisonedCorrect: false,
      cleanTarget: false,
      poisonedTarget: true,
    })),
    { resamples: 100, ci: "bca" },
  );
  assert.deepEqual(same.midAsr, { estimate: 1, lo: 1, hi: 1 });
});
