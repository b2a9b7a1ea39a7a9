/**
 * Writing a trace into memory: `dM^q(theta_w)`. The kit's reading of the paper (documented
 * choice): a trace's admitted units become ONE memory record for that trace, whose text joins
 * the cached per-unit writer outputs in rank order. No admitted unit, no record.
 */
import type { MemoryRecord } from "../../schema/memory_record.ts";
import type { Channel, SourceUnit } from "../../schema/source_unit.ts";
import type { Trace } from "../../schema/trace.ts";
import type { WriteOnceCache } from "./write_once_cache.ts";

/** Logical write times: the bank exists first, then the helpful session, then the risk session. */
export const WRITTEN_AT = { background: 0, helpful: 1, risk: 2 } as const;

/**
 * Build the record for a trace from its admitted unit ids (in rank order).
 *
 * Provenance: trusted when every admitted unit is trusted; verified when at least one is a
 * verified outcome; `asserts` is the first assertion in rank order, `supports` the first value a
 * unit asserts or is evidence for and `supportShare` the share of the trace's units carrying that
 * value that the record holds; numbers are the union; the trace's session date, when it has one,
 * is the record's `sessionTime`.
 * The record id names the trace and how many units it holds, so records at different
 * coverage levels never share an id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WriteOnceCache } from "./write_once_cache.ts";
 * import { verbatimWriter } from "./writers/verbatim.ts";
 * import { writeTraceRecord } from "./write_trace_record.ts";
 * const unit = { id: "a", text: "Rex is 4.", channel: "user" as const, trusted: true, verified: false, numbers: [], asserts: "4" };
 * const trace = { id: "t", session: "s", kind: "helpful" as const, units: [unit] };
 * const record = await writeTraceRecord({ trace, admitted: ["a"], cache: new WriteOnceCache({ writer: verbatimWriter }) });
 * assert.equal(record?.asserts, "4");
 * assert.equal(await writeTraceRecord({ trace, admitted: [], cache: new WriteOnceCache({ writer: verbatimWriter }) }), null);
 * ```
 */
export async function writeTraceRecord(options: {
  /** The trace being written. */
  trace: Trace;
  /** Admitted unit ids in rank order (see `admit`). */
  admitted: readonly string[];
  /** The write-once cache wrapping the writer. */
  cache: WriteOnceCache;
}): Promise<MemoryRecord | null> {
  const { trace, admitted, cache } = options;
  if (admitted.length === 0) return null;
  const byId = new Map(trace.units.map((u) => [u.id, u]));
  const units = admitted.map((id) => {
    const unit = byId.get(id);
    if (!unit) {
      throw new RangeError(`Cannot write trace ${trace.id}: unknown unit id ${JSON.stringify(id)}`);
    }
    return unit;
  });
  const texts = await Promise.all(units.map((unit) => cache.write(unit, { trace })));
  const channels: Channel[] = [...new Set(units.map((u) => u.channel))];
  const supports = units.map((u) => u.asserts ?? u.supports ?? null).find((v) => v !== null) ??
    null;
  // A confirmation that says nothing itself ("Yes, that's right.") carries no evidence.
  const carries = (u: SourceUnit) =>
    supports !== null && (u.asserts ?? u.supports ?? null) === supports &&
    !(u.verified && u.asserts === null);
  const carrying = trace.units.filter(carries).length;
  return {
    id: `${trace.id}@${units.length}`,
    text: texts.join("\n"),
    role: trace.kind,
    sourceUnitIds: units.map((u) => u.id),
    provenance: {
      session: trace.session,
      channels,
      trusted: units.every((u) => u.trusted),
      verified: units.some((u) => u.verified),
      writtenAt: WRITTEN_AT[trace.kind],
      ...(trace.sessionTime === undefined ? {} : { sessionTime: trace.sessionTime }),
    },
    numbers: units.flatMap((u) => u.numbers),
    asserts: units.find((u) => u.asserts !== null)?.asserts ?? null,
    supports,
    ...(carrying > 0 && { supportShare: units.filter(carries).length / carrying }),
  };
}
