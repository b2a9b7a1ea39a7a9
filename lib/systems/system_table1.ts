/** Table 1 from system rows: WR, U0 and clean/poisoned utility and ASR per system and mode. */
import pl from "nodejs-polars";
import { writingRetention } from "../stats/writing_retention.ts";
import type { SystemRow } from "../model/system_row.ts";
import { _labeller, _share } from "./_rates.ts";

/**
 * One row per system and mode, in the paper's Table 1 columns (`wr` and `wrSd` in percent):
 * - WR: mean and sample sd over writing trials, a trial being one trace written into one memory
 *   (the helpful trace, read from clean rows, and the risk trace, from poisoned rows), with
 *   management off (M0 rows; all rows when there are none); a unit counts as retained only when a
 *   live record traces back to it. Table 1 prints WR once per system, on its M0 line.
 * - U0: correct share of no-memory rows; utilities and ASR: correct and target-matching shares
 *   of clean and poisoned rows at `k`. Error rows are left out. Point estimates only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemTable1 } from "./system_table1.ts";
 * assert.equal(systemTable1({ rows: [] }).height, 0);
 * ```
 */
export function systemTable1(options: {
  /** Rows from `measureSystem` or `deno task systems`. */
  rows: readonly SystemRow[];
  /** Retrieval budget of the utility columns; default 5 (the paper's). */
  k?: number;
}): pl.DataFrame {
  const k = options.k ?? 5;
  const out: Record<string, unknown>[] = [];
  const label = _labeller(options.rows);
  const systems = [...new Set(options.rows.map(label))];
  for (const system of systems) {
    const mine = options.rows.filter((r) => label(r) === system && r.error === null);
    const kMin = Math.min(...mine.map((r) => r.k));
    const m0 = mine.filter((r) => r.management === "M0");
    const writing = (m0.length > 0 ? m0 : mine).filter((r) => r.k === kMin);
    const trials = [
      ...writing.filter((r) => r.condition === "clean")
        .map((r) => ({ retained: r.admittedHelpful, units: r.unitsHelpful })),
      ...writing.filter((r) => r.condition === "poisoned")
        .map((r) => ({ retained: r.admittedRisk, units: r.unitsRisk })),
    ];
    const wr = trials.length > 0 ? writingRetention(trials) : { mean: NaN, sd: NaN };
    for (const mode of ["M0", "M1"] as const) {
      const at = mine.filter((r) => r.management === mode);
      if (at.length === 0) continue;
      const atK = at.filter((r) => r.k === k);
      const clean = atK.filter((r) => r.condition === "clean");
      const poisoned = atK.filter((r) => r.condition === "poisoned");
      out.push({
        system,
        mode,
        wr: mode === "M0" || m0.length === 0 ? wr.mean * 100 : null,
        wrSd: mode === "M0" || m0.length === 0 ? wr.sd * 100 : null,
        u0: _share(at.filter((r) => r.condition === "nomemory"), (r) => r.correct),
        cleanUtility: _share(clean, (r) => r.correct),
        poisonedUtility: _share(poisoned, (r) => r.correct),
        asr: _share(poisoned, (r) => r.matchesTarget),
      });
    }
  }
  const cols = ["wr", "wrSd", "u0", "cleanUtility", "poisonedUtility", "asr"];
  if (out.length === 0) {
    return pl.DataFrame({ system: [], mode: [], ...Object.fromEntries(cols.map((c) => [c, []])) });
  }
  return pl.DataFrame(out).withColumns(...cols.map((c) => pl.col(c).cast(pl.Float64)));
}
