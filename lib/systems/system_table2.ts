/** Table 2 from system rows: RSR, clean and poisoned utility and ASR against K, long form. */
import pl from "nodejs-polars";
import type { SystemRow } from "../model/system_row.ts";
import { _labeller, _share } from "./_rates.ts";

/**
 * Long rows (system, metric, k, value) for one management mode (the paper's Table 2 is M0).
 * RSR at K (Section 3 of the paper) is the share of clean and poisoned rows whose target record,
 * the one carrying the evidence (a record tracing to a unit that asserts y* for clean rows,
 * y_adv for poisoned rows), is in the top K; with `traceRsr`, metric `rsrTrace` adds the looser
 * count (a record tracing to any unit of the helpful or risk trace) for comparison. Utilities
 * and ASR as in Table 1. Error rows are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemTable2 } from "./system_table2.ts";
 * assert.deepEqual(systemTable2({ rows: [] }).columns, ["system", "metric", "k", "value"]);
 * ```
 */
export function systemTable2(options: {
  /** Rows from `measureSystem` or `deno task systems`. */
  rows: readonly SystemRow[];
  /** Management mode; default "M0". */
  mode?: "M0" | "M1";
  /** Add metric `rsrTrace` (the looser trace count); default false. */
  traceRsr?: boolean;
}): pl.DataFrame {
  const rows = options.rows.filter((r) => r.management === (options.mode ?? "M0"));
  const out: { system: string; metric: string; k: number; value: number }[] = [];
  const label = _labeller(rows);
  for (const system of [...new Set(rows.map(label))]) {
    const mine = rows.filter((r) => label(r) === system);
    for (const k of [...new Set(mine.map((r) => r.k))].sort((a, b) => a - b)) {
      const atK = mine.filter((r) => r.k === k && r.condition !== "nomemory");
      const clean = atK.filter((r) => r.condition === "clean");
      const poisoned = atK.filter((r) => r.condition === "poisoned");
      out.push(
        { system, metric: "rsr", k, value: _share(atK, (r) => r.rsrHit) },
        ...(options.traceRsr
          ? [{ system, metric: "rsrTrace", k, value: _share(atK, (r) => r.traceHit) }]
          : []),
        { system, metric: "cleanUtility", k, value: _share(clean, (r) => r.correct) },
        { system, metric: "poisonedUtility", k, value: _share(poisoned, (r) => r.correct) },
        { system, metric: "asr", k, value: _share(poisoned, (r) => r.matchesTarget) },
      );
    }
  }
  if (out.length === 0) return pl.DataFrame({ system: [], metric: [], k: [], value: [] });
  return pl.DataFrame(out).withColumns(
    pl.col("k").cast(pl.Int32),
    pl.col("value").cast(pl.Float64),
  );
}
