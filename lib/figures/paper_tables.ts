/** Tables 1 and 2 as frames: the paper's values beside the kit's, when the kit has them. */
import pl from "nodejs-polars";

/**
 * Table 1 side by side: the paper's row for each system and mode, then the kit's (null until
 * the existing-systems adapters measure them), with a `source` column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPaperValues } from "./paper_values.ts";
 * import { table1Frame } from "./paper_tables.ts";
 * const { table1 } = await loadPaperValues({});
 * assert.equal(table1Frame({ paper: table1 }).height, 16);
 * ```
 */
export function table1Frame(options: {
  /** The paper's Table 1 (from `loadPaperValues`). */
  paper: pl.DataFrame;
  /** The kit's rows in the same columns; default none ("kit: not measured offline"). */
  measured?: pl.DataFrame;
  /** Source label of the measured rows; default "kit" (pipeline checks say so). */
  label?: string;
}): pl.DataFrame {
  const paper = options.paper.withColumns(pl.lit("paper").alias("source"));
  const kit = options.measured?.withColumns(pl.lit(options.label ?? "kit").alias("source")) ??
    options.paper.select(
      "system",
      "mode",
      ...["wr", "wrSd", "u0", "cleanUtility", "poisonedUtility", "asr"].map((c) =>
        pl.lit(null).cast(pl.Float64).alias(c)
      ),
      pl.lit("kit: not measured offline").alias("source"),
    );
  const cols = [
    "system",
    "mode",
    "source",
    "wr",
    "wrSd",
    "u0",
    "cleanUtility",
    "poisonedUtility",
    "asr",
  ];
  return pl.concat([paper.select(...cols), kit.select(...cols)], { how: "vertical" })
    .withColumns(pl.col("source").str.startsWith("paper").not().alias("_kit"))
    .sort(["system", "mode", "_kit"]).drop("_kit");
}

/**
 * Table 2 side by side: one row per system, metric and source; one column per K.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPaperValues } from "./paper_values.ts";
 * import { table2Frame } from "./paper_tables.ts";
 * const { table2 } = await loadPaperValues({});
 * assert.deepEqual(table2Frame({ paper: table2 }).columns.slice(3), ["K=1", "K=3", "K=5", "K=7"]);
 * ```
 */
export function table2Frame(options: {
  /** The paper's Table 2 in long form (from `loadPaperValues`). */
  paper: pl.DataFrame;
  /** The kit's long rows (system, metric, k, value); default none. */
  measured?: pl.DataFrame;
  /** Source label of the measured rows; default "kit" (pipeline checks say so). */
  label?: string;
}): pl.DataFrame {
  const long = pl.concat([
    options.paper.withColumns(pl.lit("paper").alias("source")),
    ...(options.measured
      ? [options.measured.withColumns(pl.lit(options.label ?? "kit").alias("source"))]
      : []),
  ], { how: "vertical" }).withColumns(pl.format("K={}", pl.col("k")).alias("K"));
  const wide = long.pivot("value", { index: ["system", "metric", "source"], on: "K" });
  // Paper and kit interleaved: each system and metric in the paper's order, the paper's row first.
  const records = options.paper.toRecords();
  const systems = [...new Set(records.map((r) => String(r.system)))];
  const metrics = [...new Set(records.map((r) => String(r.metric)))];
  const rank = (list: string[], v: unknown) => {
    const i = list.indexOf(String(v));
    return i === -1 ? list.length : i;
  };
  const recs = wide.toRecords();
  const sorted = wide.withColumns(
    pl.Series("_s", recs.map((r) => rank(systems, r.system))),
    pl.Series("_m", recs.map((r) => rank(metrics, r.metric))),
    pl.Series("_k", recs.map((r) => (String(r.source).startsWith("paper") ? 0 : 1))),
  ).sort(["_s", "_m", "_k"]);
  return sorted.select("system", "metric", "source", "K=1", "K=3", "K=5", "K=7");
}
