/** Turn parsed sweep arguments into sweep options: shared by `sweep` and `batch export`. */
import { loadDataset } from "../data/datasets.ts";
import type { ModelSetup, modelSetup } from "../run/model_setup.ts";
import type { SweepOptions } from "../run/sweep.ts";
import { CliError } from "./command.ts";
import type { SweepArgs } from "./sweep_args.ts";

/** Load the dataset; a loader's complaint names the option it is about. */
async function _load(args: SweepArgs) {
  try {
    return await loadDataset({
      name: args.dataset,
      seed: args.seed,
      bankSize: args.bankSize,
      traceLoad: args.traceLoad,
    });
  } catch (e) {
    const message = (e as Error).message;
    if (!(e instanceof RangeError) || /^--[\w-]+:/.test(message)) throw e;
    const option = /bank-size/.test(message)
      ? "bank-size"
      : /trace-load/.test(message)
      ? "trace-load"
      : "dataset";
    throw new CliError(`--${option}: ${message}`);
  }
}

/**
 * The sweep options of a command line, without the output sinks. `deno task sweep` and
 * `deno task batch export` both plan through this, so they agree on the run id and requests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelSetup } from "../run/model_setup.ts";
 * import { parseSweepArgs } from "./sweep_args.ts";
 * import { sweepOptionsFromArgs } from "./sweep_options.ts";
 * const models = modelSetup({ cachePath: ":memory:" });
 * const args = parseSweepArgs(["--stage", "writing", "--limit", "2", "--out", "x.jsonl"]);
 * const options = await sweepOptionsFromArgs({ args, models });
 * assert.equal(options.instances.length, 2);
 * models.close();
 * ```
 */
export async function sweepOptionsFromArgs(options: {
  /** Parsed arguments. */
  args: SweepArgs;
  /** Model-backed parts (agents, judge, writer, rankers). */
  models: ModelSetup;
}): Promise<Omit<SweepOptions, "onRows" | "progress" | "select">> {
  const { args, models } = options;
  // Validate everything (dataset, bank size, agents) before any output file exists; the
  // dataset first, because a model agent opens the response cache.
  let instances = await _load(args);
  if (args.limit !== undefined) instances = instances.slice(0, args.limit);
  const agents = models.agents(args.agents);
  return {
    stage: args.stage,
    grid: args.grid,
    policies: args.policies,
    thetaRRisk: args.thetaRRisk,
    base: {
      k: args.k,
      bankSize: args.bankSize,
      fill: args.fill,
      ranker: args.ranker,
      traceLoad: args.traceLoad,
      ...(args.thetaW !== undefined && { thetaW: args.thetaW }),
      ...(args.policy !== undefined && { policy: args.policy }),
      ...(args.thetaR !== undefined && { thetaR: args.thetaR }),
    },
    instances,
    dataset: args.dataset,
    attacks: args.attacks,
    agents,
    seed: args.seed,
    judge: models.judge,
    writer: models.writer,
    rankerFactory: models.rankerFactory,
    concurrency: args.concurrency,
    workers: args.workers,
    trials: args.trials,
    counterfactual: args.counterfactual,
  };
}

/**
 * The model setup a command line asks for (cache, endpoint, key variable, per-model options,
 * limits, judge, writer): one place for `sweep`, its dry run and `batch export`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSweepArgs } from "./sweep_args.ts";
 * import { modelSetupOptions } from "./sweep_options.ts";
 * const args = parseSweepArgs(["--stage", "writing", "--cache", "c.sqlite", "--out", "x.jsonl"]);
 * assert.equal(modelSetupOptions({ args }).cachePath, "c.sqlite");
 * ```
 */
export function modelSetupOptions(options: { args: SweepArgs }): Parameters<typeof modelSetup>[0] {
  const { args } = options;
  return {
    cachePath: args.cache,
    baseUrl: args.baseUrl,
    apiKeyEnv: args.apiKeyEnv,
    modelOptions: args.modelOptions,
    concurrency: args.concurrency,
    maxRetries: args.maxRetries,
    timeoutMs: args.timeoutMs,
    maxCostUsd: args.maxCost,
    judge: args.judge,
    judgeScope: args.judgeScope,
    memoryPlacement: args.memoryPlacement,
    writer: args.writer,
  };
}
