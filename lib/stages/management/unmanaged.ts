/** UM, unmanaged: nothing changes (the reference operating point). */
import { quarantineWhere } from "./policy.ts";

/**
 * UM quarantines nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unmanaged } from "./unmanaged.ts";
 * assert.equal(unmanaged.id, "UM");
 * ```
 */
export const unmanaged = quarantineWhere({
  id: "UM",
  description: "Unmanaged: every record stays retrievable.",
  quarantine: () => false,
});
