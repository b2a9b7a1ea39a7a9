/**
 * Parsed option values to library options: the one place where a command line becomes the
 * options of `modelSetup` (every command that reaches a model) and of `sweep` (`sweep`,
 * `batch export`, `judge-sensitivity`).
 */
import { loadDataset } from "../data/datasets.ts";
import type { ModelSetup, modelSetup } from "../run/model_setup.ts";
import type { SweepOptions } from "../run/sweep.ts";
import type { Parsed, Values } from "./command.ts";
import {
  agentSpecs,
  type MODEL_OPTIONS,
  rolesOf,
  type SWEEP_OPTIONS,
  type SweepValues,
} from "./sweep_args.ts";
import { FieldError } from "../schema/field_error.ts";

/**
 * The model setup a command line asks for (cache, endpoint, key variable, per-model options,
 * limits, judge, writer). A command passes the values it declares; the others take
 * `modelSetup`'s defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSweep } from "./sweep_args.ts";
 * import { modelSetupOptions } from "./sweep_options.ts";
 * const { values } = parseSweep(["--stage", "writing", "--cache", "c.sqlite", "--out", "x.jsonl"]);
 * const setup = modelSetupOptions({ values, judge: "deterministic" });
 * assert.equal(setup.cachePath, "c.sqlite");
 * ```
 */
export function modelSetupOptions(options: {
  /** Parsed values of `MODEL_OPTIONS` (and `--memory-placement`, `--writer` where declared). */
  values:
    & Partial<Values<typeof MODEL_OPTIONS>>
    & Partial<Pick<SweepValues, "memoryPlacement" | "writer">>;
  /** The judge the run uses (`rolesOf`: named, or the default for its agents). */
  judge: string;
}): NonNullable<Parameters<typeof modelSetup>[0]> {
  const v = options.values;
  return {
    cachePath: v.cache,
    baseUrl: v.baseUrl,
    apiKeyEnv: v.apiKeyEnv,
    modelOptions: v.modelOption,
    concurrency: v.concurrency,
    maxRetries: v.maxRetries,
    timeoutMs: v.timeout,
    maxCostUsd: v.maxCost,
    judge: options.judge,
    judgeScope: v.judgeScope,
    memoryPlacement: v.memoryPlacement,
    writer: v.writer,
  };
}

/** Load the dataset; a loader's complaint names the option it is about. */
async function _load(v: SweepValues) {
  try {
    return await loadDataset({
      name: v.dataset,
      seed: v.seed,
      bankSize: v.bankSize,
      traceLoad: v.traceLoad,
      instanceCache: { rebuild: v.rebuildInstances },
    });
  } catch (e) {
    const message = (e as Error).message;
    if (!(e instanceof RangeError) || e instanceof FieldError || /^--[\w-]+:/.test(message)) {
      throw e;
    }
    const option = /bank-size/.test(message)
      ? "bankSize"
      : /trace-load/.test(message)
      ? "traceLoad"
      : "dataset";
    throw new FieldError({ field: option, detail: message });
  }
}

/**
 * The sweep options of a command line, without the output sinks. `deno task sweep` and
 * `deno task batch export` both plan through this, so they agree on the run id and requests.
 * The held-fixed stages (`--theta-w`, `--policy`, `--theta-r`) enter only when given, so the
 * plan's defaults are the library's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelSetup } from "../run/model_setup.ts";
 * import { parseSweep } from "./sweep_args.ts";
 * import { sweepOptionsFrom } from "./sweep_options.ts";
 * const models = modelSetup({ cachePath: ":memory:" });
 * const parsed = parseSweep(["--stage", "writing", "--limit", "2", "--out", "x.jsonl"]);
 * const options = await sweepOptionsFrom({ parsed, models });
 * assert.equal(options.instances.length, 2);
 * assert.equal(options.base?.policy, undefined);
 * models.close();
 * ```
 */
export async function sweepOptionsFrom(options: {
  /** The parsed command line (values, and which were given). */
  parsed: Pick<Parsed<typeof SWEEP_OPTIONS>, "values" | "given">;
  /** Model-backed parts (agents, judge, writer, rankers). */
  models: ModelSetup;
}): Promise<Omit<SweepOptions, "onRows" | "progress" | "select">> {
  const { models } = options;
  const { values: v, given } = options.parsed;
  // Validate everything (dataset, bank size, agents) before any output file exists; the
  // dataset first, because a model agent opens the response cache.
  let instances = await _load(v);
  if (v.limit !== undefined) instances = instances.slice(0, v.limit);
  const agents = models.agents(agentSpecs(v));
  return {
    stage: v.stage,
    grid: v.grid,
    policies: v.policies,
    thetaRRisk: v.thetaRRisk,
    base: {
      k: v.k,
      bankSize: v.bankSize,
      fill: v.fill,
      ranker: rolesOf(v).ranker,
      traceLoad: v.traceLoad,
      ...(given("theta-w") && { thetaW: v.thetaW }),
      ...(given("policy") && { policy: v.policy }),
      ...(given("theta-r") && { thetaR: v.thetaR }),
    },
    instances,
    dataset: v.dataset,
    attacks: v.attack as SweepOptions["attacks"],
    agents,
    seed: v.seed,
    judge: models.judge,
    writer: models.writer,
    rankerFactory: models.rankerFactory,
    concurrency: v.concurrency,
    workers: v.workers,
    trials: v.trials,
    counterfactual: v.counterfactual,
  };
}
