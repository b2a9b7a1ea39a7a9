/** The trajectories a judge is validated on: one sweep at the paper's default operating point. */
import type { Instance } from "../schema/instance.ts";
import { PAPER_DEFAULTS } from "../schema/operating_point.ts";
import type { TrialRow } from "../schema/trial_row.ts";
import { sweep } from "../run/sweep.ts";
import type { ExperimentOptions } from "./experiment_setup.ts";
import { experimentAgents, experimentInstances } from "./experiment_setup.ts";

/**
 * Clean and poisoned trajectories (both attacks) of every agent on `n` instances at `theta_w =
 * 0.6`, UM, K = 5, |B| = 100 (or `options.base`, `bankSize`, `attacks`) and full exposure
 * `theta_r = 1`: half of them poisoned, like the
 * paper's 200 clean + 200 poisoned validation set. Full exposure puts both the helpful and the
 * risk record in every poisoned context (the cases a judge must tell apart), and it makes each
 * instance's trajectories independent of `n` (a balanced schedule below 1 depends on the instance
 * list), so labels made on the first instances still match a run with more. Rows carry the run
 * judge's verdicts (`options.models.judge`, default the deterministic matcher).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeTrajectories } from "./judge_trajectories.ts";
 * const { rows, instances } = await judgeTrajectories({ n: 2 });
 * assert.equal(instances.length, 2);
 * assert.equal(rows.length, 5 * 2 * 2 * 2); // personas x attacks x instances x conditions
 * ```
 */
export async function judgeTrajectories(
  options: ExperimentOptions,
): Promise<{ rows: TrialRow[]; instances: Instance[] }> {
  const instances = await experimentInstances(
    options,
    options.bankSize ?? PAPER_DEFAULTS.bankSize,
    1,
  );
  const rows = await sweep({
    stage: "retrieval",
    grid: [1],
    instances,
    dataset: options.dataset ?? "demo",
    agents: experimentAgents(options),
    seed: options.seed ?? 0,
    progress: options.progress?.("trajectories"),
    attacks: options.attacks,
    // θr is 1 (see above); the other stages follow the options (default the paper's).
    base: { ...options.base, bankSize: options.bankSize ?? PAPER_DEFAULTS.bankSize },
    judge: options.models?.judge,
    writer: options.models?.writer,
    rankerFactory: options.models?.rankerFactory,
  });
  return { rows, instances };
}
