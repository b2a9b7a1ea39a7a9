/**
 * Wilson and Newcombe intervals against published values and statsmodels.
 *
 * statsmodels and scipy values: `/usr/bin/python3 tests/stats/fixtures/statsmodels_score_intervals.py`
 * (Debian python3-statsmodels 0.13.5, python3-scipy 1.10.1) writes
 * `tests/stats/fixtures/statsmodels_score_intervals.json`; what each set holds is in the script.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { newcombeInterval } from "../../lib/stats/newcombe_interval.ts";
import { wilsonInterval } from "../../lib/stats/wilson_interval.ts";
import STATSMODELS from "./fixtures/statsmodels_score_intervals.json" with { type: "json" };

/**
 * Newcombe RG (1998). Improved confidence intervals for the difference between binomial
 * proportions based on paired data. Statistics in Medicine 17:2635-2650, Table III, method 10
 * rows: 95% limits printed to four decimals for the paper's example tables (e, f, g, h), theta
 * estimated by (f - g) / n. Transcribed from the publisher's PDF (pages 7-8) in
 * github.com/JoshSandhu/proofpack, fixtures/newcombe1998_paired.json (commit 8c302a1); the
 * second row is also in petelaud/ratesci tests/testthat/test3.R ("against Newcombe's method 10
 * result"). The kit's copy could not be compared with the PDF itself (no internet here).
 * `lower: null`: the row e 1 f 97 g 1 h 1 prints 0.8736 for method 10 but 0.8737 for method 8;
 * with eh < fg the two methods coincide by the paper's own definition, and the formula gives
 * 0.873672 (the method 8 figure), so only its upper limit is compared.
 */
const NEWCOMBE_TABLE_III: [number, number, number, number, number | null, number][] = [
  [36, 12, 2, 0, 0.0569, 0.3404],
  [20, 12, 2, 16, 0.0562, 0.3292],
  [18, 12, 2, 18, 0.0562, 0.3290],
  [36, 14, 0, 0, 0.1528, 0.4167],
  [35, 14, 0, 1, 0.1461, 0.4175],
  [18, 14, 0, 18, 0.1441, 0.3963],
  [2, 97, 1, 0, 0.8721, 0.9854],
  [1, 97, 1, 1, null, 0.9850],
  [0, 29, 1, 0, 0.6666, 0.9882],
  [2, 98, 0, 0, 0.9178, 0.9945],
  [1, 98, 0, 1, 0.9171, 0.9916],
  [0, 30, 0, 0, 0.8395, 1.0],
  [54, 0, 0, 0, -0.0664, 0.0664],
  [53, 0, 0, 1, -0.0729, 0.0729],
  [30, 0, 0, 24, -0.0358, 0.0358],
  [29, 0, 0, 25, -0.0354, 0.0354],
  [28, 0, 0, 26, -0.0352, 0.0352],
  [27, 0, 0, 27, -0.0351, 0.0351],
];

/**
 * Newcombe RG (1998). Two-sided confidence intervals for the single proportion: comparison of
 * seven methods. Statistics in Medicine 17:857-872: the worked examples of the Wilson score
 * interval without continuity correction, to four decimals, as petelaud/ratesci checks them in
 * tests/testthat/test3.R ("Single proportion, Newcombe examples", wilsonci with cc = FALSE).
 */
const NEWCOMBE_SINGLE: [number, number, number, number][] = [
  [15, 148, 0.0624, 0.1605],
  [0, 20, 0, 0.1611],
  [1, 29, 0.0061, 0.1718],
];

const close = (got: number, want: number, what: string, tol = 1e-8) =>
  assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want}`);

Deno.test("newcombeInterval() reproduces Newcombe (1998) Table III, method 10, to four decimals", () => {
  for (const [e, f, g, h, lo, hi] of NEWCOMBE_TABLE_III) {
    const r = newcombeInterval({ both: e, firstOnly: f, secondOnly: g, neither: h });
    const name = `e ${e} f ${f} g ${g} h ${h}`;
    assert.equal(r.estimate, (f - g) / (e + f + g + h));
    if (lo !== null) assert.equal(r.lo.toFixed(4), lo.toFixed(4), `${name} lower`);
    assert.equal(r.hi.toFixed(4), hi.toFixed(4), `${name} upper`);
  }
  // The excluded limit, recorded: the formula gives the method 8 figure.
  const odd = newcombeInterval({ both: 1, firstOnly: 97, secondOnly: 1, neither: 1 });
  assert.equal(odd.lo.toFixed(4), "0.8737");
});

Deno.test("newcombeInterval() equals statsmodels' square-and-add interval where phi is 0", () => {
  for (const [e, f, g, h, level, lo, hi] of STATSMODELS.newcomb) {
    const r = newcombeInterval({ both: e, firstOnly: f, secondOnly: g, neither: h, level });
    close(r.lo, lo, `(${e}, ${f}, ${g}, ${h}) at ${level} lower`);
    close(r.hi, hi, `(${e}, ${f}, ${g}, ${h}) at ${level} upper`);
  }
});

Deno.test("wilsonInterval({ modified: false }) equals statsmodels' Wilson interval", () => {
  for (const [x, n, level, lo, hi] of STATSMODELS.wilson) {
    const r = wilsonInterval({ successes: x, trials: n, level, modified: false });
    close(r.lo, lo, `${x}/${n} at ${level} lower`);
    close(r.hi, hi, `${x}/${n} at ${level} upper`);
  }
  for (const [x, n, lo, hi] of NEWCOMBE_SINGLE) {
    const r = wilsonInterval({ successes: x, trials: n, modified: false });
    assert.equal(r.lo.toFixed(4), lo.toFixed(4), `${x}/${n} lower`);
    assert.equal(r.hi.toFixed(4), hi.toFixed(4), `${x}/${n} upper`);
  }
});

Deno.test("wilsonInterval() changes only the bounds Brown, Cai and DasGupta modify, to scipy's chi2 bound", () => {
  const poisson = new Map(STATSMODELS.poisson.map(([x, level, l]) => [`${x},${level}`, l]));
  for (const [x, n, level, lo, hi] of STATSMODELS.wilson) {
    const r = wilsonInterval({ successes: x, trials: n, level });
    const xStar = n <= 50 ? 2 : 3;
    const lowOdd = x >= 1 && x <= xStar, highOdd = n - x >= 1 && n - x <= xStar;
    close(r.lo, lowOdd ? poisson.get(`${x},${level}`)! / n : lo, `${x}/${n} at ${level} lower`);
    close(
      r.hi,
      highOdd ? 1 - poisson.get(`${n - x},${level}`)! / n : hi,
      `${x}/${n} at ${level} upper`,
    );
  }
});

Deno.test("wilsonInterval(): 0 of 100 has an upper bound >= 0.03; 1 of 100 a lower bound in (0, 0.01)", () => {
  const none = wilsonInterval({ successes: 0, trials: 100 });
  assert.equal(none.lo, 0);
  assert.ok(none.hi >= 0.03, `upper ${none.hi}`);
  const one = wilsonInterval({ successes: 1, trials: 100 });
  assert.ok(one.lo > 0 && one.lo < 0.01, `lower ${one.lo}`);
  assert.ok(one.hi - one.lo > 0);
});

Deno.test("score intervals bracket the estimate, stay in range and never have zero width", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 400 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom(0.8, 0.9, 0.95, 0.99),
      (n, u, level) => {
        const x = Math.round(u * n);
        const plain = wilsonInterval({ successes: x, trials: n, level, modified: false });
        const r = wilsonInterval({ successes: x, trials: n, level });
        assert.ok(0 <= r.lo && r.lo <= r.estimate && r.estimate <= r.hi && r.hi <= 1);
        assert.ok(r.hi > r.lo);
        // The modification only ever widens the interval.
        assert.ok(r.lo <= plain.lo + 1e-15 && r.hi >= plain.hi - 1e-15, `${x}/${n}`);
      },
    ),
  );
  fc.assert(
    fc.property(
      fc.tuple(...Array.from({ length: 4 }, () => fc.integer({ min: 0, max: 60 }))),
      fc.constantFrom(0.9, 0.95, 0.99),
      ([e, f, g, h], level) => {
        fc.pre(e + f + g + h > 0);
        const r = newcombeInterval({ both: e, firstOnly: f, secondOnly: g, neither: h, level });
        assert.ok(-1 <= r.lo && r.lo <= r.estimate && r.estimate <= r.hi && r.hi <= 1);
        assert.ok(r.hi > r.lo, `(${e}, ${f}, ${g}, ${h})`);
      },
    ),
  );
});

Deno.test("score intervals name what was wrong with their input", () => {
  assert.throws(() => wilsonInterval({ successes: 3, trials: 0 }), /trials must be > 0, got 0/);
  assert.throws(() => wilsonInterval({ successes: 5, trials: 4 }), /successes must be in \[0, 4\]/);
  assert.throws(() => wilsonInterval({ successes: 1, trials: 4, level: 1 }), /level must be/);
  assert.throws(
    () => newcombeInterval({ both: -1, firstOnly: 0, secondOnly: 0, neither: 1 }),
    /both must be >= 0, got -1/,
  );
  assert.ok(
    Number.isNaN(newcombeInterval({ both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }).lo),
  );
});
