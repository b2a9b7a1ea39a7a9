/** The paper's published numbers (data/paper/*.csv), loaded for drawing beside the kit's own. */
import pl from "nodejs-polars";

/** One value or range the paper states for a figure. */
export interface PaperValue {
  figure: string;
  stage: string;
  /** Panel it applies to; "" means every panel. */
  panel: string;
  /** Operating point, as written in the CSV (a number or a policy name). */
  x: string;
  metric: string;
  lo: number;
  hi: number;
  note: string;
}

/** The paper's values: figure ranges, Table 1 and Table 2 (long form). */
export interface PaperValues {
  figures: PaperValue[];
  table1: pl.DataFrame;
  table2: pl.DataFrame;
}

/** Folder of the shipped CSVs, beside this module's repository root. */
export const PAPER_DIR = new URL("../../data/paper/", import.meta.url);

/**
 * Load the paper's values from `dir` (default {@link PAPER_DIR}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPaperValues } from "./paper_values.ts";
 * const paper = await loadPaperValues();
 * assert.equal(paper.table1.height, 8);
 * assert.ok(paper.figures.some((v) => v.figure === "figure3"));
 * ```
 */
export async function loadPaperValues(options: {
  /** Folder holding figure_values.csv, table1.csv and table2.csv; default {@link PAPER_DIR}. */
  dir?: URL | string;
} = {}): Promise<PaperValues> {
  const dir = options.dir ?? PAPER_DIR;
  const read = async (name: string) => {
    const url = typeof dir === "string" ? `${dir.replace(/\/?$/, "/")}${name}` : new URL(name, dir);
    return pl.readCSV(await Deno.readTextFile(url), { inferSchemaLength: 0 });
  };
  const figures = (await read("figure_values.csv")).toRecords().map((r) => ({
    figure: String(r.figure),
    stage: String(r.stage),
    panel: r.panel === null ? "" : String(r.panel),
    x: String(r.x),
    metric: String(r.metric),
    lo: Number(r.lo),
    hi: Number(r.hi),
    note: r.note === null ? "" : String(r.note),
  }));
  const table1 = (await read("table1.csv")).withColumns(
    ...["wr", "wrSd", "u0", "cleanUtility", "poisonedUtility", "asr"].map((c) =>
      pl.col(c).cast(pl.Float64)
    ),
  );
  const table2 = (await read("table2.csv")).withColumns(
    pl.col("k").cast(pl.Int32),
    pl.col("value").cast(pl.Float64),
  );
  return { figures, table1, table2 };
}

/**
 * The value or range the paper states for one figure, operating point and metric (the figures'
 * diamonds), or null when its text states none there. `panel` picks a panel-specific value (an
 * attack, a ranker, a policy); without it, a value stated for every panel.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPaperValues, paperValue } from "./paper_values.ts";
 * const { figures } = await loadPaperValues();
 * assert.deepEqual(paperValue({ figures, figure: "figure3", stage: "writing", x: 1, metric: "asr" }), { lo: 0.37, hi: 0.64 });
 * assert.deepEqual(paperValue({ figures, figure: "figure5", x: 0.5, metric: "cleanUtility", panel: "random" }), { lo: 0.16, hi: 0.16 });
 * assert.equal(paperValue({ figures, figure: "figure3", stage: "writing", x: 0.7, metric: "asr" }), null);
 * ```
 */
export function paperValue(options: {
  /** The paper's figure values (`loadPaperValues().figures`). */
  figures: readonly PaperValue[];
  /** Figure id as in figure_values.csv ("figure3", "figure5", "asymmetric", ...). */
  figure: string;
  /** Stage, where the figure has several (Figure 3). */
  stage?: string;
  /** Operating point: a number or a policy name. */
  x: number | string;
  metric: string;
  /** Panel the value belongs to; default "" (stated for every panel). */
  panel?: string;
}): { lo: number; hi: number } | null {
  const found = options.figures.find((p) =>
    p.figure === options.figure && (options.stage === undefined || p.stage === options.stage) &&
    p.metric === options.metric && p.panel.toLowerCase() === (options.panel ?? "").toLowerCase() &&
    (typeof options.x === "number" ? Number(p.x) === options.x : p.x === options.x)
  );
  return found ? { lo: found.lo, hi: found.hi } : null;
}
