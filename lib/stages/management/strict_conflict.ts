/** SC, strict conflict resolution: quarantine exactly the records inconsistent with verified outcomes. */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { StatedNumber } from "../../schema/source_unit.ts";
import { type MemoryState, quarantineWhere, type VerifiedOutcome } from "./policy.ts";

/**
 * What one source of a record claims: the query answer it states or is evidence for, and its
 * keyed numbers.
 */
interface _Claim {
  asserts: string | null;
  numbers: readonly StatedNumber[];
}

const _claim = (
  source: Pick<MemoryRecord, "asserts" | "supports" | "numbers">,
): _Claim => ({ asserts: source.asserts ?? source.supports ?? null, numbers: source.numbers });

/**
 * The claims a record makes, read from its source units when the state knows them (so a
 * verbatim and an LLM-written record of the same units are judged alike), else from the record.
 */
function _claims(record: MemoryRecord, state: MemoryState): _Claim[] {
  const units = record.sourceUnitIds.map((id) => state.units?.get(id));
  if (units.length > 0 && units.every((u) => u !== undefined)) return units.map((u) => _claim(u!));
  return [_claim(record)];
}

function _outcomes(state: MemoryState): readonly VerifiedOutcome[] {
  return state.outcomes ??
    state.records.filter((r) => r.provenance.verified).map((r) => ({
      sourceId: r.id,
      asserts: r.asserts ?? r.supports ?? null,
      numbers: r.numbers,
    }));
}

/** True when a claim contradicts an outcome: another answer, or another value under a key. */
function _contradicts(claim: _Claim, outcome: VerifiedOutcome): boolean {
  if (claim.asserts !== null && outcome.asserts !== null && claim.asserts !== outcome.asserts) {
    return true;
  }
  return claim.numbers.some((a) =>
    outcome.numbers.some((b) => a.key === b.key && a.value !== b.value)
  );
}

/**
 * True when some source of `record` contradicts some verified outcome of the history: it
 * asserts (or is evidence for) a different answer to the query than an outcome confirms, or
 * states a different value under a key an outcome fixes. A record that nothing verified
 * contradicts is consistent.
 */
export function isInconsistent(options: {
  /** The record whose source units are checked. */
  record: MemoryRecord;
  /** The memory state carrying the history's verified outcomes. */
  state: MemoryState;
}): boolean {
  const { record, state } = options;
  const outcomes = _outcomes(state);
  return _claims(record, state).some((c) => outcomes.some((o) => _contradicts(c, o)));
}

/**
 * SC, the paper's idealised upper bound with complete, reliable feedback. It knows every
 * verified outcome of the interaction history (explicit user confirmations and tool-execution
 * results in every trace, admitted by writing or not; document text returned by a tool is
 * content, not an outcome) and quarantines exactly the records whose source units are
 * inconsistent with them (`isInconsistent`); everything else stays.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { strictConflict } from "./strict_conflict.ts";
 * const record = (id: string, asserts: string | null) => ({ id, text: id, role: "helpful" as const, sourceUnitIds: [], numbers: [], asserts,
 *   provenance: { session: "s", channels: ["user" as const], trusted: true, verified: false, writtenAt: 1 } });
 * const outcomes = [{ sourceId: "u9", asserts: "4", numbers: [] }];
 * const { quarantined } = strictConflict.apply({ records: [record("a", "4"), record("b", "7"), record("c", null)], outcomes });
 * assert.deepEqual(quarantined.map((r) => r.id), ["b"]);
 * ```
 */
export const strictConflict = quarantineWhere({
  id: "SC",
  description:
    "Strict conflict resolution: records inconsistent with verified interaction outcomes are excluded.",
  quarantine: (record, state) => isInconsistent({ record, state }),
});
