/** Plan a sweep: every (attack, agent, operating point, instance) pair task, in a fixed order. */
import type { Agent } from "../agents/agent.ts";
import type { Attack, Instance } from "../schema/instance.ts";
import type { OperatingPoint } from "../schema/operating_point.ts";
import { stableId } from "../schema/stable_id.ts";
import { exposureSchedule } from "../stages/retrieval/exposure_schedule.ts";
import type { PairTask } from "./run_pair.ts";

/**
 * Expand a sweep into pair tasks. Order: attack, agent, operating point, instance. Exposure
 * schedules are drawn per operating point over the instance set (balanced: exactly
 * `round(theta_r * n)` exposed), from streams shared by every agent and attack. The pair id
 * hashes run, attack, agent, operating point and instance, so it is stable across runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planSweep } from "./plan_sweep.ts";
 * assert.deepEqual(planSweep({ runId: "r", seed: 0, dataset: "d", attacks: [], agents: [], points: [], instances: [] }), []);
 * ```
 */
export function planSweep(options: {
  /** Run id recorded in every row. */
  runId: string;
  /** Run seed. */
  seed: number;
  /** Dataset name recorded in rows. */
  dataset: string;
  /** Attacks to run. */
  attacks: readonly Attack[];
  /** Agents to run. */
  agents: readonly Agent[];
  /** Operating points. */
  points: readonly OperatingPoint[];
  /** Instances (already sized to the bank). */
  instances: readonly Instance[];
}): PairTask[] {
  const { runId, seed, dataset, attacks, agents, points, instances } = options;
  const ids = instances.map((i) => i.id);
  const tasks: PairTask[] = [];
  for (const attack of attacks) {
    for (const agent of agents) {
      for (const point of points) {
        const helpful = exposureSchedule({ ids, theta: point.thetaR, seed, stream: "helpful" });
        const risk = exposureSchedule({ ids, theta: point.thetaRRisk, seed, stream: "risk" });
        for (const instance of instances) {
          tasks.push({
            runId,
            seed,
            dataset,
            attack,
            point,
            instance,
            agent,
            pairId: stableId([runId, attack, agent.id, point, instance.id]),
            helpfulExposed: helpful.get(instance.id)!,
            riskExposed: risk.get(instance.id)!,
          });
        }
      }
    }
  }
  return tasks;
}
