/** The built-in management policies by id, and lookup with a clear error. */
import { numericConflict } from "./numeric_conflict.ts";
import type { ManagementPolicy } from "./policy.ts";
import { provenanceQuarantine } from "./provenance_quarantine.ts";
import { strictConflict } from "./strict_conflict.ts";
import { unmanaged } from "./unmanaged.ts";

/** UM, PQ, NC, SC: separate operating points, not an ordered scale. */
export const BUILTIN_POLICIES: Readonly<Record<string, ManagementPolicy>> = {
  UM: unmanaged,
  PQ: provenanceQuarantine,
  NC: numericConflict,
  SC: strictConflict,
};

/**
 * Look up a policy by id among the built-ins and any extra policies.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvePolicy } from "./policies.ts";
 * assert.equal(resolvePolicy({ id: "PQ" }).id, "PQ");
 * assert.throws(() => resolvePolicy({ id: "XX" }), /policies: unknown policy "XX"/);
 * ```
 */
export function resolvePolicy(options: {
  /** The policy id. */
  id: string;
  /** User policies by id; default none. */
  extra?: Readonly<Record<string, ManagementPolicy>>;
}): ManagementPolicy {
  const all = { ...BUILTIN_POLICIES, ...options.extra };
  const policy = all[options.id];
  if (!policy) {
    throw new RangeError(
      `policies: unknown policy ${JSON.stringify(options.id)} (expected one of ${
        Object.keys(all).join(", ")
      })`,
    );
  }
  return policy;
}
