/** Named SVG snapshot of the record-level counterfactual figure, fed a small hand-made frame. */
import assert from "node:assert/strict";
import { counterfactualFigure } from "../../lib/figures/counterfactual_figure.ts";
import { assertSnapshot } from "./_snapshot.ts";

/** Flip-rate summary rows for a numeric or categorical x column. */
function flipRows(x: string, values: readonly (number | string)[]): Record<string, unknown>[] {
  return ["minja", "sleeper"].flatMap((attack, a) =>
    values.map((v, i) => {
      const t = i / Math.max(1, values.length - 1);
      const risk = 0.55 + 0.3 * t - 0.1 * a, helpful = 0.9 - 0.2 * t, background = 0.02 + 0.06 * t;
      const band = (p: number, w: number) => [Math.max(0, p - w), Math.min(1, p + w)];
      const [rLo, rHi] = band(risk, 0.12), [hLo, hHi] = band(helpful, 0.08);
      const [bLo, bHi] = band(background, 0.02);
      return {
        dataset: "demo",
        attack,
        [x]: v,
        flipRisk: risk,
        flipRiskLo: rLo,
        flipRiskHi: rHi,
        flipHelpful: helpful,
        flipHelpfulLo: hLo,
        flipHelpfulHi: hHi,
        flipBackground: background,
        flipBackgroundLo: bLo,
        flipBackgroundHi: bHi,
      };
    })
  );
}

Deno.test("counterfactualFigure() matches its snapshot", async () => {
  await assertSnapshot(
    "counterfactual_flips",
    counterfactualFigure({
      summaries: {
        writing: flipRows("thetaW", [0.25, 0.5, 0.75, 1]),
        management: flipRows("policy", ["UM", "PQ", "NC", "SC"]),
        retrieval: flipRows("thetaR", [0.25, 0.5, 0.75, 1]),
      },
    }),
  );
});

Deno.test("counterfactualFigure() skips operating points without reruns (no attack success)", () => {
  const rows = flipRows("thetaR", [0, 1]);
  rows[0] = { ...rows[0], flipRisk: null, flipRiskLo: null, flipRiskHi: null };
  const figure = counterfactualFigure({ summaries: { retrieval: rows } });
  const dots = figure.querySelectorAll("circle").length;
  assert.equal(dots, 2 * 2 * 3 - 1);
});
