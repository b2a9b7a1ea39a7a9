/** The verified outcomes of an interaction history: what strict conflict resolution checks against. */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { SourceUnit } from "../../schema/source_unit.ts";
import type { Trace } from "../../schema/trace.ts";
import type { VerifiedOutcome } from "./policy.ts";

/**
 * True when a unit is a verified interaction outcome: marked verified (an explicit user
 * confirmation or a tool-execution result) and not document text a tool returned, which is
 * untrusted content whatever it claims.
 */
export function isVerifiedOutcome(unit: SourceUnit): boolean {
  return unit.verified && !(unit.channel === "tool" && !unit.trusted);
}

/**
 * Every verified outcome of a history: the verified units of each trace, whether or not writing
 * admitted them (feedback is complete), then the verified records among `records` that have no
 * source units in these traces (background records, which are their own evidence).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifiedOutcomes } from "./verified_outcomes.ts";
 * const unit = (id: string, verified: boolean, asserts: string | null) =>
 *   ({ id, text: id, channel: "user" as const, trusted: true, verified, numbers: [], asserts });
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [unit("a", false, null), unit("b", true, "4")] };
 * assert.deepEqual(verifiedOutcomes({ traces: [trace] }), [{ sourceId: "b", asserts: "4", numbers: [] }]);
 * ```
 */
export function verifiedOutcomes(options: {
  /** Traces of the history (the helpful trace; in the poisoned condition also the risk trace). */
  traces: readonly Trace[];
  /** Memory records; the verified ones written from no unit of `traces` count; default none. */
  records?: readonly MemoryRecord[];
}): VerifiedOutcome[] {
  const fromUnits = options.traces.flatMap((t) => t.units).filter(isVerifiedOutcome)
    .map((u) => ({ sourceId: u.id, asserts: u.asserts ?? u.supports ?? null, numbers: u.numbers }));
  const unitIds = new Set(options.traces.flatMap((t) => t.units.map((u) => u.id)));
  const fromRecords = (options.records ?? []).filter((r) =>
    r.provenance.verified && r.sourceUnitIds.every((id) => !unitIds.has(id))
  ).map((r) => ({ sourceId: r.id, asserts: r.asserts ?? r.supports ?? null, numbers: r.numbers }));
  return [...fromUnits, ...fromRecords];
}
