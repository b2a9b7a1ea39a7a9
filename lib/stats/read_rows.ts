/** Read trial rows from JSONL into a frame of every column, checking the columns summaries read. */
import pl from "nodejs-polars";
import { COLUMN_KINDS, type ColumnKind, polarsDtype } from "./_row_columns.ts";
import { explainFile, firstRow } from "./_scan_rows.ts";
import { REQUIRED_COLUMNS } from "./summary_groups.ts";

/**
 * Read a JSONL file of trial rows (one object per line) into a frame with every column.
 *
 * Parsing is done by Polars in native code: the columns of the row contract get their declared
 * dtypes (strings as Utf8, `thetaW` Float64 even when every value is whole, `correct` Bool even
 * when the first lines are null), other columns are inferred from the first 10,000 lines. A
 * million full TrialRow rows (about 630 MB) take several seconds and over a GB; to summarise a
 * file, use summarizeFile, which reads only the columns a summary needs. Checks as
 * summarizeFile: every column in {@link REQUIRED_COLUMNS} on line 1; values of declared columns
 * of their type; instanceId, pairId and condition on every line, condition clean, poisoned or
 * nomemory. Each failure is a TypeError naming the line and the column. A row lacking
 * `correct`, `matchesTarget` or `error` reads as null there, so it counts as an error row,
 * never as a failure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRows } from "./read_rows.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, JSON.stringify({ instanceId: "i", pairId: "p",
 *   condition: "clean", correct: true, matchesTarget: false, error: null }) + "\n");
 * assert.equal(readRows(path).height, 1);
 * await Deno.remove(path);
 * ```
 */
export function readRows(path: string): pl.DataFrame {
  const first = firstRow(path);
  for (const c of REQUIRED_COLUMNS) {
    if (!(c in first)) {
      throw new TypeError(`Cannot read rows from ${path}: line 1 lacks required column "${c}"`);
    }
  }
  const kinds: Record<string, ColumnKind> = Object.fromEntries(
    Object.keys(first).filter((c) => c in COLUMN_KINDS).map((c) => [c, COLUMN_KINDS[c]]),
  );
  const overrides = Object.fromEntries(
    Object.entries(kinds).map((
      [c, kind],
    ) => [c, kind === "string" ? pl.Utf8 : polarsDtype(kind, c)]),
  );
  let df: pl.DataFrame;
  try {
    // scanJson, not readJSON: the latter fails under Deno in nodejs-polars 0.25.2.
    df = pl.scanJson(path, { inferSchemaLength: 10_000, schemaOverrides: overrides } as never)
      .collectSync();
  } catch (e) {
    const why = explainFile(path, kinds, 0) ?? (e as Error).message.split("\n")[0];
    throw new TypeError(`Cannot read rows from ${path}: ${why}`);
  }
  const bad = df.withRowIndex("_line", 0).filter(
    pl.col("instanceId").isNull()
      .or(pl.col("pairId").isNull())
      .or(pl.col("condition").isNull())
      .or(pl.col("condition").cast(pl.Utf8).isIn(["clean", "poisoned", "nomemory"]).not()),
  ).select("_line").head(1);
  if (bad.height > 0) {
    const row = Number(bad.getColumn("_line").get(0));
    const why = explainFile(path, kinds, row) ?? `row ${row + 1} is invalid`;
    throw new TypeError(`Cannot read rows from ${path}: ${why}`);
  }
  return df;
}
