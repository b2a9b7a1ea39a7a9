/** How many units coverage `theta_w` admits: `b = ceil(theta_w * |Z|)`. */

/**
 * `ceil(theta * n)`, robust to binary rounding (0.3 * 10 is 3.0000000000000004 in floating
 * point; the paper means 3).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { admittedCount } from "./admitted_count.ts";
 * assert.equal(admittedCount({ theta: 0.3, units: 10 }), 3);
 * assert.equal(admittedCount({ theta: 0.25, units: 7 }), 2);
 * assert.equal(admittedCount({ theta: 0, units: 7 }), 0);
 * ```
 */
export function admittedCount(options: { theta: number; units: number }): number {
  const { theta, units } = options;
  if (!(theta >= 0 && theta <= 1)) {
    throw new RangeError(`Cannot admit: theta_w must be in [0, 1], got ${theta}`);
  }
  return Math.max(0, Math.min(units, Math.ceil(theta * units - 1e-9)));
}
