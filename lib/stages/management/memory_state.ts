/** Build the pre-management state `M_s` with what management may know about its history. */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { Trace } from "../../schema/trace.ts";
import type { MemoryState } from "./policy.ts";
import { verifiedOutcomes } from "./verified_outcomes.ts";

/**
 * The state one condition's management sees: its records in write order, the source units of
 * its traces (admitted or not) and every verified outcome of its history. The clean condition's
 * history is the helpful trace; the poisoned one's adds the risk trace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryState } from "./memory_state.ts";
 * const unit = { id: "a", text: "Yes, 4.", channel: "user" as const, trusted: true, verified: true, numbers: [], asserts: "4" };
 * const state = memoryState({ records: [], traces: [{ id: "t", session: "s", kind: "helpful", units: [unit] }] });
 * assert.deepEqual([state.units?.size, state.outcomes?.length], [1, 1]);
 * ```
 */
export function memoryState(options: {
  /** Records in write order (bank, then the written trace records). */
  records: readonly MemoryRecord[];
  /** Traces of the history. */
  traces: readonly Trace[];
}): MemoryState {
  const { records, traces } = options;
  return {
    records,
    units: new Map(traces.flatMap((t) => t.units.map((u) => [u.id, u]))),
    outcomes: verifiedOutcomes({ traces, records }),
  };
}
