/**
 * What a figure spec returns, the same to `deno task reproduce` and to the notebooks: the figure,
 * its tables and its CSV frames; `saveFigure` writes them (NAME.svg, NAME.png, each CSV).
 */
import type pl from "nodejs-polars";
import type { DisplayFigure } from "./display_figure.ts";
import type { DisplayTable } from "./display_table.ts";
import { exportFigure } from "./export_figure.ts";
import { ATTACK_LABEL, DATASET_LABEL } from "./labels.ts";
import { loadPaperValues, type PaperValues } from "./paper_values.ts";
import { writeFileAtomic } from "../io/atomic_write.ts";
import { spreadsheetSafeFrame } from "../io/spreadsheet_safe.ts";
import type { TrialRow } from "../schema/trial_row.ts";

/** One figure, built by its spec. */
export interface FigureResult {
  /** File name without extension, e.g. "figure3_writing". */
  name: string;
  /** The figure (displays in a notebook cell; `figure.svg` is the file's bytes). */
  figure: DisplayFigure;
  /** One line per facet and metric, one column per operating point: what reproduce prints. */
  summary: DisplayTable;
  /** The paper's values beside the kit's median and IQR, where the figure has paper values. */
  besidePaper?: DisplayTable;
  /** CSV files by name (without `.csv`): the per-agent summaries, each with a `backend` column. */
  csv: Record<string, pl.DataFrame>;
  /** The rows behind it (empty for figures of published values only). */
  rows: TrialRow[];
}

let _paper: Promise<PaperValues> | undefined;

/** The paper's values, loaded once per process. */
export function paperValues(): Promise<PaperValues> {
  _paper ??= loadPaperValues();
  return _paper;
}

/** How table keys show: attacks and datasets by their names in the paper. */
export function formatKey(column: string, value: unknown): string {
  if (column === "attack") return ATTACK_LABEL[String(value)] ?? String(value);
  if (column === "dataset") {
    return DATASET_LABEL[String(value)] ?? String(value).replace(/^.*\//, "");
  }
  return String(value);
}

/**
 * Write a figure's files into `dir`: NAME.svg (exactly `figure.svg`), NAME.png and every CSV;
 * each through a temporary name. Returns the paths written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asymmetricExposure } from "../experiments/rq2_figures.ts";
 * import { saveFigure } from "./figure_result.ts";
 * const result = await asymmetricExposure({ n: 2, resamples: 10, thetaRRisk: [0.2, 1] });
 * const dir = await Deno.makeTempDir();
 * const paths = await saveFigure({ dir, result });
 * assert.equal(await Deno.readTextFile(`${dir}/asymmetric_exposure.svg`), result.figure.svg);
 * assert.ok(paths.some((p) => p.endsWith("asymmetric_exposure.csv")));
 * ```
 */
export async function saveFigure(options: {
  /** Output folder (created when missing). */
  dir: string;
  /** The figure. */
  result: FigureResult;
  /** PNG pixels per SVG unit; default 2. */
  scale?: number;
}): Promise<string[]> {
  const { dir, result } = options;
  const written = await exportFigure(result.figure, {
    dir,
    name: result.name,
    scale: options.scale,
  });
  for (const [name, frame] of Object.entries(result.csv)) {
    const path = `${dir}/${name}.csv`;
    await writeFileAtomic({ path, data: spreadsheetSafeFrame(frame).writeCSV().toString() });
    written.push(path);
  }
  return written;
}
