/**
 * `deno task plan`: the plan of the paper's whole grid (§4) over N models, before any request:
 * requests by phase, tokens, and USD live and through the Batch API, with what a pilot would
 * cost. Each dataset's experiments are run over stand-in replies on a sample of instances drawn
 * by the benchmark's own builder (stratified as the full set) and scaled to the full set, so
 * the whole grid is planned in seconds. Nothing is sent and no key is read.
 */
import { z } from "zod";
import { DATASETS } from "../data/datasets.ts";
import { MODEL_CATALOG } from "../models/model_catalog.ts";
import { redact } from "../models/redact.ts";
import { parseModelOptions } from "../models/model_options.ts";
import { formatRunPlan } from "../run/plan/format_plan.ts";
import { planCosts } from "../run/plan/plan_cost.ts";
import { modelPrices } from "../run/plan/plan_sweep_run.ts";
import { addEntries, scaleEntries } from "../run/plan/scale_plan.ts";
import { modelSetup } from "../run/model_setup.ts";
import {
  CliError,
  commandLine,
  defineCommand,
  execute,
  opt,
  type Parsed,
  runCommand,
} from "./command.ts";
import { type DatasetPlan, type DatasetPlanTask, planDataset } from "./plan_dataset.ts";
import { pilotLines } from "./plan_text.ts";
import { checkModelIds, MODEL_OPTIONS, rolesOf, SWEEP_OPTIONS } from "./sweep_args.ts";
import { modelSetupOptions } from "./sweep_options.ts";

/** Plan one dataset in a worker (its own event loop and core). */
function _inWorker(task: DatasetPlanTask): Promise<DatasetPlan> {
  const worker = new Worker(new URL("./plan_worker.ts", import.meta.url), { type: "module" });
  return new Promise<DatasetPlan>((resolve, reject) => {
    worker.onmessage = (e) => {
      worker.terminate();
      if (e.data.error) reject(new Error(`planning ${task.dataset}: ${e.data.error}`));
      else resolve(e.data.plan);
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(`planning ${task.dataset}: ${e.message}`));
    };
    worker.postMessage(task);
  });
}

/** `deno task plan`. */
export const planCommand = defineCommand({
  name: "plan",
  summary: "plan the paper's whole grid over N models: requests, tokens, USD live and batch",
  description: "The paper's grid (§4): every model as the agent, its own ranker and its own " +
    "memory-blind judge (llm:self), the verbatim writer; the three stage sweeps of Figure 3 on " +
    "each dataset, both attacks, |B| = 100; and the RQ2 experiments (Figures 4-7, asymmetric " +
    "exposure) for one model on LongMemEval with MINJA. Each dataset's experiments are run " +
    "over stand-in replies on --sample instances drawn by the benchmark's builder (stratified " +
    "as the full set) and scaled to --instances; requests that two sweeps share (rankings, " +
    "the default operating point) are counted once. Nothing is sent and no key is read.",
  options: {
    model: opt.list("string", {
      description: "The models (catalog ids, or any names with --base-url).",
      placeholder: "MODEL,...",
      example: "gpt-5.4,deepseek-v4-flash",
      default: MODEL_CATALOG.map((m) => m.id),
      defaultText: "the 11 models of data/models.json",
    }),
    dataset: opt.list("string", {
      description: "Datasets of the grid.",
      example: "locomo",
      default: ["locomo", "longmemeval"],
      schema: z.string().refine((d) => DATASETS.has(d), {
        error: () => `expected one of ${DATASETS.ids().join("|")}`,
      }),
    }),
    "rq2-model": opt.string({
      description: "The model of the RQ2 experiments (the paper's: DeepSeek-V4-Flash), on " +
        "LongMemEval; none leaves them out.",
      placeholder: "MODEL|none",
      example: "none",
      default: "deepseek-v4-flash",
    }),
    sample: opt.integer({
      description: "Instances per dataset planned exactly (the builder's stratified draw), " +
        "scaled to --instances.",
      example: "20",
      default: 10,
      schema: z.number().int().min(1).max(100),
    }),
    instances: opt.integer({
      description: "Instances per dataset in the full run.",
      example: "100",
      default: 100,
      schema: z.number().int().min(1),
    }),
    judge: MODEL_OPTIONS.judge,
    "judge-scope": MODEL_OPTIONS["judge-scope"],
    "base-url": MODEL_OPTIONS["base-url"],
    "api-key-env": MODEL_OPTIONS["api-key-env"],
    "model-option": MODEL_OPTIONS["model-option"],
    cache: MODEL_OPTIONS.cache,
    "max-cost": MODEL_OPTIONS["max-cost"],
    seed: SWEEP_OPTIONS.seed,
  },
  examples: [
    "deno task plan",
    "deno task plan --model gpt-5.4,deepseek-v4-flash --dataset locomo --rq2-model none",
  ],
  check(v, { given }) {
    if (given("api-key-env") && !given("base-url")) {
      throw new CliError(
        "--api-key-env: applies with --base-url only (catalog models read the variable named " +
          "in data/models.json)",
      );
    }
    if (v.sample > v.instances) {
      throw new CliError(`--sample: ${v.sample} is more than --instances ${v.instances}`);
    }
    parseModelOptions({ specs: v.modelOption, baseUrl: v.baseUrl !== undefined });
    checkModelIds({
      model: v.model.map((m) => `llm:${m}`),
      "rq2-model": v.rq2Model === "none" ? [] : [`llm:${v.rq2Model}`],
      judge: v.judge === undefined ? [] : [v.judge],
    }, v.baseUrl);
  },
});

async function _main(parsed: Parsed<typeof planCommand.spec.options>): Promise<number> {
  const v = parsed.values;
  const started = performance.now();
  // Only what reaches a model's requests: the plan runs nothing and spends nothing.
  const { baseUrl, apiKeyEnv, modelOptions, judge, judgeScope, cachePath } = modelSetupOptions({
    values: v,
    judge: rolesOf({ agent: [], model: v.model, judge: v.judge }).judge,
  });
  const setup = { baseUrl, apiKeyEnv, modelOptions, judge, judgeScope, cachePath };
  const agents = v.model.map((m) => `llm:${m}`);
  const rq2 = v.rq2Model === "none" ? null : `llm:${v.rq2Model}`;
  const tasks: DatasetPlanTask[] = v.dataset.map((dataset) => ({
    dataset,
    setup,
    agents,
    rq2,
    seed: v.seed,
    sample: v.sample,
  }));
  // Datasets share no request: each is planned in its own worker, in parallel.
  const done = await Promise.all(
    tasks.map((task) => tasks.length > 1 ? _inWorker(task) : planDataset(task)),
  );
  const plans: { plan: DatasetPlan; sample: number; full: number }[] = [];
  let judgeUpperBound = 0;
  const described: string[] = [];
  for (const plan of done) {
    // A dataset whose builder does not draw samples (the demo set) is planned whole.
    const sample = plan.instances;
    const full = sample === v.sample ? v.instances : sample;
    plans.push({ plan, sample, full });
    judgeUpperBound += Math.round(plan.judgeUpperBound * full / Math.max(1, sample));
    described.push(
      `${plan.dataset}: ${sample} of ${full} instances planned${
        full === sample ? "" : `, scaled x${(full / sample).toFixed(1)}`
      } (${Math.round(plan.rows * full / Math.max(1, sample)).toLocaleString("en-US")} rows)`,
    );
  }
  const scaled = (to: (p: typeof plans[number]) => number) =>
    addEntries(
      plans.map((p) =>
        scaleEntries({ entries: p.plan.entries, sample: Math.max(1, p.sample), full: to(p) })
      ),
    );
  const entries = scaled((p) => p.full);
  // A pilot: --limit 2 of every experiment, from the same sample.
  const pilot = scaled((p) => Math.min(2, p.sample));
  const prices = modelSetup({
    cachePath: ":memory:",
    baseUrl: v.baseUrl,
    modelOptions: v.modelOption,
    env: new Proxy({}, { get: () => "plan-reads-no-key" }),
  });
  const price = (id: string) => modelPrices(prices, id);
  const costs = planCosts({ entries, prices: price });
  const pilotCosts = planCosts({ entries: pilot, prices: price });
  prices.close();
  const seconds = (performance.now() - started) / 1000;
  const live = costs.reduce((s, c) => s + (c.liveUsd ?? 0), 0);
  console.log(formatRunPlan({
    title: [
      "PLAN of the paper's grid: nothing was sent, no key was read, no file was written.",
      `Agents: ${v.model.length} models (${v.model.join(", ")}), each its own ranker and ` +
      `${
        v.judge === undefined ? "its own memory-blind judge (llm:self)" : `judge ${v.judge}`
      }, the verbatim writer. Figure 3's three stage sweeps on ${
        v.dataset.join(" and ")
      }, both attacks, |B| = 100${
        rq2 && v.dataset.includes("longmemeval")
          ? `; RQ2 (Figures 4-7, asymmetric exposure) for ${v.rq2Model} on longmemeval, MINJA`
          : ""
      }.`,
      `Sampled: ${described.join("; ")}. Planned in ${seconds.toFixed(1)} s.`,
    ],
    entries,
    costs,
    judgeUpperBound,
    notes: [
      ...pilotLines({
        pilot: { entries: pilot, costs: pilotCosts },
        command: "deno task reproduce --dataset DATASET --model " + v.model.join(",") +
          " --limit 2 (per dataset)",
      }),
      ...(v.maxCost === undefined ? [] : [
        `--max-cost ${v.maxCost}: the plan's live cost (${live.toFixed(2)} USD) ${
          live > v.maxCost ? "crosses it: a run stops before it does" : "stays under it"
        }.`,
      ]),
      `Counts are scaled from the sample (requests merge within an instance, never across, ` +
      `so they grow with the instances); for an exact plan of one dataset: ${
        redact({
          text: commandLine({
            name: "reproduce",
            argv: ["--dataset", v.dataset[0], "--model", v.model.join(","), "--dry-run"],
          }),
        })
      }.`,
    ],
  }));
  return 0;
}

/** Run the plan CLI with the given arguments; returns the exit code (errors are printed). */
export async function planMain(argv: readonly string[]): Promise<number> {
  return await execute({ command: planCommand, argv, main: _main });
}

if (import.meta.main) await runCommand(planCommand, _main);
