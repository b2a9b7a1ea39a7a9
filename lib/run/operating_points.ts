/** Expand a one-stage sweep into operating points, the other stages held at their base values. */
import { type OperatingPoint, PAPER_DEFAULTS, type Stage } from "../schema/operating_point.ts";
import { POLICIES } from "../stages/management/policies.ts";

/** The default grid: `theta` in {0, 0.1, ..., 1}. */
export const DEFAULT_GRID: readonly number[] = Array.from({ length: 11 }, (_, i) => i / 10);

/**
 * Operating points for a sweep that varies one stage.
 * - writing: `thetaW` over `grid`;
 * - management: `policy` over `policies`;
 * - retrieval: `thetaR = thetaRRisk` over `grid`, or, when `thetaRRisk` is given (asymmetric
 *   exposure), `thetaR` fixed at the base value and `thetaRRisk` over that list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { operatingPoints } from "./operating_points.ts";
 * const points = operatingPoints({ stage: "writing", grid: [0, 0.5, 1] });
 * assert.deepEqual(points.map((p) => [p.thetaW, p.policy, p.thetaR]), [[0, "UM", 0.8], [0.5, "UM", 0.8], [1, "UM", 0.8]]);
 * ```
 */
export function operatingPoints(options: {
  /** The stage to vary. */
  stage: Stage;
  /** Values of `theta_w` or `theta_r`; default `DEFAULT_GRID`. */
  grid?: readonly number[];
  /** Policies for the management stage; default every registered one (UM, PQ, NC, SC, plugins'). */
  policies?: readonly string[];
  /** Asymmetric exposure: values of `theta_r-` with `theta_r+` fixed; default none. */
  thetaRRisk?: readonly number[];
  /** Values of the stages that do not vary; default the paper's defaults. */
  base?: Partial<Omit<OperatingPoint, "stage">>;
}): OperatingPoint[] {
  const { stage, grid = DEFAULT_GRID, policies = POLICIES.ids(), thetaRRisk } = options;
  const base = { ...PAPER_DEFAULTS, ...options.base, stage };
  if (options.base?.thetaR !== undefined && options.base.thetaRRisk === undefined) {
    base.thetaRRisk = options.base.thetaR;
  }
  switch (stage) {
    case "writing":
      return grid.map((thetaW) => ({ ...base, thetaW }));
    case "management":
      return policies.map((policy) => ({ ...base, policy }));
    case "retrieval":
      return thetaRRisk
        ? thetaRRisk.map((r) => ({ ...base, thetaRRisk: r }))
        : grid.map((thetaR) => ({ ...base, thetaR, thetaRRisk: thetaR }));
  }
}
