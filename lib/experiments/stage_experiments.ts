/** The experiments behind the figures: each runs the sweeps one figure needs and summarizes. */
import type pl from "nodejs-polars";
import type { TrialRow } from "../model/trial_row.ts";
import { PAPER_DEFAULTS } from "../model/operating_point.ts";
import type { Stage } from "../model/operating_point.ts";
import { sweep } from "../run/sweep.ts";
import { summarize } from "../stats/summarize.ts";
import type { ExperimentOptions } from "./experiment_setup.ts";
import { _agents, _instances, agentLabel } from "./experiment_setup.ts";

/** An experiment's rows, its per-agent summary and what the caption should say. */
export interface ExperimentResult {
  rows: TrialRow[];
  /** Per-agent summary grouped by agent, dataset, attack and the varied columns. */
  summary: pl.DataFrame;
  agentLabel: string;
  /** What the dataset could not support, for the caption; "" when nothing. */
  note: string;
}

async function _run(
  options: ExperimentOptions,
  label: string,
  stage: Stage,
  extra: Partial<Parameters<typeof sweep>[0]>,
  bankSize: number,
  traceLoad: number,
): Promise<TrialRow[]> {
  return await sweep({
    stage,
    instances: await _instances(options, bankSize, traceLoad),
    dataset: options.dataset ?? "demo",
    agents: _agents(options),
    seed: options.seed ?? 0,
    progress: options.progress?.(label),
    ...extra,
    base: { ...extra.base, bankSize, traceLoad },
  });
}

function _result(
  rows: TrialRow[],
  by: string[],
  options: ExperimentOptions,
  note = "",
): ExperimentResult {
  return {
    rows,
    summary: summarize(rows as unknown as Record<string, unknown>[], {
      by: ["agent", "dataset", "attack", ...by],
      resamples: options.resamples ?? 500,
      seed: options.seed ?? 0,
    }),
    agentLabel: agentLabel(rows),
    note,
  };
}

/**
 * Figure 3 (RQ1): the writing, management and retrieval sweeps at the paper's defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "./stage_experiments.ts";
 * const result = await stageExperiment({ stage: "management", n: 2, resamples: 10 });
 * assert.equal(result.summary.height, 5 * 2 * 4); // personas x attacks x policies
 * ```
 */
export async function stageExperiment(
  options: ExperimentOptions & {
    /** The stage to vary. */
    stage: Stage;
  },
): Promise<ExperimentResult> {
  const column = { writing: "thetaW", management: "policy", retrieval: "thetaR" }[options.stage];
  const rows = await _run(options, options.stage, options.stage, {}, 100, 1);
  return _result(rows, ["stage", column], options);
}

/**
 * Figure 4 (RQ2): writing sweeps at trace loads 0.75, 1 and 1.25, MINJA; loads the dataset
 * lacks are skipped and named in `note`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceLoadExperiment } from "./stage_experiments.ts";
 * const result = await traceLoadExperiment({ n: 2, resamples: 10 });
 * assert.match(result.note, /0.75/); // the demo set has trace load 1 only
 * ```
 */
export async function traceLoadExperiment(
  options: ExperimentOptions & {
    /** Trace loads; default 0.75, 1, 1.25. */
    loads?: readonly number[];
  },
): Promise<ExperimentResult> {
  const rows: TrialRow[] = [];
  const missing: number[] = [];
  for (const load of options.loads ?? [0.75, 1, 1.25]) {
    try {
      rows.push(
        ...await _run(options, `load ${load}`, "writing", { attacks: ["minja"] }, 100, load),
      );
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      missing.push(load);
    }
  }
  return _result(
    rows,
    ["traceLoad", "thetaW"],
    options,
    missing.length
      ? `Trace load ${missing.join(", ")} not drawn: dataset ${
        options.dataset ?? "demo"
      } has no such variant (the benchmark builder makes them).`
      : "",
  );
}

/**
 * Figure 5 (RQ2): writing sweeps per ranker, MINJA. Offline rankers: usefulness (stands in for
 * the paper's self and external LLM rankers), random and chronological.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankerExperiment } from "./stage_experiments.ts";
 * const result = await rankerExperiment({ n: 2, resamples: 10, rankers: ["random"], grid: [0, 1] });
 * assert.equal(result.summary.height, 5 * 2);
 * ```
 */
export async function rankerExperiment(
  options: ExperimentOptions & {
    /** Ranker ids; default usefulness, random, chronological. */
    rankers?: readonly string[];
    /** Coverage grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<ExperimentResult> {
  const rows: TrialRow[] = [];
  for (const ranker of options.rankers ?? ["usefulness", "random", "chronological"]) {
    rows.push(
      ...await _run(
        options,
        ranker,
        "writing",
        {
          attacks: ["minja"],
          grid: options.grid,
          base: { ranker },
        },
        100,
        1,
      ),
    );
  }
  return _result(rows, ["ranker", "thetaW"], options);
}

/**
 * Figure 6 (RQ2): retrieval sweeps for each budget K and fill order, MINJA.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { budgetFillExperiment } from "./stage_experiments.ts";
 * const result = await budgetFillExperiment({ n: 2, resamples: 10, ks: [3], fills: ["random"], grid: [1] });
 * assert.equal(result.summary.height, 5);
 * ```
 */
export async function budgetFillExperiment(
  options: ExperimentOptions & {
    /** Budgets; default 3, 5, 7. */
    ks?: readonly number[];
    /** Fill orders; default random, similarity. */
    fills?: readonly ("random" | "similarity")[];
    /** Exposure grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<ExperimentResult> {
  const rows: TrialRow[] = [];
  for (const k of options.ks ?? [3, 5, 7]) {
    for (const fill of options.fills ?? ["random", "similarity"]) {
      rows.push(
        ...await _run(
          options,
          `K=${k} ${fill}`,
          "retrieval",
          {
            attacks: ["minja"],
            grid: options.grid,
            base: { k, fill },
          },
          100,
          1,
        ),
      );
    }
  }
  return _result(rows, ["k", "fill", "thetaR"], options);
}

/**
 * Asymmetric exposure (RQ2): `theta_r+` fixed at 0.8, `theta_r-` from 0.2 to 1, MINJA.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asymmetricExposureExperiment } from "./stage_experiments.ts";
 * const result = await asymmetricExposureExperiment({ n: 2, resamples: 10 });
 * assert.equal(result.summary.height, 5 * 5);
 * ```
 */
export async function asymmetricExposureExperiment(
  options: ExperimentOptions & {
    /** `theta_r-` values; default 0.2, 0.4, 0.6, 0.8, 1. */
    thetaRRisk?: readonly number[];
  },
): Promise<ExperimentResult> {
  const rows = await _run(
    options,
    "asymmetric",
    "retrieval",
    {
      attacks: ["minja"],
      thetaRRisk: options.thetaRRisk ?? [0.2, 0.4, 0.6, 0.8, 1],
      base: { thetaR: PAPER_DEFAULTS.thetaR },
    },
    100,
    1,
  );
  return _result(rows, ["thetaRRisk"], options);
}

/**
 * Figure 7 (RQ2): management policies at several memory sizes |B|, MINJA. Sizes larger than
 * the dataset's banks are skipped and named in `note`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memorySizeExperiment } from "./stage_experiments.ts";
 * const result = await memorySizeExperiment({ n: 2, resamples: 10, sizes: [50, 500] });
 * assert.match(result.note, /500/);
 * ```
 */
export async function memorySizeExperiment(
  options: ExperimentOptions & {
    /** Bank sizes; default 50, 100, 300, 500. */
    sizes?: readonly number[];
  },
): Promise<ExperimentResult> {
  const rows: TrialRow[] = [];
  const missing: number[] = [];
  for (const size of options.sizes ?? [50, 100, 300, 500]) {
    try {
      rows.push(
        ...await _run(options, `|B|=${size}`, "management", { attacks: ["minja"] }, size, 1),
      );
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      missing.push(size);
    }
  }
  return _result(
    rows,
    ["bankSize", "policy"],
    options,
    missing.length
      ? `|B| = ${missing.join(", ")} not drawn: the banks of dataset ${
        options.dataset ?? "demo"
      } are smaller.`
      : "",
  );
}
