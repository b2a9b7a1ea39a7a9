/**
 * One dataset of the grid plan (`deno task plan`): its experiments run over stand-in replies on
 * a sample of instances. Datasets share no request, so `deno task plan` plans each in its own
 * worker (`plan_worker.ts`), in parallel.
 */
import { FIGURES } from "../experiments/figure_registry.ts";
import { reproduceExperiments } from "../experiments/reproduce_experiments.ts";
import type { PlanSetup } from "../run/plan/plan_sweep_run.ts";
import { planRun } from "../run/plan/plan_sweep_run.ts";
import type { PlanEntry } from "../run/plan/request_plan.ts";
import { silentProgress } from "../run/progress.ts";
import { sweep } from "../run/sweep.ts";

/** The figures of RQ2 (Figures 4-7 and asymmetric exposure): registered figures that run sweeps. */
export const RQ2_FIGURES: readonly string[] = FIGURES.ids().filter((id) => id !== "topk_curves");

/** What to plan for one dataset. */
export interface DatasetPlanTask {
  dataset: string;
  setup: PlanSetup;
  /** `llm:MODEL` agents of Figure 3's sweeps. */
  agents: string[];
  /** `llm:MODEL` of the RQ2 experiments (on LongMemEval only), or null. */
  rq2: string | null;
  seed: number;
  /** Instances the builder draws. */
  sample: number;
}

/** One dataset's plan, unscaled. */
export interface DatasetPlan {
  dataset: string;
  entries: PlanEntry[];
  judgeUpperBound: number;
  /** Instances planned, and the rows of their sweeps. */
  instances: number;
  rows: number;
}

/**
 * Plan one dataset of the grid: Figure 3's sweeps for every agent and, on LongMemEval, the RQ2
 * experiments for the RQ2 model (together: they share requests).
 */
export async function planDataset(task: DatasetPlanTask): Promise<DatasetPlan> {
  const instances = new Set<string>();
  let rows = 0;
  const common = {
    dataset: task.dataset,
    seed: task.seed,
    sample: task.sample,
    resamples: 1,
    progress: () => silentProgress,
    status: (message: string) => console.error(message),
    sweep: async (options: Parameters<typeof sweep>[0]) => {
      const done = await sweep(options);
      for (const r of done) instances.add(r.instanceId);
      rows += done.length;
      return done;
    },
    onFigure: () => {},
  };
  const plan = await planRun({
    setup: task.setup,
    run: async (models) => {
      await reproduceExperiments({
        ...common,
        agents: models.agents(task.agents),
        models,
        figures: [],
      });
      if (task.rq2 && task.dataset === "longmemeval") {
        await reproduceExperiments({
          ...common,
          agents: models.agents([task.rq2]),
          models,
          stages: false,
          figures: RQ2_FIGURES,
        });
      }
    },
  });
  return {
    dataset: task.dataset,
    entries: plan.entries,
    judgeUpperBound: plan.judgeUpperBound,
    instances: instances.size,
    rows,
  };
}
