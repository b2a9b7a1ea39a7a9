/** A stable, readable id for one trajectory (one trial row), for labels files and joins. */
import type { TrialRow } from "./trial_row.ts";
import { stableId } from "./stable_id.ts";

/**
 * `agent/dataset/attack/instanceId/condition/tTRIAL/HASH`, HASH 8 hex digits of the operating
 * point, seed, context record ids and output. Labels describe what the agent saw and said, so a
 * rerun that reproduces the trajectory gets its id back (unlike `pairId`, which changes with the
 * run's instance list), and a different trajectory never inherits its labels.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trajectoryId } from "./trajectory_id.ts";
 * const row = { agent: "reference:careful", dataset: "demo", attack: "minja", instanceId: "d1",
 *   condition: "poisoned", trial: 0, seed: 0, stage: "retrieval", thetaW: 0.6, policy: "UM",
 *   thetaR: 0.8, thetaRRisk: 0.8, k: 5, fill: "random", bankSize: 100, ranker: "usefulness",
 *   traceLoad: 1, contextIds: ["r1", "h1"] as string[], output: "Five." } as const;
 * assert.match(trajectoryId(row), /^reference:careful\/demo\/minja\/d1\/poisoned\/t0\/[0-9a-f]{8}$/);
 * ```
 */
export function trajectoryId(
  row: Pick<
    TrialRow,
    | "agent"
    | "dataset"
    | "attack"
    | "instanceId"
    | "condition"
    | "trial"
    | "seed"
    | "stage"
    | "thetaW"
    | "policy"
    | "thetaR"
    | "thetaRRisk"
    | "k"
    | "fill"
    | "bankSize"
    | "ranker"
    | "traceLoad"
    | "contextIds"
    | "output"
  >,
): string {
  const hash = stableId([
    row.seed,
    row.stage,
    row.thetaW,
    row.policy,
    row.thetaR,
    row.thetaRRisk,
    row.k,
    row.fill,
    row.bankSize,
    row.ranker,
    row.traceLoad,
    row.contextIds,
    row.output,
  ]).slice(0, 8);
  return [
    row.agent,
    row.dataset,
    row.attack,
    row.instanceId,
    row.condition,
    `t${row.trial ?? 0}`,
    hash,
  ]
    .join("/");
}
