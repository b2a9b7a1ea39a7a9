/** SC, strict conflict resolution: keep records consistent with verified outcomes, quarantine the rest. */
import { quarantineWhere } from "./policy.ts";

/**
 * SC keeps exactly the records backed by a verified interaction outcome (an explicit user
 * confirmation or a tool-execution result among their source units) and quarantines every
 * unverified record. An idealised upper bound: it assumes complete, reliable feedback.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { strictConflict } from "./strict_conflict.ts";
 * assert.equal(strictConflict.id, "SC");
 * ```
 */
export const strictConflict = quarantineWhere({
  id: "SC",
  description: "Strict conflict resolution: only records backed by verified outcomes stay.",
  quarantine: (record) => !record.provenance.verified,
});
