/** UM, unmanaged: nothing changes (the reference operating point). */
import { quarantineWhere } from "./policy.ts";

/**
 * UM quarantines nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unmanaged } from "./unmanaged.ts";
 * const record = { id: "r", text: "Rex is 4.", role: "risk" as const, sourceUnitIds: [], numbers: [], asserts: "4",
 *   provenance: { session: "s", channels: ["tool" as const], trusted: false, verified: false, writtenAt: 2 } };
 * assert.deepEqual(unmanaged.apply({ records: [record] }), { kept: [record], quarantined: [] });
 * ```
 */
export const unmanaged = quarantineWhere({
  id: "UM",
  description: "Unmanaged: every record stays retrievable.",
  quarantine: () => false,
});
