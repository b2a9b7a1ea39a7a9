/** The management interface `G`: a policy maps a memory state to kept and quarantined records. */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { SourceUnit, StatedNumber } from "../../schema/source_unit.ts";

/**
 * A verified interaction outcome: what an explicit user confirmation or a tool-execution result
 * established. Text a tool returned from a document is content, not an outcome.
 */
export interface VerifiedOutcome {
  /** The source unit (or bank record) that carries the outcome. */
  sourceId: string;
  /**
   * The query answer it confirms, or null: the answer it states, or the one the fact it confirms
   * is evidence for (a "yes, that's right" to a recap of the evidence).
   */
  asserts: string | null;
  /** The numbers it establishes, keyed by quantity. */
  numbers: readonly StatedNumber[];
}

/**
 * A pre-management memory state `M_s` (records in write order) and what management may know
 * about the interaction history behind it. Policies that only look at records ignore the rest.
 */
export interface MemoryState {
  records: readonly MemoryRecord[];
  /**
   * Source units of every trace of the history, by id, admitted by writing or not; default
   * none (a record then speaks for itself through its own `asserts` and `numbers`).
   */
  units?: ReadonlyMap<string, SourceUnit>;
  /**
   * Every verified outcome of the history (see `verifiedOutcomes`); default those carried by
   * the records marked verified.
   */
  outcomes?: readonly VerifiedOutcome[];
}

/** Quarantine excludes a record from retrieval and leaves the rest of memory unchanged. */
export interface ManagementResult {
  kept: MemoryRecord[];
  quarantined: MemoryRecord[];
}

/** A management policy; users extend the kit by writing one (see `quarantineWhere`). */
export interface ManagementPolicy {
  /** Row label, e.g. `UM`. */
  id: string;
  /** One sentence for tables and notebooks. */
  description: string;
  apply(state: MemoryState): ManagementResult;
}

/**
 * Build a policy that quarantines exactly the records matching a predicate. The predicate sees
 * the whole pre-management state, so rules like "conflicts with an earlier trusted record" fit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quarantineWhere } from "./policy.ts";
 * const noTools = quarantineWhere({ id: "NT", description: "No tool records.", quarantine: (r) => r.provenance.channels.includes("tool") });
 * const record = (id: string, channel: "user" | "tool") => ({ id, text: id, role: "background" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "s", channels: [channel], trusted: true, verified: false, writtenAt: 0 } });
 * const { kept, quarantined } = noTools.apply({ records: [record("a", "user"), record("b", "tool")] });
 * assert.deepEqual([kept.map((r) => r.id), quarantined.map((r) => r.id)], [["a"], ["b"]]);
 * ```
 */
export function quarantineWhere(options: {
  /** Row label. */
  id: string;
  /** One sentence for tables and notebooks. */
  description: string;
  /** True for a record the policy quarantines. */
  quarantine: (record: MemoryRecord, state: MemoryState) => boolean;
}): ManagementPolicy {
  const { id, description, quarantine } = options;
  return {
    id,
    description,
    apply(state) {
      const result: ManagementResult = { kept: [], quarantined: [] };
      for (const record of state.records) {
        (quarantine(record, state) ? result.quarantined : result.kept).push(record);
      }
      return result;
    },
  };
}
