/**
 * An offline sweep over several worker threads: instances are dealt to workers, each runs its
 * share of the plan, and the main thread hands rows on in plan order, so the file is the same
 * bytes whatever the worker count.
 */
import type { TrialRow } from "../schema/trial_row.ts";
import type { PairTrajectory } from "../schema/pair_trajectory.ts";
import { resolveAgents } from "../agents/resolve_agents.ts";
import type { Judge } from "../judges/judge.ts";
import { JUDGES } from "../judges/judges.ts";
import type { OperatingPoint } from "../schema/operating_point.ts";
import { RANKERS } from "../stages/writing/rankers.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { WRITERS } from "../stages/writing/writers.ts";
import { planSweep } from "./plan_sweep.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { trialKey } from "./run_pair.ts";
import { sweepWork } from "./run_sweep.ts";
import type { SweepOptions } from "./sweep.ts";

/** What a worker needs to rebuild the sweep: plain data, stages named by registry id. */
export interface WorkerSweep {
  /** The sweep's options without functions and objects, for `sweep` in the worker. */
  options: Omit<
    SweepOptions,
    "agents" | "judge" | "writer" | "onRows" | "progress" | "select" | "workers"
  >;
  agentIds: string[];
  judgeId: string;
  writerId: string;
  /** The trial keys this worker runs, in plan order. */
  keys: string[];
}

/** A worker's message: one pair trial's rows (and sidecar line), or its end. */
export type WorkerMessage =
  | { rows: TrialRow[]; trajectory?: PairTrajectory }
  | { done: true }
  | { error: string };

/**
 * Run `work` (trial keys in plan order, each with its instance's index) on `workers` worker
 * threads: key k goes to worker `instanceIndex % workers`, so each runs a share of every
 * operating point and all advance through the plan together. Each pair's rows reach `onRows`
 * in plan order. Returns the rows when `keepRows`.
 */
export async function sweepInWorkers(options: {
  sweep: Omit<WorkerSweep, "keys">;
  work: readonly { key: string; instance: number }[];
  workers: number;
  onRows?: (rows: TrialRow[], trajectory?: PairTrajectory) => void | Promise<void>;
  progress?: Progress;
  keepRows: boolean;
}): Promise<TrialRow[]> {
  const { work, onRows, progress = silentProgress } = options;
  // No more workers than instances: each would have a share.
  const n = Math.min(options.workers, Math.max(1, ...work.map((w) => w.instance + 1)));
  const shares = Array.from({ length: n }, () => [] as string[]);
  for (const w of work) shares[w.instance % n].push(w.key);
  // Per worker, the results it has sent and the reader waiting for the next one.
  const queues = shares.map(() => [] as WorkerMessage[]);
  const waiting: (((m: WorkerMessage) => void) | null)[] = shares.map(() => null);
  const threads = shares.map((keys, i) => {
    const worker = new Worker(new URL("./sweep_worker.ts", import.meta.url), { type: "module" });
    const deliver = (m: WorkerMessage) => {
      const wake = waiting[i];
      if (wake) (waiting[i] = null), wake(m);
      else queues[i].push(m);
    };
    worker.onmessage = (e: MessageEvent<WorkerMessage>) => deliver(e.data);
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      deliver({ error: e.message });
    };
    worker.postMessage({ ...options.sweep, keys } satisfies WorkerSweep);
    return worker;
  });
  const next = (i: number) =>
    queues[i].length > 0
      ? Promise.resolve(queues[i].shift()!)
      : new Promise<WorkerMessage>((resolve) => (waiting[i] = resolve));
  const all: TrialRow[] = [];
  let rows = 0, errors = 0, cacheHits = 0;
  progress.start(work.length * 2);
  try {
    for (const w of work) {
      const m = await next(w.instance % n);
      if ("error" in m) throw new Error(`sweep worker failed: ${m.error}`);
      if (!("rows" in m) || trialKey(m.rows[0]) !== w.key) {
        throw new Error(`sweep worker sent rows out of plan order (expected ${w.key})`);
      }
      if (m.rows.length > 2) progress.extend?.(m.rows.length - 2);
      errors += m.rows.filter((r) => r.error !== null).length;
      cacheHits += m.rows.filter((r) => r.cacheHit === true).length;
      await onRows?.(m.rows, m.trajectory);
      if (options.keepRows) all.push(...m.rows);
      rows += m.rows.length;
      progress.update(rows, { errors, cacheHits });
    }
    for (let i = 0; i < n; i++) {
      const m = await next(i);
      if ("error" in m) throw new Error(`sweep worker failed: ${m.error}`);
    }
  } finally {
    progress.stop();
    for (const t of threads) t.terminate();
  }
  return all;
}

/**
 * The arguments of {@link sweepInWorkers} for a sweep: the plan's trial keys dealt by instance,
 * and the options a worker rebuilds the sweep from. RangeError when `workers` is not an integer
 * >= 1 or when a stage cannot be rebuilt in a worker (a model agent, a judge, writer or ranker
 * that is not registered, functions in the options).
 */
export function workerPlan(context: {
  options: SweepOptions;
  runId: string;
  points: readonly OperatingPoint[];
  judge: Judge;
  writer: Writer;
  tally: (rows: TrialRow[]) => void;
}): Parameters<typeof sweepInWorkers>[0] {
  const { options, runId, points, judge, writer, tally } = context;
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new RangeError(`Cannot sweep: workers must be an integer >= 1, got ${workers}`);
  }
  const refuse = (why: string) => {
    throw new RangeError(
      `Cannot sweep on ${workers} workers: ${why}; workers rebuild every stage from its id, ` +
        "so they run offline sweeps of built-in stages (use workers: 1)",
    );
  };
  const agentIds = options.agents.map((a) => a.id);
  for (const a of options.agents) {
    const again = a.simulated ? resolveAgents({ specs: [a.id] }) : [];
    if (again.length !== 1 || again[0].id !== a.id) refuse(`agent ${a.id} is not offline`);
  }
  if (JUDGES.get(judge.id) !== judge) refuse(`judge ${judge.id} is not a registered judge`);
  if (WRITERS.get(writer.id) !== writer) refuse(`writer ${writer.id} is not a registered writer`);
  for (const p of points) {
    if (!RANKERS.get(p.ranker)) refuse(`ranker ${p.ranker} is not a registered ranker`);
  }
  // A ranker factory is not needed: every ranker is registered (checked above).
  if (options.rankers !== undefined) refuse("rankers holds functions");
  const {
    agents: _a,
    judge: _j,
    writer: _w,
    onRows: _o,
    progress: _p,
    select,
    workers: _n,
    rankerFactory: _f,
    ...plain
  } = options;
  const seed = options.seed ?? 0;
  const tasks = planSweep({
    runId,
    seed,
    dataset: options.dataset,
    attacks: options.attacks ?? ["minja", "sleeper"],
    agents: options.agents,
    points,
    instances: options.instances,
  });
  const index = new Map(options.instances.map((inst, i) => [inst.id, i]));
  const work = sweepWork({ tasks, trials: options.trials ?? 1, select }).map(({ task }) => ({
    key: trialKey(task),
    instance: index.get(task.instance.id)!,
  }));
  return {
    // Trajectories are captured only when someone takes them, as in one thread.
    sweep: {
      options: { ...plain, trajectories: !!(options.trajectories && options.onRows) },
      agentIds,
      judgeId: judge.id,
      writerId: writer.id,
    },
    work,
    workers,
    onRows: (rows, trajectory) => (tally(rows), options.onRows?.(rows, trajectory)),
    progress: options.progress,
    keepRows: options.keepRows ?? true,
  };
}
