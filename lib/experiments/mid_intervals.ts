/** The kit's MID figure (`mid_intervals`): the paired effect of the risk trace at each stage. */
import pl from "nodejs-polars";
import { compactSummary } from "../figures/compact_summary.ts";
import { displayFigure } from "../figures/display_figure.ts";
import { type DisplayTable, displayTable } from "../figures/display_table.ts";
import { AXIS_LABEL, fixed, orderPolicies } from "../figures/labels.ts";
import { midFigure } from "../figures/mid_figure.ts";
import { summarize } from "../stats/summarize.ts";
import { withBackend } from "./backend.ts";
import type { ExperimentResult } from "./stage_experiments.ts";
import { simulatorNote } from "../figures/figure_notes.ts";
import { type FigureResult, formatKey } from "../figures/figure_result.ts";

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
 * import { stageExperiment } from "./stage_experiments.ts";
 * import { midTable } from "./mid_intervals.ts";
 * const result = await stageExperiment({ stage: "management", n: 2, resamples: 10 });
 * const t = midTable({ stage: "management", result });
 * const rows = t.toRecords() as { policy: string; midAsr: number; midAsrLo: number; midAsrHi: number }[];
 * assert.deepEqual([...new Set(rows.map((r) => r.policy))].sort(), ["NC", "PQ", "SC", "UM"]);
 * assert.ok(rows.every((r) => r.midAsrLo <= r.midAsr && r.midAsr <= r.midAsrHi));
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
 * One stage's MID as a table to read: labelled columns, three decimals, interval bounds beside
 * each estimate, the interval method when the summary names one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "./stage_experiments.ts";
 * import { midDisplay } from "./mid_intervals.ts";
 * const result = await stageExperiment({ stage: "management", n: 2, resamples: 10 });
 * const { frame } = midDisplay({ stage: "management", result });
 * assert.deepEqual(frame.columns.slice(0, 5), ["dataset", "attack", "management policy", "MID (ASR)", "ASR lo"]);
 * assert.deepEqual(frame.getColumn("attack").toArray().slice(0, 1), ["MINJA"]); // as the paper writes it
 * ```
 */
export function midDisplay(options: {
  /** The stage. */
  stage: keyof typeof _X;
  /** Its sweep. */
  result: ExperimentResult;
  /** Seed of the intervals; default 0. */
  seed?: number;
}): DisplayTable {
  const table = midTable(options);
  const x = _X[options.stage];
  const records = table.toRecords();
  const order = options.stage === "management"
    ? orderPolicies(records.map((r) => String(r.policy)))
    : undefined;
  const rows = records.toSorted((a, b) =>
    String(a.attack).localeCompare(String(b.attack)) ||
    (order
      ? order.indexOf(String(a[x])) - order.indexOf(String(b[x]))
      : Number(a[x]) - Number(b[x]))
  ).map((r): Record<string, unknown> => ({
    dataset: formatKey("dataset", r.dataset),
    attack: formatKey("attack", r.attack),
    [AXIS_LABEL[x]]: String(r[x]),
    "MID (ASR)": r.midAsr as number | null,
    "ASR lo": r.midAsrLo as number | null,
    "ASR hi": r.midAsrHi as number | null,
    "MID (utility)": r.midUtility as number | null,
    "utility lo": r.midUtilityLo as number | null,
    "utility hi": r.midUtilityHi as number | null,
    pairs: String(r.pairs ?? ""),
    ...(r.midAsrCiMethod !== undefined && { method: String(r.midAsrCiMethod) }),
    backend: String(r.backend),
  }));
  const columns = Object.keys(rows[0] ?? {});
  return displayTable({
    title: `MID per operating point, agents pooled (${options.result.agentLabel})`,
    frame: pl.DataFrame(
      columns.map((c) =>
        /lo$|hi$|^MID/.test(c)
          ? pl.Series(c, rows.map((r) => r[c] as number | null), pl.Float64)
          : pl.Series(c, rows.map((r) => String(r[c])), pl.Utf8)
      ),
    ).select(...columns),
    caption:
      "MID > 0: the risk trace caused target decisions (ASR) or cost correct ones (utility); " +
      "lo and hi bound the interval.",
  });
}

/**
 * The MID figure of the three stage sweeps, with `mid_writing`, `mid_management` and
 * `mid_retrieval` CSVs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "./stage_experiments.ts";
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
  const element = midFigure({
    summaries: tables,
    agentLabel: results.writing.agentLabel,
    note: simulatorNote(rows),
  });
  const management = tables.management.toRecords();
  return Promise.resolve({
    name: "mid_intervals",
    figure: displayFigure({ name: "mid_intervals", element }),
    summary: displayTable({
      title: `MID by policy, agents pooled (${results.writing.agentLabel})`,
      frame: compactSummary({
        summary: management,
        x: "policy",
        categories: orderPolicies(management.map((r) => String(r.policy))),
        keys: [["dataset", "dataset"], ["attack", "attack"]],
        format: formatKey,
        metrics: ["midAsr", "midUtility"],
      }),
      digits: 2,
      caption: `Intervals in mid_*.csv; e.g. ${
        management.slice(0, 1).map((r) =>
          `${formatKey("attack", r.attack)} ${r.policy}: MID (ASR) ${fixed(r.midAsr)} [${
            fixed(r.midAsrLo)
          }, ${fixed(r.midAsrHi)}]`
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
