/** NC, numeric-conflict resolution: a new record contradicting an earlier trusted number is quarantined. */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import { quarantineWhere } from "./policy.ts";

/**
 * True when `record` states, under some key, a value different from the one an earlier-written
 * trusted record states under the same key. Only records written after the bank (newly written
 * ones) can be quarantined; the earlier record wins.
 */
export function hasNumericConflict(options: {
  /** The record that may be quarantined. */
  record: MemoryRecord;
  /** The memory it is checked against (it may contain `record` itself, which is skipped). */
  records: readonly MemoryRecord[];
}): boolean {
  const { record, records } = options;
  if (record.provenance.writtenAt === 0 || record.numbers.length === 0) return false;
  return records.some((other) =>
    other !== record &&
    other.provenance.trusted &&
    other.provenance.writtenAt < record.provenance.writtenAt &&
    other.numbers.some((a) => record.numbers.some((b) => a.key === b.key && a.value !== b.value))
  );
}

/**
 * NC quarantines exactly the newly written records whose numbers conflict with an earlier
 * trusted record (see `hasNumericConflict`). Non-numeric targets pass through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numericConflict } from "./numeric_conflict.ts";
 * const record = (id: string, value: number, writtenAt: number) => ({ id, text: id, role: "helpful" as const, sourceUnitIds: [], asserts: null,
 *   numbers: [{ key: "ann:dog", value }], provenance: { session: "s", channels: ["user" as const], trusted: true, verified: false, writtenAt } });
 * const { quarantined } = numericConflict.apply({ records: [record("bank", 2, 0), record("helpful", 2, 1), record("risk", 5, 2)] });
 * assert.deepEqual(quarantined.map((r) => r.id), ["risk"]);
 * ```
 */
export const numericConflict = quarantineWhere({
  id: "NC",
  description:
    "Numeric-conflict resolution: a new record contradicting an earlier trusted number is excluded.",
  quarantine: (record, state) => hasNumericConflict({ record, records: state.records }),
});
