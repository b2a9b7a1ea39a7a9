/** The experiments behind the figures: each runs the sweeps one figure needs and summarizes. */
import type pl from "nodejs-polars";
import type { TrialRow } from "../schema/trial_row.ts";
import { PAPER_DEFAULTS } from "../schema/operating_point.ts";
import type { Stage } from "../schema/operating_point.ts";
import { sweep } from "../run/sweep.ts";
import { FILLS } from "../stages/retrieval/fills.ts";
import { OFFLINE_RANKERS, RANKERS } from "../stages/writing/rankers.ts";
import { summarize } from "../stats/summarize.ts";
import { withBackend } from "./backend.ts";
import type { ExperimentOptions } from "./experiment_setup.ts";
import {
  agentLabel,
  experimentAgents,
  experimentInstances,
  usePlugins,
} from "./experiment_setup.ts";

/** An experiment's rows, its per-agent summary and what the caption should say. */
export interface ExperimentResult {
  rows: TrialRow[];
  /**
   * Per-agent summary grouped by agent, dataset, attack and the varied columns, with a `backend`
   * column (simulator, model id or pipeline check).
   */
  summary: pl.DataFrame;
  agentLabel: string;
  /** What the dataset could not support, for the caption; "" when nothing. */
  note: string;
}

/** Bootstrap resamples of every figure's summary: fixed, so notebooks and reproduce agree. */
export const FIGURE_RESAMPLES = 500;

async function _run(
  options: ExperimentOptions,
  label: string,
  stage: Stage,
  extra: Partial<Parameters<typeof sweep>[0]>,
  bankSize: number,
  traceLoad: number,
): Promise<TrialRow[]> {
  await usePlugins(options);
  return await (options.sweep ?? sweep)({
    stage,
    instances: await experimentInstances(options, bankSize, traceLoad),
    dataset: options.dataset ?? "demo",
    agents: experimentAgents(options),
    seed: options.seed ?? 0,
    progress: options.progress?.(label),
    judge: options.models?.judge,
    writer: options.models?.writer,
    rankerFactory: options.models?.rankerFactory,
    attacks: options.attacks,
    // Each pair trial's sidecar line, for the explorer (`deno task reproduce`).
    ...(options.onTrajectory && {
      trajectories: true,
      onRows: (_rows, trajectory) => void (trajectory && options.onTrajectory!(trajectory)),
    }),
    ...extra,
    base: { ...options.base, ...extra.base, bankSize, traceLoad },
  });
}

function _result(
  rows: TrialRow[],
  by: string[],
  options: ExperimentOptions,
  note = "",
): ExperimentResult {
  const summary = summarize(rows as unknown as Record<string, unknown>[], {
    by: ["agent", "dataset", "attack", ...by],
    resamples: options.resamples ?? FIGURE_RESAMPLES,
    seed: options.seed ?? 0,
  });
  return { rows, summary: withBackend({ summary, rows }), agentLabel: agentLabel(rows), note };
}

/** The column a stage varies. */
export const STAGE_COLUMN = {
  writing: "thetaW",
  management: "policy",
  retrieval: "thetaR",
} as const;

/**
 * Figure 3 (RQ1): one stage swept at the paper's defaults for the others (θw = 0.6, UM,
 * θr = 0.8, K = 5, |B| = 100, or `options.base` and `options.bankSize`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageExperiment } from "./stage_experiments.ts";
 * const result = await stageExperiment({ stage: "writing", n: 2, resamples: 10, grid: [0, 0.5, 1], attacks: ["minja"] });
 * assert.deepEqual([...new Set(result.rows.map((r) => r.thetaW))], [0, 0.5, 1]);
 * ```
 */
export async function stageExperiment(
  options: ExperimentOptions & {
    /** The stage to vary. */
    stage: Stage;
    /** Values of θw (writing) or θr (retrieval); default 0, 0.1, ..., 1. */
    grid?: readonly number[];
    /** Policies (management); default every registered one (UM, PQ, NC, SC, plugins'). */
    policies?: readonly string[];
  },
): Promise<ExperimentResult> {
  if (options.grid && options.stage === "management") {
    throw new RangeError("stageExperiment: grid does not apply to management (use policies)");
  }
  if (options.policies && options.stage !== "management") {
    throw new RangeError(`stageExperiment: policies do not apply to ${options.stage}`);
  }
  const rows = await _run(
    options,
    options.stage,
    options.stage,
    { grid: options.grid, policies: options.policies },
    options.bankSize ?? PAPER_DEFAULTS.bankSize,
    1,
  );
  return _result(rows, ["stage", STAGE_COLUMN[options.stage]], options);
}

/**
 * Figure 4 (RQ2): writing sweeps at trace loads 0.75, 1 and 1.25, MINJA; loads the dataset
 * lacks are skipped and named in `note`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceLoadExperiment } from "./stage_experiments.ts";
 * const result = await traceLoadExperiment({ n: 2, resamples: 10, grid: [1] });
 * assert.match(result.note, /0.75/); // the demo set has trace load 1 only
 * ```
 */
export async function traceLoadExperiment(
  options: ExperimentOptions & {
    /** Trace loads; default 0.75, 1, 1.25. */
    loads?: readonly number[];
    /** Coverage grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<ExperimentResult> {
  const rows: TrialRow[] = [];
  const missing: number[] = [];
  for (const load of options.loads ?? [0.75, 1, 1.25]) {
    try {
      rows.push(
        ...await _run(
          options,
          `load ${load}`,
          "writing",
          { attacks: options.attacks ?? ["minja"], grid: options.grid },
          options.bankSize ?? PAPER_DEFAULTS.bankSize,
          load,
        ),
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
      } has no such variant (the benchmark builders make them).`
      : "",
  );
}

/**
 * The built-in offline rankers of Figure 5 in the paper's order (self, external, random,
 * chronological): the stand-ins for the paper's rankers. Figure 5 draws them, then every other
 * registered ranker (a plugin's) in registration order.
 */
export const OFFLINE_FIGURE5_RANKERS = ["usefulness", "distinctiveness", "random", "chronological"];

/**
 * Figure 5 (RQ2): writing sweeps per ranker, MINJA. Default rankers, in the paper's order: for
 * the offline agent `usefulness` (standing in for the agent's own LLM, "self"),
 * `distinctiveness` (a second, different heuristic standing in for the "external" LLM), random
 * and chronological; for model agents `llm:self`, random and chronological (name an external
 * model as `llm:MODEL` in `rankers`). Either way any other registered ranker (a plugin's)
 * follows.
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
    /** Ranker ids, in the order to draw them. */
    rankers?: readonly string[];
    /** Coverage grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<ExperimentResult> {
  await usePlugins(options);
  const simulated = experimentAgents(options).every((a) => a.simulated);
  const paper = simulated ? OFFLINE_FIGURE5_RANKERS : ["llm:self", "random", "chronological"];
  const plugins = RANKERS.ids().filter((id) => !Object.hasOwn(OFFLINE_RANKERS, id));
  const rankers = options.rankers ?? [...paper, ...plugins];
  const rows: TrialRow[] = [];
  for (const ranker of rankers) {
    rows.push(
      ...await _run(
        options,
        ranker,
        "writing",
        { attacks: options.attacks ?? ["minja"], grid: options.grid, base: { ranker } },
        options.bankSize ?? PAPER_DEFAULTS.bankSize,
        1,
      ),
    );
  }
  return _result(rows, ["ranker", "thetaW"], options);
}

/**
 * Figure 6 (RQ2): retrieval sweeps for each budget K and fill order, MINJA: every pair of `ks`
 * and `fills`, or exactly the given `conditions` (Figure 6 draws the paper's four).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { budgetFillExperiment } from "./stage_experiments.ts";
 * const result = await budgetFillExperiment({ n: 2, resamples: 10, ks: [3], fills: ["random"], grid: [1] });
 * assert.equal(result.summary.height, 5);
 * const two = await budgetFillExperiment({ n: 2, resamples: 10, conditions: [{ k: 3, fill: "random" }, { k: 5, fill: "similarity" }], grid: [1] });
 * assert.equal(two.summary.height, 2 * 5);
 * ```
 */
export async function budgetFillExperiment(
  options: ExperimentOptions & {
    /** Budgets; default 3, 5, 7. */
    ks?: readonly number[];
    /** Fill orders; default every registered one (random, similarity, a plugin's). */
    fills?: readonly string[];
    /** The (K, fill) pairs to run, in order; default every pair of `ks` and `fills`. */
    conditions?: readonly { k: number; fill: string }[];
    /** Exposure grid; default 0, 0.1, ..., 1. */
    grid?: readonly number[];
  },
): Promise<ExperimentResult> {
  await usePlugins(options);
  const conditions = options.conditions ??
    (options.ks ?? [3, 5, 7]).flatMap((k) =>
      (options.fills ?? FILLS.ids()).map((fill) => ({ k, fill }))
    );
  const rows: TrialRow[] = [];
  for (const { k, fill } of conditions) {
    rows.push(
      ...await _run(
        options,
        `K=${k} ${fill}`,
        "retrieval",
        { attacks: options.attacks ?? ["minja"], grid: options.grid, base: { k, fill } },
        options.bankSize ?? PAPER_DEFAULTS.bankSize,
        1,
      ),
    );
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
      attacks: options.attacks ?? ["minja"],
      thetaRRisk: options.thetaRRisk ?? [0.2, 0.4, 0.6, 0.8, 1],
      base: { thetaR: options.base?.thetaR ?? PAPER_DEFAULTS.thetaR },
    },
    options.bankSize ?? PAPER_DEFAULTS.bankSize,
    1,
  );
  return _result(rows, ["thetaRRisk"], options);
}

/**
 * Figure 7 (RQ2): management policies at several memory sizes |B|, MINJA, with similarity fill
 * (`fill`, whatever `base.fill` says, so a notebook's parameters and `reproduce` draw the same
 * figure): a bank changes what the agent reads only through the
 * records retrieval fills the context with, and K records drawn at random from 50 or from 500
 * are alike, while the most similar of 500 are closer to the question than the most similar of
 * 50. Sizes larger than the dataset's banks are skipped and named in `note`.
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
    /** Policies; default UM, PQ, NC, SC. */
    policies?: readonly string[];
    /** Retrieval fill of every size; default "similarity". */
    fill?: string;
  },
): Promise<ExperimentResult> {
  const rows: TrialRow[] = [];
  const missing: number[] = [];
  for (const size of options.sizes ?? [50, 100, 300, 500]) {
    try {
      rows.push(
        ...await _run(
          options,
          `|B|=${size}`,
          "management",
          {
            attacks: options.attacks ?? ["minja"],
            policies: options.policies,
            base: { fill: options.fill ?? "similarity" },
          },
          size,
          1,
        ),
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
