/**
 * Tables 1 and 2 and the top-K curves of existing memory systems (`topk_curves`,
 * `table1_existing_systems`, `table2_retrieval_budget`): the paper's values, and the kit's
 * beside them when rows of `deno task systems` are given.
 */
import pl from "nodejs-polars";
import { displayFigure } from "./display_figure.ts";
import { displayTable } from "./display_table.ts";
import { table1Frame, table2Frame } from "./paper_tables.ts";
import { topKFigure } from "./top_k_figure.ts";
import { type FigureResult, paperValues } from "./figure_result.ts";

/**
 * The existing-systems figure and tables.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { existingSystems } from "./existing_systems.ts";
 * const fig = await existingSystems({});
 * assert.deepEqual(Object.keys(fig.csv), ["table1_existing_systems", "table2_retrieval_budget"]);
 * assert.ok(fig.csv.table1_existing_systems.columns.includes("backend"));
 * ```
 */
export async function existingSystems(options: {
  /** The kit's Table 1 rows (`systemTable1`); default none (not measured offline). */
  table1?: pl.DataFrame;
  /** The kit's Table 2 rows in long form (`systemTable2`); default none. */
  table2?: pl.DataFrame;
  /** What produced them: "pipeline check" or the model id; default "kit". */
  backend?: string;
}): Promise<FigureResult> {
  const paper = await paperValues();
  const label = options.backend === "pipeline check" ? "kit: pipeline check" : "kit";
  const backend = (frame: pl.DataFrame) =>
    frame.withColumns(
      pl.when(pl.col("source").eq(pl.lit("paper"))).then(pl.lit("paper (published)"))
        .when(pl.col("source").str.contains("not measured")).then(pl.lit("not measured"))
        .otherwise(pl.lit(options.backend ?? "kit")).alias("backend"),
    );
  const t1 = backend(table1Frame({ paper: paper.table1, measured: options.table1, label }));
  const t2 = backend(table2Frame({ paper: paper.table2, measured: options.table2, label }));
  const element = topKFigure({
    paper: paper.table2,
    measured: options.table2,
    pipelineCheck: options.backend === "pipeline check",
  });
  return {
    name: "topk_curves",
    figure: displayFigure({ name: "topk_curves", element }),
    summary: displayTable({
      title: "Table 1: existing memory systems (WR in %, utilities and ASR at K = 5)",
      frame: t1,
      digits: 3,
    }),
    besidePaper: displayTable({ title: "Table 2: retrieval budget K (M0, |B| = 100)", frame: t2 }),
    csv: { table1_existing_systems: t1, table2_retrieval_budget: t2 },
    rows: [],
  };
}
