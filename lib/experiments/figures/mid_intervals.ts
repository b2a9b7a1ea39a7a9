/** The kit's MID figure (`mid_intervals`): the paired effect of the risk trace at each stage. */
import type pl from "nodejs-polars";
import { compactSummary } from "../../figures/compact_summary.ts";
import { displayFigure } from "../../figures/display_figure.ts";
import { displayTable } from "../../figures/display_table.ts";
import { fixed, orderPolicies } from "../../figures/labels.ts";
import { midFigure } from "../../figures/mid_figure.ts";
import { summarize } from "../../stats/summarize.ts";
import { withBackend } from "../backend.ts";
import type { ExperimentResult } from "../stage_experiments.ts";
import { _simulatorNote } from "./_notes.ts";
import { _formatKey, type FigureResult } from "./figure_result.ts";

/** Resamples of the pooled MID intervals (fixed, so notebooks and reproduce agree). */
export const MID_RESAMPLES = 1000;

const _X = { writing: "thetaW", management: "policy", retrieval: "thetaR" } as const;

/**
 * MID of one stage sweep pooled over agents, per dataset, attack and operating point, with the
 * interval columns of `summarize` and a `backend` column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "../stage_experiments.ts";
 * import { midTable } from "./mid_intervals.ts";
 * const result = await stageExperiment({ stage: "management", n: 2, resamples: 10 });
 * const t = midTable({ stage: "management", result });
 * assert.ok(t.columns.includes("midAsrLo"));
 * ```
 */
export function midTable(options: {
  /** The stage. */
  stage: keyof typeof _X;
  /** Its sweep. */
  result: ExperimentResult;
  /** Run seed of the intervals; default 0. */
  seed?: number;
}): pl.DataFrame {
  const { stage, result } = options;
  const summary = summarize(result.rows as unknown as Record<string, unknown>[], {
    by: ["dataset", "attack", _X[stage]],
    resamples: MID_RESAMPLES,
    seed: options.seed ?? 0,
  });
  return withBackend({ summary, rows: result.rows });
}

/**
 * The MID figure of the three stage sweeps, with `mid_writing`, `mid_management` and
 * `mid_retrieval` CSVs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "../stage_experiments.ts";
 * import { midIntervals } from "./mid_intervals.ts";
 * const run = (stage: "writing" | "management" | "retrieval") => stageExperiment({ stage, n: 2, resamples: 10, grid: stage === "management" ? undefined : [0, 1] });
 * const fig = await midIntervals({ results: { writing: await run("writing"), management: await run("management"), retrieval: await run("retrieval") } });
 * assert.equal(fig.name, "mid_intervals");
 * ```
 */
export function midIntervals(options: {
  /** The three stage sweeps. */
  results: Record<keyof typeof _X, ExperimentResult>;
  /** Seed of the intervals; default 0. */
  seed?: number;
}): Promise<FigureResult> {
  const { results } = options;
  const tables = {
    writing: midTable({ stage: "writing", result: results.writing, seed: options.seed }),
    management: midTable({ stage: "management", result: results.management, seed: options.seed }),
    retrieval: midTable({ stage: "retrieval", result: results.retrieval, seed: options.seed }),
  };
  const rows = [...results.writing.rows, ...results.management.rows, ...results.retrieval.rows];
  const method = tables.writing.columns.includes("ciMethod")
    ? String(tables.writing.getColumn("ciMethod").get(0))
    : undefined;
  const element = midFigure({
    summaries: tables,
    agentLabel: results.writing.agentLabel,
    method,
    note: _simulatorNote(rows),
  });
  const management = tables.management.toRecords();
  return Promise.resolve({
    name: "mid_intervals",
    figure: displayFigure({ name: "mid_intervals", element }),
    summary: displayTable({
      title: `MID (ASR) by policy, agents pooled (${results.writing.agentLabel})`,
      frame: compactSummary({
        summary: management,
        x: "policy",
        categories: orderPolicies(management.map((r) => String(r.policy))),
        keys: [["dataset", "dataset"], ["attack", "attack"]],
        format: _formatKey,
        metrics: ["midAsr", "midUtility"],
      }),
      digits: 2,
      caption: `Intervals in mid_*.csv; e.g. ${
        management.slice(0, 1).map((r) =>
          `${r.attack} ${r.policy}: MID (ASR) ${fixed(r.midAsr)} [${fixed(r.midAsrLo)}, ${
            fixed(r.midAsrHi)
          }]`
        ).join("")
      }.`,
    }),
    csv: {
      mid_writing: tables.writing,
      mid_management: tables.management,
      mid_retrieval: tables.retrieval,
    },
    rows,
  });
}
