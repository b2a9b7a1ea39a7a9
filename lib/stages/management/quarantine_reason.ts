/**
 * Why a policy quarantined a record, as one sentence for the trajectory sidecar and the explorer.
 * The built-ins name their evidence (the untrusted channel, the conflicting trusted record and
 * number, the verified outcome contradicted); any other policy is named with its description.
 */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { StatedNumber } from "../../schema/source_unit.ts";
import type { ManagementPolicy, MemoryState, VerifiedOutcome } from "./policy.ts";

const _number = (n: StatedNumber) => `${n.key} = ${n.value}`;

function _untrusted(record: MemoryRecord): string {
  return `untrusted source (${
    record.provenance.channels.join("+")
  } channel, session ${record.provenance.session})`;
}

function _numericConflict(record: MemoryRecord, state: MemoryState): string | null {
  for (const other of state.records) {
    if (
      other === record || !other.provenance.trusted ||
      other.provenance.writtenAt >= record.provenance.writtenAt
    ) continue;
    for (const a of other.numbers) {
      const b = record.numbers.find((n) => n.key === a.key && n.value !== a.value);
      if (b) {
        return `states ${_number(b)}; the earlier trusted record ${other.id} states ${_number(a)}`;
      }
    }
  }
  return null;
}

function _claims(record: MemoryRecord, state: MemoryState) {
  const units = record.sourceUnitIds.map((id) => state.units?.get(id));
  if (units.length > 0 && units.every((u) => u !== undefined)) {
    return units.map((u) => ({ source: u!.id, asserts: u!.asserts, numbers: u!.numbers }));
  }
  return [{ source: record.id, asserts: record.asserts, numbers: record.numbers }];
}

function _outcomes(state: MemoryState): readonly VerifiedOutcome[] {
  return state.outcomes ?? state.records.filter((r) => r.provenance.verified).map((r) => ({
    sourceId: r.id,
    asserts: r.asserts,
    numbers: r.numbers,
  }));
}

function _inconsistent(record: MemoryRecord, state: MemoryState): string | null {
  for (const claim of _claims(record, state)) {
    for (const outcome of _outcomes(state)) {
      if (claim.asserts !== null && outcome.asserts !== null && claim.asserts !== outcome.asserts) {
        return `unit ${claim.source} asserts "${claim.asserts}"; the verified outcome ${outcome.sourceId} confirms "${outcome.asserts}"`;
      }
      for (const a of claim.numbers) {
        const b = outcome.numbers.find((n) => n.key === a.key && n.value !== a.value);
        if (b) {
          return `unit ${claim.source} states ${
            _number(a)
          }; the verified outcome ${outcome.sourceId} states ${_number(b)}`;
        }
      }
    }
  }
  return null;
}

/**
 * One sentence saying why `policy` quarantined `record` in `state`: PQ names the untrusted
 * channel, NC the earlier trusted record and the number it contradicts, SC the verified outcome
 * it is inconsistent with; another policy (a plugin's) gets `"<id>: <description>"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quarantineReason } from "./quarantine_reason.ts";
 * import { provenanceQuarantine } from "./provenance_quarantine.ts";
 * const record = { id: "r", text: "Rex is 4.", role: "risk" as const, sourceUnitIds: [], numbers: [], asserts: "4",
 *   provenance: { session: "s2", channels: ["tool" as const], trusted: false, verified: false, writtenAt: 2 } };
 * assert.equal(quarantineReason({ policy: provenanceQuarantine, record, state: { records: [record] } }),
 *   "PQ: untrusted source (tool channel, session s2)");
 * ```
 */
export function quarantineReason(options: {
  /** The policy that quarantined the record. */
  policy: Pick<ManagementPolicy, "id" | "description">;
  /** The quarantined record. */
  record: MemoryRecord;
  /** The memory state the policy was applied to. */
  state: MemoryState;
}): string {
  const { policy, record, state } = options;
  const specific = policy.id === "PQ"
    ? _untrusted(record)
    : policy.id === "NC"
    ? _numericConflict(record, state)
    : policy.id === "SC"
    ? _inconsistent(record, state)
    : null;
  return `${policy.id}: ${specific ?? policy.description.replace(/\.$/, "")}`;
}
