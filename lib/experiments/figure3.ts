/**
 * Figure 3 (RQ1): the three stage sweeps, drawn as one figure and as one figure per stage
 * column; the specs that `deno task reproduce` and notebooks 00 and 02-04 share.
 */
import { besidePaper } from "../figures/beside_paper.ts";
import { compactSummary } from "../figures/compact_summary.ts";
import { displayFigure } from "../figures/display_figure.ts";
import { displayTable, stackTables } from "../figures/display_table.ts";
import {
  drawFigure3Column as drawColumn,
  type Figure3Stage,
  figure3Stages,
} from "../figures/figure3_stages.ts";
import { AXIS_LABEL, orderPolicies, panelLabel } from "../figures/labels.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import type { ExperimentResult } from "./stage_experiments.ts";
import { joinSentences, simulatorNote } from "../figures/figure_notes.ts";
import { type FigureResult, formatKey, paperValues } from "../figures/figure_result.ts";

const _X = { writing: "thetaW", management: "policy", retrieval: "thetaR" } as const;
const _KEYS = [["dataset", "dataset"], ["attack", "attack"]] as const;

/**
 * The stages a sweep held fixed, as a caption names them ("UM, θr = 0.8, K = 5, |B| = 100").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fixedStages } from "./figure3.ts";
 * const row = { thetaW: 0.6, policy: "UM", thetaR: 0.8, k: 5, bankSize: 100, fill: "random" as const };
 * assert.equal(fixedStages({ rows: [row], stage: "writing" }), "UM, θr = 0.8, K = 5, |B| = 100");
 * ```
 */
export function fixedStages(options: {
  /** Rows of the sweep. */
  rows: readonly Pick<TrialRow, "thetaW" | "policy" | "thetaR" | "k" | "bankSize" | "fill">[];
  /** The stage it varied. */
  stage: Figure3Stage;
}): string {
  const r = options.rows[0];
  if (!r) return "";
  const parts = [
    options.stage !== "writing" ? `θw = ${r.thetaW}` : "",
    options.stage !== "management" ? r.policy : "",
    options.stage !== "retrieval" ? `θr = ${r.thetaR}` : "",
    `K = ${r.k}`,
    `|B| = ${r.bankSize}`,
    r.fill !== "random" ? `${r.fill} fill` : "",
  ];
  return parts.filter(Boolean).join(", ");
}

function _tables(
  stage: Figure3Stage,
  result: ExperimentResult,
  paper: Awaited<ReturnType<typeof paperValues>>,
) {
  const x = _X[stage];
  const records = result.summary.toRecords();
  const categories = stage === "management"
    ? orderPolicies(records.map((r) => String(r.policy)))
    : undefined;
  return {
    summary: displayTable({
      title: `Figure 3, ${stage}: median across agents (${result.agentLabel})`,
      frame: compactSummary({ summary: records, x, categories, keys: _KEYS, format: formatKey }),
      digits: 2,
    }),
    besidePaper: displayTable({
      title: `Figure 3, ${stage}: the paper beside the kit (median and IQR across agents)`,
      frame: besidePaper({
        summary: records,
        x,
        xLabel: AXIS_LABEL[x],
        categories,
        keys: _KEYS,
        format: formatKey,
        panelOf: (r) => panelLabel({ dataset: r.dataset, attack: r.attack }),
        paper: paper.figures.filter((p) => p.figure === "figure3" && p.stage === stage),
      }),
      caption: "paper: the range its text states across 11 LLMs (blank where it states none); " +
        `kit: ${result.agentLabel}.`,
    }),
  };
}

/**
 * One column of Figure 3 (`figure3_writing`, `figure3_management`, `figure3_retrieval`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "./stage_experiments.ts";
 * import { figure3Column } from "./figure3.ts";
 * const result = await stageExperiment({ stage: "management", n: 2, resamples: 10 });
 * const fig = await figure3Column({ stage: "management", result });
 * assert.equal(fig.name, "figure3_management");
 * assert.match(fig.figure.caption, /simulator/);
 * ```
 */
export async function figure3Column(options: {
  /** The stage. */
  stage: Figure3Stage;
  /** Its sweep (`stageExperiment`). */
  result: ExperimentResult;
}): Promise<FigureResult> {
  const { stage, result } = options;
  const paper = await paperValues();
  const element = drawColumn({
    stage,
    summary: result.summary,
    agentLabel: result.agentLabel,
    paper: paper.figures,
    fixed: fixedStages({ rows: result.rows, stage }),
    note: joinSentences(result.note, simulatorNote(result.rows)),
  });
  const name = `figure3_${stage}`;
  return {
    name,
    figure: displayFigure({ name, element }),
    ..._tables(stage, result, paper),
    csv: { [name]: result.summary },
    rows: result.rows,
  };
}

/**
 * Figure 3 whole (`figure3_stages`): writing, management and retrieval side by side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "./stage_experiments.ts";
 * import { figure3 } from "./figure3.ts";
 * const run = (stage: "writing" | "management" | "retrieval") => stageExperiment({ stage, n: 2, resamples: 10, grid: stage === "management" ? undefined : [0, 1] });
 * const fig = await figure3({ results: { writing: await run("writing"), management: await run("management"), retrieval: await run("retrieval") } });
 * assert.equal(fig.name, "figure3_stages");
 * assert.deepEqual(Object.keys(fig.csv), ["figure3_writing", "figure3_management", "figure3_retrieval"]);
 * ```
 */
export async function figure3(options: {
  /** The three stage sweeps. */
  results: Record<Figure3Stage, ExperimentResult>;
}): Promise<FigureResult> {
  const { results } = options;
  const paper = await paperValues();
  const rows = [...results.writing.rows, ...results.management.rows, ...results.retrieval.rows];
  const m = results.management.rows[0];
  const w = results.writing.rows[0];
  const element = figure3Stages({
    summaries: {
      writing: results.writing.summary,
      management: results.management.summary,
      retrieval: results.retrieval.summary,
    },
    agentLabel: results.writing.agentLabel,
    paper: paper.figures,
    fixed: m && w
      ? `θw = ${m.thetaW}, ${w.policy}, θr = ${w.thetaR}, K = ${w.k}, |B| = ${w.bankSize}`
      : undefined,
    note: simulatorNote(rows),
  });
  const tables = (["writing", "management", "retrieval"] as const).map((s) =>
    _tables(s, results[s], paper)
  );
  return {
    name: "figure3_stages",
    figure: displayFigure({ name: "figure3_stages", element }),
    summary: stackTables({ tables: tables.map((t) => t.summary) }),
    besidePaper: stackTables({ tables: tables.map((t) => t.besidePaper) }),
    csv: {
      figure3_writing: results.writing.summary,
      figure3_management: results.management.summary,
      figure3_retrieval: results.retrieval.summary,
    },
    rows,
  };
}
