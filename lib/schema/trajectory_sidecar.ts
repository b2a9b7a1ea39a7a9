/**
 * The sidecar file's encoding: JSONL where a trace or a record is written once, the first time a
 * pair trial uses it (`{"t":"trace"}`, `{"t":"record"}` lines), and each pair trial is one
 * `{"t":"pair"}` line that refers to them by id, with the trace's ranks and admitted count. A
 * trace or record used by a thousand pairs costs its text once, so the sidecar stays about the
 * size of the rows. Decoding gives back self-contained `PairTrajectory` objects.
 */
import { resolvePairLine, type TraceDefinition } from "./sidecar_lines.ts";
import {
  PAIR_TRAJECTORY_FORMAT,
  PairTrajectory,
  trajectoryKey,
  type TrajectoryRecord,
  type TrajectoryTrace,
} from "./pair_trajectory.ts";

function _traceDef(trace: TrajectoryTrace): TraceDefinition {
  return {
    ...trace,
    units: trace.units.map(({ rank: _r, admitted: _a, ...unit }) => unit),
  };
}

/** Ids the pair line's records are found under in the file: the record's id unless taken. */
function _usedRecordIds(t: PairTrajectory): string[] {
  return Object.keys(t.records);
}

/**
 * Encodes pair trajectories as sidecar lines, defining each trace and record the first time it
 * is used. One encoder per file: it remembers what the file already defines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeSidecar, SidecarEncoder } from "./trajectory_sidecar.ts";
 * const unit = { id: "u1", text: "Rex is 4.", channel: "user" as const, trusted: true, verified: false, asserts: "4", rank: 1, admitted: true };
 * const record = { text: "[user] Rex is 4.", role: "helpful" as const, sourceUnitIds: ["u1"], channels: ["user" as const], trusted: true, verified: false, session: "s1", writtenAt: 1, asserts: "4" };
 * const run = { quarantined: [], context: ["h@1"], output: "4", correct: true, matchesTarget: false, hedged: false, error: null };
 * const line = { format: "memgauge.trajectory/1" as const, runId: "r", pairId: "p", trial: 0, instanceId: "i", agent: "a", attack: "minja",
 *   query: "How old is Rex?", answer: "4", target: "5", helpfulExposed: true, riskExposed: false,
 *   traces: [{ kind: "helpful" as const, id: "t", session: "s1", units: [unit] }], written: ["h@1"], records: { "h@1": record },
 *   clean: run, poisoned: run, ablations: [], error: null };
 * const encoder = new SidecarEncoder();
 * const text = encoder.encode(line) + encoder.encode({ ...line, pairId: "q" });
 * assert.equal(text.trim().split("\n").length, 4); // trace, record, two pairs
 * assert.deepEqual(decodeSidecar({ text }).trajectories[1], { ...line, pairId: "q" });
 * ```
 */
export class SidecarEncoder {
  /** Definition content (its JSON) by the id it is defined under. */
  #traces = new Map<string, string>();
  #records = new Map<string, string>();

  /** The lines of one pair trial (definitions it needs first), each ending in a newline. */
  encode(t: PairTrajectory): string {
    const lines: string[] = [];
    const define = (
      kind: "trace" | "record",
      seen: Map<string, string>,
      id: string,
      content: unknown,
    ): string => {
      // Definitions are compared by their JSON text (a file holds thousands, not millions).
      const json = JSON.stringify(content);
      for (let n = 1;; n++) {
        const ref = n === 1 ? id : `${id}~${n}`;
        const known = seen.get(ref);
        if (known === json) return ref;
        if (known === undefined) {
          seen.set(ref, json);
          lines.push(`{"t":${JSON.stringify(kind)},"ref":${JSON.stringify(ref)},${json.slice(1)}`);
          return ref;
        }
      }
    };
    const traces = t.traces.map((trace) => {
      const def = _traceDef(trace);
      const ref = define("trace", this.#traces, trace.id, def);
      return {
        id: trace.id,
        ...(ref !== trace.id && { ref }),
        ranks: trace.units.map((u) => u.rank),
        admitted: trace.units.filter((u) => u.admitted).length,
      };
    });
    const refs: Record<string, string> = {};
    for (const id of _usedRecordIds(t)) {
      const ref = define("record", this.#records, id, { id, ...t.records[id] });
      if (ref !== id) refs[id] = ref;
    }
    const { traces: _t, records: _r, ...rest } = t;
    lines.push(JSON.stringify({
      t: "pair",
      ...rest,
      traces,
      records: _usedRecordIds(t),
      ...(Object.keys(refs).length > 0 && { refs }),
    }));
    return lines.map((l) => l + "\n").join("");
  }
}

/**
 * Decode a sidecar file's text into pair trajectories, in file order. A torn last line (a
 * killed write) and lines of another format are skipped; a pair whose definitions are missing
 * is skipped too (counted in `skipped`). With `keys`, only those pair trials are kept, each once
 * (the first line of a key wins).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeSidecar } from "./trajectory_sidecar.ts";
 * assert.deepEqual(decodeSidecar({ text: '{"t":"pair"' }), { trajectories: [], skipped: 0 });
 * ```
 */
export function decodeSidecar(options: {
  /** The file's text. */
  text: string;
  /** Keep only these pair trials (`pairId#trial`); default all. */
  keys?: ReadonlySet<string>;
}): { trajectories: PairTrajectory[]; skipped: number } {
  const traces = new Map<string, TraceDefinition>();
  const records = new Map<string, TrajectoryRecord & { id: string }>();
  const trajectories: PairTrajectory[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const line of options.text.split("\n")) {
    if (line.trim() === "") continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const { t, ref, ...content } = value;
    if (t === "trace") traces.set(String(ref), content as unknown as TraceDefinition);
    else if (t === "record") records.set(String(ref), content as TrajectoryRecord & { id: string });
    else if (t === "pair" && content.format === PAIR_TRAJECTORY_FORMAT) {
      const key = trajectoryKey(content as { pairId: string; trial: number });
      if (seen.has(key) || (options.keys && !options.keys.has(key))) continue;
      const resolved = resolvePairLine({ line: content, traces, records });
      const parsed = resolved && PairTrajectory.safeParse(resolved);
      const pair = parsed?.success ? parsed.data : null;
      if (!pair) {
        skipped++;
        continue;
      }
      seen.add(key);
      trajectories.push(pair);
    }
  }
  return { trajectories, skipped };
}
