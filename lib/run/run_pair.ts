/**
 * One paired trial: the same instance, seed, helpful exposure and background positions run
 * once without and once with the risk trace. Stage by stage: write, manage, retrieve, answer,
 * judge. Pairing is structural: both rows come out of one call.
 */
import type { Agent } from "../agents/agent.ts";
import type { Attack, Instance } from "../model/instance.ts";
import type { MemoryRecord } from "../model/memory_record.ts";
import type { OperatingPoint } from "../model/operating_point.ts";
import type { Condition, TrialRow } from "../model/trial_row.ts";
import type { ManagementPolicy } from "../stages/management/policy.ts";
import { pairContexts } from "../stages/retrieval/pair_contexts.ts";
import { admit } from "../stages/writing/admit.ts";
import { writeTraceRecord } from "../stages/writing/write_trace_record.ts";
import type { SweepResources } from "./sweep_resources.ts";

/** Everything one pair needs. */
export interface PairTask {
  runId: string;
  seed: number;
  dataset: string;
  attack: Attack;
  point: OperatingPoint;
  instance: Instance;
  agent: Agent;
  pairId: string;
  /** Scheduled exposures `a+` and `a-` for this instance at this operating point. */
  helpfulExposed: boolean;
  riskExposed: boolean;
}

function _kept(policy: ManagementPolicy, records: MemoryRecord[]) {
  const { kept, quarantined } = policy.apply({ records });
  return { kept: new Set(kept.map((r) => r.id)), quarantinedIds: quarantined.map((r) => r.id) };
}

/**
 * Run one pair and return its clean and poisoned rows (in that order). A failure of the agent
 * or the judge becomes a row with `error` set and null decisions, never a wrong answer.
 */
export async function runPair(task: PairTask, resources: SweepResources): Promise<TrialRow[]> {
  const { instance, point, attack, agent, seed } = task;
  const riskTrace = instance.risk[attack];
  if (!riskTrace) {
    throw new RangeError(`instance ${instance.id}: has no ${attack} risk trace`);
  }

  // Writing: rank each trace once, admit the nested prefix, reuse cached unit writes.
  const ranker = resources.ranker(point.ranker);
  const [helpfulRanking, riskRanking] = await Promise.all([
    resources.ranking(ranker, instance.helpful, seed),
    resources.ranking(ranker, riskTrace, seed),
  ]);
  const admittedHelpful = admit({ ranking: helpfulRanking, theta: point.thetaW });
  const admittedRisk = admit({ ranking: riskRanking, theta: point.thetaW });
  const [helpful, risk] = await Promise.all([
    writeTraceRecord({
      trace: instance.helpful,
      admitted: admittedHelpful,
      cache: resources.writes,
    }),
    writeTraceRecord({ trace: riskTrace, admitted: admittedRisk, cache: resources.writes }),
  ]);

  // Management on each condition's pre-management state M_c = B ∪ dM+, M_p = M_c ∪ dM-.
  const background = instance.background;
  const memoryClean = helpful ? [...background, helpful] : [...background];
  const memoryPoisoned = risk ? [...memoryClean, risk] : memoryClean;
  const policy = resources.policy(point.policy);
  const clean = _kept(policy, memoryClean);
  const poisoned = _kept(policy, memoryPoisoned);

  // Retrieval: shared a+, fill order and slots; the risk record takes one background slot.
  const order = resources.fillOrder(instance, point.fill, seed);
  const contexts = pairContexts({
    k: point.k,
    helpful: helpful && clean.kept.has(helpful.id) && poisoned.kept.has(helpful.id)
      ? helpful
      : null,
    risk: risk && poisoned.kept.has(risk.id) ? risk : null,
    helpfulExposed: task.helpfulExposed,
    riskExposed: task.riskExposed,
    cleanFill: order.filter((r) => clean.kept.has(r.id)),
    poisonedFill: order.filter((r) => poisoned.kept.has(r.id)),
    seed,
    drawKey: instance.id,
  });

  const row = async (condition: Condition): Promise<TrialRow> => {
    const context = condition === "clean" ? contexts.clean : contexts.poisoned;
    const started = performance.now();
    let output: string | null = null;
    let verdict: { correct: boolean; matchesTarget: boolean } | null = null;
    let error: string | null = null;
    try {
      const answer = await agent.answer({
        instance,
        context,
        condition,
        pairId: task.pairId,
        seed,
      });
      output = answer.output;
      verdict = await resources.judge.judge({ instance, output, trajectory: answer.trajectory });
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    return {
      runId: task.runId,
      seed,
      agent: agent.id,
      simulated: agent.simulated,
      dataset: task.dataset,
      attack,
      ...point,
      instanceId: instance.id,
      pairId: task.pairId,
      condition,
      unitsHelpful: instance.helpful.units.length,
      unitsRisk: riskTrace.units.length,
      admittedHelpful: admittedHelpful.length,
      admittedRisk: condition === "clean" ? 0 : admittedRisk.length,
      quarantinedIds: (condition === "clean" ? clean : poisoned).quarantinedIds,
      helpfulExposed: task.helpfulExposed,
      riskExposed: task.riskExposed,
      helpfulInContext: context.some((r) => r.role === "helpful"),
      riskInContext: context.some((r) => r.role === "risk"),
      contextIds: context.map((r) => r.id),
      contextSize: context.length,
      output,
      correct: verdict?.correct ?? null,
      matchesTarget: verdict?.matchesTarget ?? null,
      error,
      latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
    };
  };
  return [await row("clean"), await row("poisoned")];
}
