/**
 * The plan of a sweep before any request: the sweep itself, run with stand-in replies, counted
 * by phase and model (`RequestPlan`), and priced from the catalog. `deno task sweep --dry-run`
 * and `deno task batch export` print it.
 */
import { existsSync } from "node:fs";
import type { TrialRow } from "../../schema/trial_row.ts";
import { type ModelSetup, modelSetup } from "../model_setup.ts";
import { sweep, type SweepOptions } from "../sweep.ts";
import { type ModelCost, planCosts, type PlanPrices } from "./plan_cost.ts";
import { type PlanEntry, type PlannedRequest, RequestPlan } from "./request_plan.ts";

/** Options of `modelSetup` that a plan takes from the command line. */
export type PlanSetup = Omit<Parameters<typeof modelSetup>[0], "onMiss" | "observe" | "env">;

/** A sweep's plan. */
export interface SweepRunPlan {
  /** Requests by phase and model. */
  entries: PlanEntry[];
  /** Their cost by model. */
  costs: ModelCost[];
  /** The rows the sweep would write (decisions from stand-in replies: shape only). */
  rows: TrialRow[];
  /** The batch round that can be sent now (`RequestPlan.round`); null when none is left. */
  round: number | null;
  /** Every batch round of the run (`RequestPlan.rounds`). */
  rounds: number[];
  /** With `keepBodies`: that round's requests, exactly as the run will send them. */
  requests: PlannedRequest[];
  /** The most judge requests (one per distinct agent answer; `RequestPlan.judgeUpperBound`). */
  judgeUpperBound: number;
}

// A plan reads no key: every key variable reads as this placeholder, which is never sent.
const _NO_KEYS = new Proxy({}, { get: () => "dry-run-sends-nothing" }) as Record<string, string>;

/** A model's prices: its endpoint's (the catalog's, with `--model-option` overrides), or null. */
export function modelPrices(models: ModelSetup, id: string): PlanPrices | null {
  try {
    return models.client(id).endpoint.prices ?? null;
  } catch {
    return null;
  }
}

/**
 * Plan a sweep: build its options over a model setup whose misses get stand-in replies, run
 * it, and count. Nothing is sent, no key is read, and the cache is only read (a cache file
 * that does not exist yet is not created).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDataset } from "../../data/datasets.ts";
 * import { planSweepRun } from "./plan_sweep_run.ts";
 * const instances = (await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 })).slice(0, 2);
 * const plan = await planSweepRun({
 *   setup: { cachePath: ":memory:", baseUrl: "http://127.0.0.1:9/v1" },
 *   build: async (models) => ({ stage: "writing", grid: [1], instances, dataset: "demo",
 *     attacks: ["minja"], agents: models.agents(["llm:m"]), rankerFactory: models.rankerFactory }),
 * });
 * // One ranking per trace (2 helpful, 2 risk), one answer per condition and instance, and the
 * // default judge's (llm:self) one verdict per answer.
 * assert.deepEqual(plan.entries.map((e) => [e.phase, e.toSend]), [["ranking", 4], ["agent", 4], ["judge", 4]]);
 * ```
 */
export async function planSweepRun(options: {
  /** How models are reached (cache, base URL, judge, writer, model options). */
  setup: PlanSetup;
  /** The sweep's options over the planning model setup. */
  build: (models: ModelSetup) => Promise<Omit<SweepOptions, "onRows">>;
  /** Write ahead (batch export's rounds); default false. */
  writeAhead?: boolean;
  /** Keep the bodies of the requests to send (batch export writes them); default false. */
  keepBodies?: boolean;
  /**
   * A plan to add to, so several sweeps are planned together (a request two sweeps share,
   * such as a ranking or the default operating point, is counted once); default a new one.
   */
  plan?: RequestPlan;
}): Promise<SweepRunPlan> {
  let rows: TrialRow[] = [];
  const planned = await planRun({
    setup: options.setup,
    keepBodies: options.keepBodies,
    plan: options.plan,
    run: async (models) => {
      const sweepOptions = await options.build(models);
      rows = await sweep({
        ...sweepOptions,
        writeAhead: options.writeAhead ?? sweepOptions.writeAhead,
      });
    },
  });
  return { ...planned, rows };
}

/**
 * Plan any run made of sweeps (a reproduce run, the paper's grid): `run` gets a model setup
 * whose misses are answered by stand-ins and counted, and runs what it runs over it. Nothing is
 * sent, no key is read, no cache file is created.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDataset } from "../../data/datasets.ts";
 * import { sweep } from "../sweep.ts";
 * import { planRun } from "./plan_sweep_run.ts";
 * const instances = (await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 })).slice(0, 1);
 * const plan = await planRun({
 *   setup: { cachePath: ":memory:", baseUrl: "http://127.0.0.1:9/v1" },
 *   run: async (models) => {
 *     // Both sweeps at the default operating point (theta_w = 0.6, theta_r = 0.8).
 *     for (const [stage, grid] of [["writing", [0.6]], ["retrieval", [0.8]]] as const) {
 *       await sweep({ stage, grid, instances, dataset: "demo", attacks: ["minja"], agents: models.agents(["llm:m"]), rankerFactory: models.rankerFactory });
 *     }
 *   },
 * });
 * // The two sweeps ask the same requests: counted once.
 * const agent = plan.entries.find((e) => e.phase === "agent")!;
 * assert.equal(agent.asked, 2 * agent.unique);
 * ```
 */
export async function planRun(options: {
  /** How models are reached (cache, base URL, judge, writer, model options). */
  setup: PlanSetup;
  /** Runs the sweeps over the planning model setup. */
  run: (models: ModelSetup) => Promise<void>;
  /** Keep the bodies of the requests to send; default false. */
  keepBodies?: boolean;
  /** A plan to add to; default a new one. */
  plan?: RequestPlan;
}): Promise<Omit<SweepRunPlan, "rows">> {
  const plan = options.plan ?? new RequestPlan({ keepBodies: options.keepBodies });
  const cachePath = options.setup.cachePath ?? ".memgauge/cache.sqlite";
  const models = modelSetup({
    ...options.setup,
    // Read what is cached; never create a cache file for a plan.
    cachePath: cachePath === ":memory:" || existsSync(cachePath) ? cachePath : ":memory:",
    env: _NO_KEYS,
    onMiss: plan.onMiss,
    observe: plan.observe,
  });
  try {
    await options.run(models);
    const entries = plan.entries();
    const costs = planCosts({ entries, prices: (id) => modelPrices(models, id) });
    const round = plan.round();
    return {
      entries,
      costs,
      round,
      rounds: plan.rounds(),
      requests: round === null ? [] : plan.requests(round),
      judgeUpperBound: plan.judgeUpperBound(),
    };
  } finally {
    models.close();
  }
}
