/**
 * Resolving one encoded sidecar pair line against the traces and records it refers to. Kept
 * apart from the encoder (no hashing, no schema) so the explorer's browser code can use it.
 */
import type { PairTrajectory, TrajectoryRecord, TrajectoryTrace } from "./pair_trajectory.ts";

/** A trace as the sidecar defines it: its units without any pair's ranks. */
export type TraceDefinition = Omit<TrajectoryTrace, "units"> & {
  units: Omit<TrajectoryTrace["units"][number], "rank" | "admitted">[];
};

/** How a pair line refers to one trace: its definition, each unit's rank, the admitted count. */
interface _TraceRef {
  id: string;
  /** The definition's id when it is not `id` (another trace took that id first). */
  ref?: string;
  /** Rank of each unit in trace order; null when the pair failed before ranking. */
  ranks: (number | null)[];
  admitted: number;
}

/**
 * The pair trajectory an encoded pair line stands for, or null when a definition it needs is
 * missing. Not validated: `decodeSidecar` validates what it returns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvePairLine } from "./sidecar_lines.ts";
 * const line = { traces: [{ id: "t", ranks: [1], admitted: 1 }], records: [] };
 * assert.equal(resolvePairLine({ line, traces: new Map(), records: new Map() }), null);
 * ```
 */
export function resolvePairLine(options: {
  /** The pair line as parsed (its `t` and `ref` fields removed or not). */
  line: Record<string, unknown>;
  /** Trace definitions by ref. */
  traces: ReadonlyMap<string, TraceDefinition>;
  /** Record definitions (with their `id`) by ref. */
  records: ReadonlyMap<string, TrajectoryRecord & { id: string }>;
}): PairTrajectory | null {
  const { line, traces, records } = options;
  const refs = (line.refs ?? {}) as Record<string, string>;
  const outTraces: TrajectoryTrace[] = [];
  for (const r of line.traces as _TraceRef[]) {
    const def = traces.get(r.ref ?? r.id);
    if (!def) return null;
    outTraces.push({
      ...def,
      units: def.units.map((u, i) => ({
        ...u,
        rank: r.ranks[i] ?? null,
        admitted: r.ranks[i] != null && r.ranks[i]! <= r.admitted,
      })),
    });
  }
  const outRecords: Record<string, TrajectoryRecord> = {};
  for (const id of line.records as string[]) {
    const def = records.get(refs[id] ?? id);
    if (!def) return null;
    const { id: _id, ...record } = def;
    outRecords[id] = record;
  }
  const { refs: _refs, traces: _t, records: _r, t: _kind, ...rest } = line;
  return { ...rest, traces: outTraces, records: outRecords } as unknown as PairTrajectory;
}
