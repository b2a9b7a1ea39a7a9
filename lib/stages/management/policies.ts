/** The management-policy registry: the built-ins in the paper's order, then any plugin's. */
import { createRegistry, type Registry } from "../../schema/registry.ts";
import { numericConflict } from "./numeric_conflict.ts";
import type { ManagementPolicy } from "./policy.ts";
import { provenanceQuarantine } from "./provenance_quarantine.ts";
import { strictConflict } from "./strict_conflict.ts";
import { unmanaged } from "./unmanaged.ts";

/**
 * Every registered policy by id (CLI `--policies`, sweeps, figure order and reproduce read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { POLICIES } from "./policies.ts";
 * assert.deepEqual(POLICIES.ids().slice(0, 4), ["UM", "PQ", "NC", "SC"]);
 * assert.match(POLICIES.resolve("PQ").description, /untrusted/);
 * ```
 */
export const POLICIES: Registry<ManagementPolicy> = createRegistry({ kind: "policy" });

/** Register a policy under its own id and description (`source`: the plugin file). */
export function registerPolicy(options: { policy: ManagementPolicy; source?: string }): void {
  const { policy, source } = options;
  POLICIES.register({ id: policy.id, description: policy.description, value: policy, source });
}

// The built-ins, in the paper's order (UM, PQ, NC, SC: separate operating points, not a scale).
// A new built-in policy is its own file, its test and one line here.
registerPolicy({ policy: unmanaged });
registerPolicy({ policy: provenanceQuarantine });
registerPolicy({ policy: numericConflict });
registerPolicy({ policy: strictConflict });

/** The built-in policies by id (plugins not included). */
export const BUILTIN_POLICIES: Readonly<Record<string, ManagementPolicy>> = Object.fromEntries(
  POLICIES.entries().map((e) => [e.id, e.value]),
);

/**
 * Look up a registered policy by id (built-ins and plugins' policies).
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
}): ManagementPolicy {
  const policy = POLICIES.get(options.id);
  if (!policy) {
    throw new RangeError(
      `policies: unknown policy ${JSON.stringify(options.id)} (expected one of ${
        POLICIES.ids().join(", ")
      })`,
    );
  }
  return policy;
}
