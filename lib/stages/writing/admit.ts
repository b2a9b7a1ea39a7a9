/** Writing admission: the ranked prefix `A(theta_w) = (pi(1), ..., pi(b))`, nested in `theta_w`. */
import { admittedCount } from "./admitted_count.ts";

/**
 * Admit the first `ceil(theta * |ranking|)` unit ids of a ranking. Because it is a prefix of one
 * fixed ranking, raising `theta` only adds lower-ranked units (nested admission).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { admit } from "./admit.ts";
 * assert.deepEqual(admit({ ranking: ["u3", "u1", "u2"], theta: 0.5 }), ["u3", "u1"]);
 * ```
 */
export function admit(options: { ranking: readonly string[]; theta: number }): string[] {
  const { ranking, theta } = options;
  return ranking.slice(0, admittedCount({ theta, units: ranking.length }));
}
