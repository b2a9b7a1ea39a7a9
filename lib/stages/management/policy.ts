/** The management interface `G`: a policy maps a memory state to kept and quarantined records. */
import type { MemoryRecord } from "../../model/memory_record.ts";

/** A pre-management memory state `M_s` (records in write order). */
export interface MemoryState {
  records: readonly MemoryRecord[];
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
 * assert.deepEqual(noTools.apply({ records: [] }), { kept: [], quarantined: [] });
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
