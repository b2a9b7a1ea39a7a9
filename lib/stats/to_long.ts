/** Tidy (long) form of a summary or across-agents frame, one row per metric, for plotting. */
import pl from "nodejs-polars";
import { SUMMARY_METRICS } from "./summarize.ts";

const _COUNTERS = [
  "pairs",
  "instances",
  "errors",
  "unpaired",
  "u0Runs",
  "u0Errors",
  "seed",
  "agents",
];

/**
 * Reshape to columns: the grouping columns, `metric`, `estimate`, `lo`, `hi`, and from a summary
 * `ciMethod`. From a summary, `lo`/`hi` are the interval bounds and `ciMethod` names their
 * method; from {@link acrossAgents} output, `estimate` is the median and `lo`/`hi` are the
 * 25th and 75th percentiles.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { toLong } from "./to_long.ts";
 * const s = pl.DataFrame({ stage: ["writing"], asr: [0.3], asrLo: [0.2], asrHi: [0.4] });
 * const long = toLong(s);
 * assert.deepEqual(long.columns, ["stage", "metric", "estimate", "lo", "hi"]);
 * assert.equal(long.getColumn("metric").get(0), "asr");
 * ```
 */
export function toLong(frame: pl.DataFrame): pl.DataFrame {
  const parts: [string, string, string, string, string | null][] = [];
  for (const m of SUMMARY_METRICS) {
    if (frame.columns.includes(`${m}Lo`)) {
      const method = frame.columns.includes(`${m}CiMethod`) ? `${m}CiMethod` : null;
      parts.push([m, m, `${m}Lo`, `${m}Hi`, method]);
    } else if (frame.columns.includes(`${m}Median`)) {
      parts.push([m, `${m}Median`, `${m}P25`, `${m}P75`, null]);
    }
  }
  if (parts.length === 0) {
    throw new RangeError(`Cannot reshape: no metric columns among ${frame.columns.join(", ")}`);
  }
  const used = new Set(parts.flatMap(([, e, l, h, c]) => [e, l, h, c ?? e]));
  // Companions of metrics this frame lacks are not keys either.
  const companions = new Set(SUMMARY_METRICS.flatMap((m) => [`${m}CiMethod`]));
  const keys = frame.columns.filter((c) =>
    !used.has(c) && !_COUNTERS.includes(c) && !companions.has(c)
  );
  const withMethod = parts.some(([, , , , c]) => c !== null);
  return pl.concat(
    parts.map(([name, e, l, h, c]) =>
      frame.select(
        ...keys,
        pl.lit(name).alias("metric"),
        pl.col(e).cast(pl.Float64).alias("estimate"),
        pl.col(l).cast(pl.Float64).alias("lo"),
        pl.col(h).cast(pl.Float64).alias("hi"),
        ...(withMethod
          ? [(c ? pl.col(c).cast(pl.Utf8) : pl.lit(null).cast(pl.Utf8)).alias("ciMethod")]
          : []),
      )
    ),
    { how: "vertical" },
  );
}
