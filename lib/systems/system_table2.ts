/** Table 2 from system rows: RSR, risk-record RSR, utilities and ASR against K, long form. */
import pl from "nodejs-polars";
import type { SystemRow } from "../schema/system_row.ts";
import { errorFreeShare, instanceShare, systemLabeller } from "./_rates.ts";

/**
 * Long rows (system, metric, k, value) for one management mode (the paper's Table 2 is M0).
 * Both retrieval success rates are shares of instances (an instance's clean or poisoned
 * contexts, over its attacks and trials, weigh as one; error rows left out):
 * - `rsr`, RSR at K as Section 4.4 of the paper reads it for Table 2: the share of instances whose
 *   helpful record, the one carrying the evidence for y* (a record tracing to a unit that asserts
 *   y*), is in the clean context's top K;
 * - `rsrRisk`, the risk-record RSR of Section 3.4: the share of instances whose risk record, the
 *   one carrying the evidence for y_adv, is in the poisoned context's top K;
 * - with `traceRsr`, `rsrTrace` adds the looser count beside `rsr` (a record tracing to any unit of
 *   the helpful trace, asserting or not).
 * Utilities and ASR are shares of rows, as in Table 1.
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
  const label = systemLabeller(rows);
  for (const system of [...new Set(rows.map(label))]) {
    const mine = rows.filter((r) => label(r) === system);
    for (const k of [...new Set(mine.map((r) => r.k))].sort((a, b) => a - b)) {
      const clean = mine.filter((r) => r.k === k && r.condition === "clean");
      const poisoned = mine.filter((r) => r.k === k && r.condition === "poisoned");
      out.push(
        { system, metric: "rsr", k, value: instanceShare(clean, (r) => r.rsrHit) },
        { system, metric: "rsrRisk", k, value: instanceShare(poisoned, (r) => r.rsrHit) },
        ...(options.traceRsr
          ? [{ system, metric: "rsrTrace", k, value: instanceShare(clean, (r) => r.traceHit) }]
          : []),
        { system, metric: "cleanUtility", k, value: errorFreeShare(clean, (r) => r.correct) },
        { system, metric: "poisonedUtility", k, value: errorFreeShare(poisoned, (r) => r.correct) },
        { system, metric: "asr", k, value: errorFreeShare(poisoned, (r) => r.matchesTarget) },
      );
    }
  }
  if (out.length === 0) return pl.DataFrame({ system: [], metric: [], k: [], value: [] });
  return pl.DataFrame(out).withColumns(
    pl.col("k").cast(pl.Int32),
    pl.col("value").cast(pl.Float64),
  );
}
