/**
 * The standard normal quantile and CDF behind BCa intervals and the score intervals, against
 * scipy. Values: scipy.special.ndtri and scipy.special.ndtr (Debian python3-scipy 1.10.1),
 * printed by `/usr/bin/python3 tests/stats/fixtures/scipy_normal.py`.
 */
import assert from "node:assert/strict";
import { normalCdf, normalQuantile } from "../../lib/stats/_normal.ts";

const SCIPY_NDTRI: [number, number][] = [
  [1e-300, -37.0470962993612],
  [1e-100, -21.273453560965322],
  [1e-20, -9.262340089798409],
  [1e-10, -6.361340902404056],
  [1e-06, -4.753424308822899],
  [0.0001, -3.7190164854556804],
  [0.001, -3.090232306167813],
  [0.005, -2.575829303548901],
  [0.01, -2.3263478740408408],
  [0.02, -2.053748910631823],
  [0.02425, -1.972961051311885],
  [0.025, -1.9599639845400545],
  [0.05, -1.6448536269514729],
  [0.1, -1.2815515655446004],
  [0.2, -0.8416212335729142],
  [0.3, -0.5244005127080409],
  [0.4, -0.2533471031357997],
  [0.5, 0.0],
  [0.6, 0.2533471031357997],
  [0.7, 0.5244005127080407],
  [0.8, 0.8416212335729143],
  [0.9, 1.2815515655446004],
  [0.95, 1.6448536269514722],
  [0.975, 1.959963984540054],
  [0.97575, 1.972961051311885],
  [0.98, 2.0537489106318225],
  [0.99, 2.3263478740408408],
  [0.995, 2.5758293035489004],
  [0.999, 3.090232306167813],
  [0.9999, 3.719016485455709],
  [0.999999, 4.753424308817087],
  [0.9999999999, 6.361340889697422],
];

const SCIPY_NDTR: [number, number][] = [
  [-6, 9.865876450376946e-10],
  [-5, 2.866515718791933e-07],
  [-4, 3.167124183311986e-05],
  [-3, 0.0013498980316300933],
  [-2.5, 0.006209665325776132],
  [-1.959963984540054, 0.025],
  [-1.5, 0.06680720126885807],
  [-1, 0.15865525393145707],
  [-0.5, 0.3085375387259869],
  [-0.1, 0.460172162722971],
  [0, 0.5],
  [0.1, 0.539827837277029],
  [0.5, 0.6914624612740131],
  [1, 0.8413447460685429],
  [1.5, 0.9331927987311419],
  [1.959963984540054, 0.975],
  [2.5, 0.9937903346742238],
  [3, 0.9986501019683699],
  [4, 0.9999683287581669],
  [5, 0.9999997133484281],
  [6, 0.9999999990134123],
];

Deno.test("normalQuantile() matches scipy.special.ndtri to 1.2e-9 relative error in every region", () => {
  for (const [p, want] of SCIPY_NDTRI) {
    const got = normalQuantile(p);
    // Acklam's rational approximation: relative error below 1.15e-9 (0 is exact at p = 0.5).
    const err = want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want);
    assert.ok(err < 1.2e-9, `ndtri(${p}) = ${got}, scipy ${want}, relative error ${err}`);
  }
  assert.equal(normalQuantile(0), -Infinity);
  assert.equal(normalQuantile(1), Infinity);
  assert.ok(
    Number.isNaN(normalQuantile(-0.1)) && Number.isNaN(normalQuantile(1.1)) &&
      Number.isNaN(normalQuantile(NaN)),
  );
});

Deno.test("normalCdf() matches scipy.special.ndtr to 1.2e-7 absolute error", () => {
  for (const [x, want] of SCIPY_NDTR) {
    const got = normalCdf(x);
    assert.ok(Math.abs(got - want) < 1.2e-7, `ndtr(${x}) = ${got}, scipy ${want}`);
  }
  assert.ok(Number.isNaN(normalCdf(NaN)));
});
