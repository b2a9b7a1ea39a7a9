/** One stage sweep, end to end: the function both the CLI and the notebooks call. */
import type { Agent } from "../agents/agent.ts";
import { deterministicJudge } from "../judges/deterministic_judge.ts";
import type { Judge } from "../judges/judge.ts";
import { selfJudge } from "../judges/self_judge.ts";
import type { Attack, Instance } from "../schema/instance.ts";
import type { OperatingPoint, Stage } from "../schema/operating_point.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import type { Ranker } from "../stages/writing/ranker.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";
import { operatingPoints } from "./operating_points.ts";
import { stableId } from "../schema/stable_id.ts";
import { reportErrorRows } from "./error_summary.ts";
import { planSweep } from "./plan_sweep.ts";
import type { Progress } from "./progress.ts";
import { runSweep } from "./run_sweep.ts";
import type { CounterfactualMode } from "./counterfactual.ts";
import { sweepResources } from "./sweep_resources.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import { trialKey } from "./run_pair.ts";
import { failedPairTrajectory, type PairCapture, pairTrajectory } from "./trajectory_capture.ts";
import { withCallScope } from "../models/call_scope.ts";
import { defaultRoles } from "./default_roles.ts";
import { sweepInWorkers, workerPlan } from "./sweep_workers.ts";

/** The error of a row without one, shared (a sweep that keeps no rows counts them). */
const _NO_ERROR = { error: null };

/** Options of a sweep. */
export interface SweepOptions {
  /** Stage to vary. */
  stage: Stage;
  /** Values of the varied `theta`; default 0, 0.1, ..., 1. */
  grid?: readonly number[];
  /** Policies for the management stage; default UM, PQ, NC, SC. */
  policies?: readonly string[];
  /** Asymmetric exposure: `theta_r-` values with `theta_r+` fixed; default none. */
  thetaRRisk?: readonly number[];
  /**
   * Values of the stages held fixed; default the paper's defaults. Without `ranker`, model
   * agents rank with their own LLM (`llm:self`) and the offline reference agent with
   * `usefulness` (see `defaultRanker`).
   */
  base?: Partial<Omit<OperatingPoint, "stage">>;
  /** Instances, banks already cut to `base.bankSize`. */
  instances: readonly Instance[];
  /** Dataset name for the rows. */
  dataset: string;
  /** Attacks; default both. */
  attacks?: readonly Attack[];
  /** Agents. */
  agents: readonly Agent[];
  /** Run seed; default 0. */
  seed?: number;
  /**
   * Judge; default `defaultJudgeSpec`: the memory-blind LLM judge over each model agent's own model
   * (`llm:self`), the deterministic matcher for the offline agent.
   */
  judge?: Judge;
  /** Writer; default verbatim. */
  writer?: Writer;
  /** Extra rankers by id; default none (offline rankers are always there). */
  rankers?: Readonly<Record<string, Ranker>>;
  /**
   * Receives each pair's rows as they finish, in plan order; with `trajectories`, also the pair
   * trial's sidecar line. Default none.
   */
  onRows?: (rows: TrialRow[], trajectory?: PairTrajectory) => void | Promise<void>;
  /**
   * Capture each pair trial's trajectory (the sidecar line: ranks, records, quarantine,
   * contexts, answers, verdicts, counterfactual flips) and pass it to `onRows`; default false.
   */
  trajectories?: boolean;
  /** Progress sink; default silent. */
  progress?: Progress;
  /** Model requests in flight per endpoint (pairs in progress follow from it); default 8. */
  concurrency?: number;
  /** Independent repeats per pair; default 1. */
  trials?: number;
  /** Which pair trials to run, by `trialKey`; default all. */
  select?: (key: string) => boolean;
  /** Builds rankers by id that are not built in (`llm:self`, `llm:MODEL`); default none. */
  rankerFactory?: (id: string, agent: Agent | undefined) => Ranker | undefined;
  /**
   * Write every unit while its trace's ranking is pending (batch export: ranking and writing in
   * one round); default false.
   */
  writeAhead?: boolean;
  /**
   * Record-level counterfactual: `loo` reruns every selected trial once per retrieved record
   * with that record replaced by the next background record (rows with `counterfactualOf`);
   * default `none`.
   */
  counterfactual?: CounterfactualMode;
  /**
   * Worker threads to run pair trials on, an integer >= 1; instances are dealt to them and rows
   * still reach `onRows` in plan order, so the rows are the same bytes for any count (except
   * `latencyMs`). More than 1 needs an offline sweep whose stages are all built in: simulated
   * agents, a registered judge and writer, no `rankers` or `rankerFactory`.
   * Default 1 (this thread).
   */
  workers?: number;
  /**
   * Keep every row and return them; default true. False: rows go to `onRows` only and `sweep`
   * returns an empty array, so memory does not grow with the run (a row is about 2 KB).
   */
  keepRows?: boolean;
}

/**
 * The judge id when none is given: `defaultRoles`' rule (`llm:self` for model agents,
 * `deterministic` for the offline simulator; a mix must name its judge).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultJudgeSpec } from "./sweep.ts";
 * assert.equal(defaultJudgeSpec({ agents: [{ id: "llm:m", simulated: false }] }), "llm:self");
 * assert.equal(defaultJudgeSpec({ agents: [{ id: "reference:careful", simulated: true }] }), "deterministic");
 * ```
 */
export function defaultJudgeSpec(options: {
  /** The sweep's agents (only `id` and `simulated` are read). */
  agents: readonly Pick<Agent, "id" | "simulated">[];
}): string {
  return defaultRoles({ agents: options.agents }).judge;
}

/**
 * The writing-stage ranker when none is given: `defaultRoles`' rule (the paper's `llm:self` for
 * model agents, the offline `usefulness` heuristic for the simulator; a mix must name it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRanker } from "./sweep.ts";
 * assert.equal(defaultRanker({ agents: [{ id: "llm:m", simulated: false }] }), "llm:self");
 * assert.equal(defaultRanker({ agents: [{ id: "reference:careful", simulated: true }] }), "usefulness");
 * ```
 */
export function defaultRanker(options: {
  /** The sweep's agents (only `id` and `simulated` are read). */
  agents: readonly Pick<Agent, "id" | "simulated">[];
}): string {
  const { agents } = options;
  // The ranker alone: a mix that names its judge but not its ranker is refused for the ranker.
  return defaultRoles({ agents, judge: "deterministic" }).ranker;
}

/**
 * Run a sweep and return its rows. The run id hashes everything that determines the rows, so
 * the same options and seed give the same run id and byte-identical rows (except `latencyMs`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveAgents } from "../agents/resolve_agents.ts";
 * import { loadDataset } from "../data/datasets.ts";
 * import { sweep } from "./sweep.ts";
 * const instances = (await loadDataset({ name: "demo", seed: 0, bankSize: 100, traceLoad: 1 })).slice(0, 3);
 * const rows = await sweep({ stage: "management", instances, dataset: "demo", agents: resolveAgents({ specs: ["reference:careful"] }) });
 * assert.equal(rows.length, 2 * 4 * 3 * 2); // attacks x policies x instances x conditions
 * ```
 */
export async function sweep(options: SweepOptions): Promise<TrialRow[]> {
  const { instances, dataset, agents, seed = 0, attacks = ["minja", "sleeper"] } = options;
  const { points, runId, judge, writer, counterfactual } = _identity(options);
  const keepRows = options.keepRows ?? true;
  // Error rows are reported for every run; without kept rows, only their errors are kept.
  const seen: Pick<TrialRow, "error">[] = [];
  const tally = (rows: TrialRow[]) => {
    if (!keepRows) {
      for (const r of rows) seen.push(r.error === null ? _NO_ERROR : { error: r.error });
    }
  };
  if ((options.workers ?? 1) !== 1) {
    const rows = await sweepInWorkers(
      workerPlan({ options, runId, points, judge, writer, tally }),
    );
    reportErrorRows({ rows: keepRows ? rows : seen });
    return rows;
  }
  const resources = sweepResources({
    judge,
    writer,
    rankers: options.rankers,
    rankerFactory: options.rankerFactory,
    writeAhead: options.writeAhead,
  });
  for (const point of points) resources.policy(point.policy);
  for (const point of points) for (const agent of agents) resources.ranker(point.ranker, agent);
  // Captured lines wait here for their rows, which `runSweep` hands over in plan order.
  const captured = new Map<string, PairCapture>();
  // Without a sink nothing would take them: capture only when `onRows` is there to receive them.
  const capture = options.trajectories && options.onRows
    ? (c: PairCapture) => void captured.set(trialKey(c), c)
    : undefined;
  const tasks = planSweep({ runId, seed, dataset, attacks, agents, points, instances })
    .map((task) => (counterfactual === "none" ? task : { ...task, counterfactual }))
    .map((task) => (capture ? { ...task, capture } : task));
  const byId = new Map(instances.map((i) => [i.id, i]));
  const onRows = options.onRows && capture
    ? (rows: TrialRow[]) => {
      tally(rows);
      const key = trialKey(rows[0]);
      const c = captured.get(key);
      captured.delete(key);
      return options.onRows!(
        rows,
        c
          ? pairTrajectory({ capture: c })
          : failedPairTrajectory({ instance: byId.get(rows[0].instanceId)!, rows }),
      );
    }
    : (rows: TrialRow[]) => (tally(rows), options.onRows?.(rows));
  // Every reply this run stores says so: rows settle their cacheHit against it.
  const rows = await withCallScope({ run: runId }, () =>
    runSweep({
      tasks,
      resources,
      onRows,
      progress: options.progress,
      concurrency: options.concurrency,
      trials: options.trials,
      select: options.select,
      keepRows,
    }));
  // A notebook run (`deno task notebooks`) learns of error rows through this report.
  reportErrorRows({ rows: keepRows ? rows : seen });
  return rows;
}

/**
 * The run id of a sweep: what `sweep` records in every row, computed without running it (a
 * resume checks a partial's rows against it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveAgents } from "../agents/resolve_agents.ts";
 * import { sweepRunId } from "./sweep.ts";
 * const agents = resolveAgents({ specs: ["reference:careful"] });
 * const id = (seed: number) => sweepRunId({ stage: "writing", instances: [], dataset: "d", agents, seed });
 * assert.notEqual(id(0), id(1));
 * ```
 */
export function sweepRunId(options: SweepOptions): string {
  return _identity(options).runId;
}

function _identity(options: SweepOptions) {
  const { stage, instances, dataset, agents, seed = 0, attacks = ["minja", "sleeper"] } = options;
  const points = operatingPoints({
    stage,
    grid: options.grid,
    policies: options.policies,
    thetaRRisk: options.thetaRRisk,
    base: { ...options.base, ranker: options.base?.ranker ?? defaultRanker({ agents }) },
  });
  const writer = options.writer ?? verbatimWriter;
  const judge = options.judge ??
    (defaultJudgeSpec({ agents }) === "llm:self" ? selfJudge({}) : deterministicJudge);
  const counterfactual = options.counterfactual ?? "none";
  const runId = stableId({
    seed,
    dataset,
    attacks,
    agents: agents.map((a) => a.id),
    points,
    instances: instances.map((i) => i.id),
    judge: judge.id,
    writer: writer.id,
    // LLM judges: the judge model and prompts determine the rows too.
    ...(judge.model !== undefined && { judgeModel: judge.model, judgePrompt: judge.promptHash }),
    ...(judge.model === undefined && judge.promptHash !== undefined &&
      { judgePrompt: judge.promptHash }),
    // Settings that change rows, hashed only when not the default (older run ids stay valid).
    ...(counterfactual !== "none" && { counterfactual }),
    ...(agents.some((a) => (a.memoryPlacement ?? "system") !== "system") &&
      { memoryPlacement: agents.map((a) => a.memoryPlacement ?? null) }),
  });
  return { points, runId, judge, writer, counterfactual };
}
