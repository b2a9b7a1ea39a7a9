/**
 * One pair's detail as the explorer page embeds it: a short JSON array whose strings (record
 * ids, answers, errors) are codes into one table, so 100,000 pairs fit in a page that opens in
 * about a second. Encoding and decoding are kept apart from everything that needs Deno, so the
 * page's script decodes with this same file.
 */
import type { AblationSummary, PairSummary, RunSummary } from "./explore_data.ts";

/** Strings by code, shared by every detail line of a page. */
export class StringTable {
  readonly strings: string[] = [];
  #codes = new Map<string, number>();

  /** The code of a string (-1 for null). */
  code(s: string | null): number {
    if (s === null) return -1;
    let c = this.#codes.get(s);
    if (c === undefined) {
      c = this.strings.length;
      this.strings.push(s);
      this.#codes.set(s, c);
    }
    return c;
  }
}

const _bool = (b: boolean | null | undefined) => (b === null || b === undefined ? -1 : b ? 1 : 0);
const _unbool = (n: number) => (n === -1 ? null : n === 1);
const _str = (strings: readonly string[], c: number) => (c === -1 ? null : strings[c]);

type _Run = [number[], number, number, number, number, number, number, number, number, number];

function _run(r: RunSummary | null, t: StringTable): _Run | 0 {
  if (!r) return 0;
  return [
    r.contextIds.map((id) => t.code(id)),
    t.code(r.output),
    _bool(r.correct),
    _bool(r.matchesTarget),
    _bool(r.hedged),
    t.code(r.error),
    _bool(r.riskInContext),
    _bool(r.helpfulInContext),
    t.code(r.judgeModel),
    t.code(r.stopReason),
  ];
}

function _unrun(r: _Run | 0, strings: readonly string[]): RunSummary | null {
  if (r === 0) return null;
  return {
    contextIds: r[0].map((c) => strings[c]),
    output: _str(strings, r[1]),
    correct: _unbool(r[2]),
    matchesTarget: _unbool(r[3]),
    hedged: _unbool(r[4]),
    error: _str(strings, r[5]),
    riskInContext: r[6] === 1,
    helpfulInContext: r[7] === 1,
    judgeModel: _str(strings, r[8]),
    stopReason: _str(strings, r[9]),
  };
}

/** What the page's table columns already hold about a pair, given back to `decodePairDetail`. */
export type PairLabels = Pick<
  PairSummary,
  | "key"
  | "trial"
  | "instanceId"
  | "agent"
  | "simulated"
  | "dataset"
  | "attack"
  | "stage"
  | "point"
  | "policy"
  | "setting"
>;

/**
 * A pair's detail line: runs, ablations, run id, exposure draws and its encoded sidecar line
 * (or 0), every string a code into `table`. The labels the table columns hold are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodePairDetail, encodePairDetail, StringTable } from "./pair_detail.ts";
 * const run = { contextIds: ["b1", "h"], output: "4", correct: true, matchesTarget: false, hedged: false, error: null,
 *   riskInContext: false, helpfulInContext: true, judgeModel: null, stopReason: null };
 * const labels = { key: "p#0", trial: 0, instanceId: "i", agent: "a", simulated: true, dataset: "d", attack: "minja",
 *   stage: "writing", point: "θw 0.5", policy: "UM", setting: "K 2" };
 * const pair = { ...labels, runId: "r", pairId: "p", helpfulExposed: true, riskExposed: false, clean: run,
 *   poisoned: { ...run, output: "5" }, ablations: [], trajectory: null };
 * const table = new StringTable();
 * const line = JSON.stringify(encodePairDetail({ pair, table, trajectory: 0 }));
 * const back = decodePairDetail({ detail: JSON.parse(line), strings: table.strings, labels });
 * assert.deepEqual({ ...back, trajectory: null }, pair);
 * ```
 */
export function encodePairDetail(options: {
  pair: PairSummary;
  table: StringTable;
  /** The pair's encoded sidecar line (see `SidecarEncoder`), or 0 when none was kept. */
  trajectory: unknown;
}): unknown[] {
  const { pair, table: t } = options;
  return [
    _run(pair.clean, t),
    _run(pair.poisoned, t),
    pair.ablations.map((a) => [
      t.code(a.condition),
      t.code(a.ablated),
      t.code(a.role),
      t.code(a.replacement),
      t.code(a.output),
      _bool(a.flipped),
      t.code(a.error),
    ]),
    t.code(pair.runId),
    t.code(pair.pairId),
    _bool(pair.helpfulExposed),
    _bool(pair.riskExposed),
    options.trajectory,
  ];
}

/**
 * The pair summary of a detail line, with its encoded sidecar line (or null) in `trajectory`
 * for the caller to resolve against the page's definitions.
 */
export function decodePairDetail(options: {
  detail: unknown[];
  strings: readonly string[];
  labels: PairLabels;
}): Omit<PairSummary, "trajectory"> & { trajectory: Record<string, unknown> | null } {
  const { detail: d, strings, labels } = options;
  const s = (c: number) => _str(strings, c);
  return {
    ...labels,
    runId: s(d[3] as number) ?? "",
    pairId: s(d[4] as number) ?? "",
    helpfulExposed: _unbool(d[5] as number),
    riskExposed: _unbool(d[6] as number),
    clean: _unrun(d[0] as _Run | 0, strings),
    poisoned: _unrun(d[1] as _Run | 0, strings),
    ablations: (d[2] as number[][]).map((a): AblationSummary => ({
      condition: s(a[0]) ?? "",
      ablated: s(a[1]) ?? "",
      role: s(a[2]) ?? "background",
      replacement: s(a[3]),
      output: s(a[4]),
      flipped: _unbool(a[5]),
      error: s(a[6]),
    })),
    trajectory: d[7] ? d[7] as Record<string, unknown> : null,
  };
}
