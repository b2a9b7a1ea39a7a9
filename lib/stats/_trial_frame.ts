/** Settings and inputs of a summary: validated options and trial rows as typed Polars columns. */
import pl from "nodejs-polars";
import { CI_CHOICES, type CiChoice } from "./interval.ts";
import {
  COLUMN_KINDS,
  type ColumnKind,
  columnMisfit,
  kindOf,
  NON_NULL_COLUMNS,
  polarsDtype,
  ROW_CONDITIONS,
  shortJson,
} from "./_row_columns.ts";
import type { SummarySettings } from "./_summarize_frame.ts";
import { DEFAULT_GROUP_COLUMNS, REQUIRED_COLUMNS } from "./summary_groups.ts";

/** The options {@link summarySettings} reads. */
export interface _SettingsInput {
  resamples?: number;
  ci?: CiChoice;
  seed?: number;
  level?: number;
}

/** The settings of a summary with their defaults, validated (RangeError/TypeError naming each). */
export function summarySettings(options: _SettingsInput): SummarySettings {
  const resamples = options.resamples ?? 10_000;
  const ci = options.ci ?? "auto";
  const seed = options.seed ?? 0;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(
      `Cannot summarize: resamples must be a positive integer, got ${resamples}`,
    );
  }
  if (!(CI_CHOICES as readonly unknown[]).includes(ci)) {
    throw new RangeError(
      `Cannot summarize: ci must be one of ${CI_CHOICES.join(", ")}, got ${String(ci)}`,
    );
  }
  if (!Number.isInteger(seed)) {
    throw new TypeError(`Cannot summarize: seed must be an integer, got ${seed}`);
  }
  if (typeof level !== "number" || !(level > 0 && level < 1)) {
    throw new RangeError(`Cannot summarize: level must be in (0, 1), got ${level}`);
  }
  return { resamples, ci, seed, level };
}

/** Throw if a required column or a `by` column is missing. */
export function checkColumns(by: readonly string[], columns: readonly string[], where: string) {
  for (const c of REQUIRED_COLUMNS) {
    if (!columns.includes(c)) {
      throw new TypeError(`Cannot summarize: ${where} lacks required column "${c}"`);
    }
  }
  for (const c of by) {
    if (!columns.includes(c)) {
      throw new RangeError(
        `Cannot summarize: by column "${c}" does not exist; columns are ${columns.join(", ")}`,
      );
    }
  }
}

/** The default grouping: every column of {@link DEFAULT_GROUP_COLUMNS} present. */
export function defaultGrouping(columns: readonly string[]): string[] {
  return DEFAULT_GROUP_COLUMNS.filter((c) => columns.includes(c));
}

/**
 * The columns a summary reads and their kinds: the grouping columns (`by` and every default
 * grouping column present, which pairs share), ids, condition, outcomes and `trial`. Declared
 * kinds come from the row contract; another grouping column takes the kind of `sample(c)`.
 */
export function neededKinds(
  by: readonly string[],
  columns: readonly string[],
  sample: (column: string) => unknown,
): Record<string, ColumnKind> {
  const needed = [
    ...new Set([
      ...by,
      ...defaultGrouping(columns),
      ...REQUIRED_COLUMNS,
      ...(columns.includes("trial") ? ["trial"] : []),
      // Record-level counterfactual reruns: left out of pairs, summarized as flip rates.
      ...["counterfactualOf", "ablatedRole"].filter((c) => columns.includes(c)),
    ]),
  ];
  return Object.fromEntries(needed.map((c) => {
    const kind = COLUMN_KINDS[c] ?? kindOf(sample(c));
    if (kind === null) {
      throw new TypeError(
        `Cannot summarize: by column "${c}" holds ${shortJson(sample(c))}; group on a column of ` +
          `strings, numbers or booleans`,
      );
    }
    return [c, kind];
  }));
}

/** Typed columns from row objects, each value checked: TypeError naming the row and column. */
export function frameFromRecords(
  rows: readonly Record<string, unknown>[],
  kinds: Record<string, ColumnKind>,
): pl.DataFrame {
  const series = Object.entries(kinds).map(([c, kind]) => {
    const values = rows.map((r, i) => {
      const v = r[c];
      const why = columnMisfit(c, kind, v);
      if (why) {
        throw new TypeError(
          `Cannot summarize: row ${i + 1}${why.startsWith("lacks") ? " " : ", "}${why}`,
        );
      }
      return v ?? null;
    });
    return _series(c, kind, values);
  });
  return pl.DataFrame(series);
}

function _series(c: string, kind: ColumnKind, values: unknown[]): pl.Series {
  const dtype = polarsDtype(kind, c);
  const base = kind === "string" ? pl.Utf8 : dtype;
  const s = pl.Series(c, values, base);
  return dtype === base ? s : s.cast(dtype);
}

const _NUMERIC = new Set([
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "Float32",
  "Float64",
]);
const _ACCEPTS: Record<ColumnKind, (variant: string) => boolean> = {
  string: (v) => v === "String" || v === "Utf8" || v === "Categorical" || v === "Null",
  boolean: (v) => v === "Bool" || v === "Null",
  number: (v) => _NUMERIC.has(v) || v === "Null",
  // Floats are accepted where every value is whole (JS numbers read into a frame are Float64).
  integer: (v) => _NUMERIC.has(v) || v === "Null",
};

/**
 * The needed columns of a frame cast to their declared dtypes: TypeError naming a column of the
 * wrong dtype, or the first row with a null id or condition or an unknown condition.
 */
export function frameFromFrame(df: pl.DataFrame, kinds: Record<string, ColumnKind>): pl.DataFrame {
  const cast = Object.entries(kinds).map(([c, kind]) => {
    const variant = String((df.getColumn(c).dtype as { variant?: string }).variant);
    if (!_ACCEPTS[kind](variant)) {
      throw new TypeError(
        `Cannot summarize: column "${c}" must hold ${kind} values, got dtype ${variant}`,
      );
    }
    if (kind === "integer" && variant.startsWith("Float")) {
      const odd = df.lazy().withRowIndex("_row").filter(pl.col(c).floor().neq(pl.col(c)))
        .head(1).collectSync().toRecords();
      if (odd.length > 0) {
        throw new TypeError(
          `Cannot summarize: row ${Number(odd[0]._row) + 1}, ${columnMisfit(c, kind, odd[0][c])}`,
        );
      }
    }
    const dtype = polarsDtype(kind, c);
    return kind === "string"
      ? pl.col(c).cast(pl.Utf8).cast(dtype).alias(c)
      : pl.col(c).cast(dtype).alias(c);
  });
  const out = df.select(...cast);
  let bad = pl.col("condition").cast(pl.Utf8).isIn([...ROW_CONDITIONS]).not();
  for (const c of NON_NULL_COLUMNS) bad = bad.or(pl.col(c).isNull());
  const first = out.lazy().withRowIndex("_row").filter(bad).head(1).collectSync().toRecords();
  if (first.length > 0) {
    const row = first[0];
    for (const c of ["instanceId", "pairId", "condition"]) {
      const why = columnMisfit(c, "string", row[c]);
      if (why) throw new TypeError(`Cannot summarize: row ${Number(row._row) + 1}, ${why}`);
    }
  }
  return out;
}
