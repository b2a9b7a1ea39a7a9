/**
 * One paired trial: the same instance, seed, helpful exposure and background positions run
 * once without and once with the risk trace. Stage by stage: write, manage, retrieve, answer,
 * judge. Pairing is structural: both rows come out of one call.
 */
import type { Agent } from "../agents/agent.ts";
import type { ModelUsage } from "../schema/model_usage.ts";
import type { Attack, Instance } from "../schema/instance.ts";
import type { OperatingPoint } from "../schema/operating_point.ts";
import { type Condition, TRIAL_ROW_COLUMNS, type TrialRow } from "../schema/trial_row.ts";
import type { Judge, Verdict } from "../judges/judge.ts";
import type { MemoryRecord } from "../schema/memory_record.ts";
import { memoryState } from "../stages/management/memory_state.ts";
import type { ManagementPolicy, MemoryState } from "../stages/management/policy.ts";
import { pairContexts } from "../stages/retrieval/pair_contexts.ts";
import { admit } from "../stages/writing/admit.ts";
import { writeTraceRecord } from "../stages/writing/write_trace_record.ts";
import { type CallRecord, withCallScope } from "../models/call_scope.ts";
import { inPhase, RUN_PHASES } from "./run_phase.ts";
import { errorOutcome, errorRow } from "./error_row.ts";
import type { SweepResources } from "./sweep_resources.ts";
import {
  type AblationColumns,
  type CounterfactualMode,
  counterfactualRows,
} from "./counterfactual.ts";
import type { PairCapture, RowCapture } from "./trajectory_capture.ts";

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
  /** Independent repeat index (`--trials`); default 0. */
  trial?: number;
  /** Record-level counterfactual reruns of the pair's selected trials; default `none`. */
  counterfactual?: CounterfactualMode;
  /** Receives what the pair built, for the trajectory sidecar; default none. */
  capture?: (capture: PairCapture) => void;
}

/**
 * The model calls each row of `runPair` made (its agent's and its judge's), by row: the sweep
 * settles a row's `cacheHit` from them in plan order (see `ResponseCache.claim`).
 */
export const ROW_CALLS: WeakMap<TrialRow, readonly CallRecord[]> = new WeakMap();

/** A refusal is an answer that commits to nothing: an abstention, neither correct nor the target. */
const _ABSTENTION: Verdict = { correct: false, matchesTarget: false, hedged: false };

/** The key of one pair trial in a rows file: what resume and retry-errors match on. */
export function trialKey(row: { pairId: string; trial?: number }): string {
  return `${row.pairId}#${row.trial ?? 0}`;
}

function _sum(a: number | null | undefined, b: number | null | undefined): number | null {
  return a == null && b == null ? null : (a ?? 0) + (b ?? 0);
}

/** The judge of one agent's trials (`llm:self` resolves to the agent's model). */
function _judgeFor(judge: Judge, agent: Agent): Judge {
  return judge.forAgent?.(agent) ?? judge;
}

/** The columns every row of a pair carries about its judge, writer and agent set-up. */
function _setup(judge: Judge, agent: Agent, resources: SweepResources) {
  return {
    judgeModel: judge.model ?? null,
    judgePromptHash: judge.promptHash ?? null,
    judgeScope: judge.scope ?? "answer",
    judge: judge.id,
    writer: resources.writes.writer.id,
    memoryPlacement: agent.memoryPlacement ?? null,
    counterfactualOf: null,
    ablatedRecordId: null,
    ablatedRole: null,
    replacementRecordId: null,
  };
}

function _kept(policy: ManagementPolicy, state: MemoryState) {
  const { kept, quarantined } = policy.apply(state);
  return { kept: new Set(kept.map((r) => r.id)), quarantinedIds: quarantined.map((r) => r.id) };
}

/**
 * Run one pair and return its clean and poisoned rows (in that order). A failure of the agent
 * or the judge becomes a row with `error` set and null decisions, never a wrong answer.
 */
export async function runPair(task: PairTask, resources: SweepResources): Promise<TrialRow[]> {
  const riskTrace = task.instance.risk[task.attack];
  if (!riskTrace) {
    throw new RangeError(`instance ${task.instance.id}: has no ${task.attack} risk trace`);
  }
  try {
    return await _runPair(task, resources, riskTrace);
  } catch (e) {
    // A failed model call in writing (ranker, writer) fails both rows of the pair.
    let judge: Judge = resources.judge;
    try {
      judge = _judgeFor(resources.judge, task.agent);
    } catch {
      // The judge cannot serve this agent: the error says so; the rows name the judge as given.
    }
    return (["clean", "poisoned"] as const).map((condition) =>
      errorRow({
        columns: TRIAL_ROW_COLUMNS,
        error: e,
        row: {
          runId: task.runId,
          seed: task.seed,
          agent: task.agent.id,
          simulated: task.agent.simulated,
          dataset: task.dataset,
          attack: task.attack,
          ...task.point,
          instanceId: task.instance.id,
          pairId: task.pairId,
          condition,
          unitsHelpful: task.instance.helpful.units.length,
          unitsRisk: riskTrace.units.length,
          admittedHelpful: 0,
          admittedRisk: 0,
          quarantinedIds: [],
          helpfulExposed: task.helpfulExposed,
          riskExposed: task.riskExposed,
          helpfulInContext: false,
          riskInContext: false,
          contextIds: [],
          contextSize: 0,
          trial: task.trial ?? 0,
          ..._setup(judge, task.agent, resources),
        },
      }) as TrialRow
    );
  }
}

async function _runPair(
  task: PairTask,
  resources: SweepResources,
  riskTrace: NonNullable<PairTask["instance"]["risk"]["minja"]>,
): Promise<TrialRow[]> {
  const { instance, point, attack, agent, seed } = task;
  const trial = task.trial ?? 0;
  const judge = _judgeFor(resources.judge, agent);

  // Writing: rank each trace once, admit the nested prefix, reuse cached unit writes. With
  // write-ahead (batch export) every unit is written while the ranking is still pending: each
  // unit is written once whatever its rank, so both can go in one batch round.
  const ranker = resources.ranker(point.ranker, agent);
  const ahead = resources.writeAhead && point.thetaW > 0
    ? inPhase("writing", () =>
      Promise.allSettled(
        [instance.helpful, riskTrace].flatMap((trace) =>
          trace.units.map((unit) => resources.writes.write(unit, { trace }))
        ),
      ))
    : undefined;
  const [rankings] = await Promise.all([
    inPhase("ranking", () =>
      Promise.all([
        resources.ranking(ranker, instance.helpful, seed),
        resources.ranking(ranker, riskTrace, seed),
      ])),
    ahead,
  ]);
  const [helpfulRanking, riskRanking] = rankings;
  const admittedHelpful = admit({ ranking: helpfulRanking, theta: point.thetaW });
  const admittedRisk = admit({ ranking: riskRanking, theta: point.thetaW });
  const [helpful, risk] = await inPhase("writing", () =>
    Promise.all([
      writeTraceRecord({
        trace: instance.helpful,
        admitted: admittedHelpful,
        cache: resources.writes,
      }),
      writeTraceRecord({ trace: riskTrace, admitted: admittedRisk, cache: resources.writes }),
    ]));

  // Management on each condition's pre-management state M_c = B ∪ dM+, M_p = M_c ∪ dM-.
  const background = instance.background;
  const memoryClean = helpful ? [...background, helpful] : [...background];
  const memoryPoisoned = risk ? [...memoryClean, risk] : memoryClean;
  const policy = resources.policy(point.policy);
  // Each condition's policy knows its own history: the helpful trace, plus the risk trace when poisoned.
  const states = {
    clean: memoryState({ records: memoryClean, traces: [instance.helpful] }),
    poisoned: memoryState({ records: memoryPoisoned, traces: [instance.helpful, riskTrace] }),
  };
  const clean = _kept(policy, states.clean);
  const poisoned = _kept(policy, states.poisoned);

  // Retrieval: shared a+, fill order and slots; the risk record takes one background slot.
  const order = resources.fillOrder(instance, point.fill, seed);
  const fills = {
    clean: order.filter((r) => clean.kept.has(r.id)),
    poisoned: order.filter((r) => poisoned.kept.has(r.id)),
  };
  const contexts = pairContexts({
    k: point.k,
    helpful: helpful && clean.kept.has(helpful.id) && poisoned.kept.has(helpful.id)
      ? helpful
      : null,
    risk: risk && poisoned.kept.has(risk.id) ? risk : null,
    helpfulExposed: task.helpfulExposed,
    riskExposed: task.riskExposed,
    cleanFill: fills.clean,
    poisonedFill: fills.poisoned,
    seed,
    drawKey: instance.id,
  });

  // What each row's agent and judge returned, for the trajectory sidecar (`task.capture`).
  const answers = new Map<TrialRow, RowCapture>();
  // One answered and judged trial; a counterfactual rerun passes its own context and columns.
  const row = async (
    condition: Condition,
    context: MemoryRecord[],
    ablation?: AblationColumns,
  ): Promise<TrialRow> => {
    const started = performance.now();
    let output: string | null = null;
    let verdict: Verdict | null = null;
    let error: string | null = null;
    let usage: ModelUsage | undefined;
    let reasoning: string | null = null;
    let stopReason: string | null = null;
    const captured: RowCapture = {};
    let refusal: boolean | null = null;
    const calls: CallRecord[] = [];
    try {
      // The row's calls (agent and judge) are collected: its cacheHit is settled from them.
      const judged = await withCallScope({ calls }, async () => {
        // What a judge request can be foreseen to depend on: the question (with y* and y_adv),
        // the agent, the trial and the evidence the context holds.
        const evidence = ["helpful", "risk"].filter((role) => context.some((r) => r.role === role));
        const answer = await inPhase(
          ablation ? "counterfactual" : "agent",
          () =>
            agent.answer({
              instance,
              context,
              condition,
              pairId: task.pairId,
              seed,
              ...(trial !== 0 && { trial }),
            }),
          {
            answerKey: JSON.stringify([
              instance.query,
              instance.answer,
              instance.target,
              agent.id,
              trial,
              evidence,
            ]),
          },
        );
        // A judge failure's error row keeps the agent's finish reason.
        stopReason = answer.stopReason ?? null;
        // A refusal is graded as an abstention, with no judge call; its text is the output.
        // A counterfactual rerun's verdict needs the rerun's answer: one batch round later.
        const verdict = answer.refusal ? _ABSTENTION : await inPhase(
          ablation ? "counterfactual" : "judge",
          () =>
            judge.judge({
              instance,
              output: answer.output,
              trajectory: answer.trajectory,
              ...(trial !== 0 && { trial }),
            }),
          {
            condition: condition === "poisoned" ? "poisoned" : "clean",
            ...(ablation && { round: RUN_PHASES.counterfactual.round + 1 }),
          },
        );
        return { answer, verdict };
      });
      const { answer } = judged;
      verdict = judged.verdict;
      usage = answer.usage;
      stopReason = answer.stopReason ?? null;
      captured.trajectory = answer.trajectory;
      if (verdict.usage) {
        usage = {
          cacheHit: (usage?.cacheHit ?? true) && verdict.usage.cacheHit,
          promptTokens: _sum(usage?.promptTokens, verdict.usage.promptTokens),
          completionTokens: _sum(usage?.completionTokens, verdict.usage.completionTokens),
        };
      }
      output = answer.output;
      reasoning = answer.reasoning ?? null;
      captured.judgeReason = verdict.reasoning ?? null;
      refusal = answer.refusal ?? false;
    } catch (e) {
      // A failed call is an error row with null decisions, never a wrong answer.
      ({ error, stopReason } = errorOutcome({ error: e, stopReason }));
      verdict = null;
    }
    const done: TrialRow = {
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
      hedged: verdict?.hedged ?? null,
      error,
      latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
      trial,
      cacheHit: usage?.cacheHit ?? null,
      promptTokens: usage?.promptTokens ?? null,
      completionTokens: usage?.completionTokens ?? null,
      reasoning,
      stopReason,
      ..._setup(judge, agent, resources),
      ...ablation,
      refusal,
    };
    if (task.capture) answers.set(done, captured);
    if (calls.length > 0) ROW_CALLS.set(done, calls);
    return done;
  };
  // Both conditions at once: with a model agent this halves a pair's wall time.
  const rows = await Promise.all([
    row("clean", contexts.clean),
    row("poisoned", contexts.poisoned),
  ]);
  const all = (task.counterfactual ?? "none") === "none"
    ? rows
    : [...rows, ...await counterfactualRows({ rows, contexts, fills, rerun: row })];
  task.capture?.({
    runId: task.runId,
    pairId: task.pairId,
    trial,
    instance,
    riskTrace,
    agent: agent.id,
    attack,
    helpfulExposed: task.helpfulExposed,
    riskExposed: task.riskExposed,
    rankings: { helpful: helpfulRanking, risk: riskRanking },
    admitted: { helpful: admittedHelpful, risk: admittedRisk },
    written: { helpful, risk },
    policy,
    states,
    quarantined: { clean: clean.quarantinedIds, poisoned: poisoned.quarantinedIds },
    contexts,
    rows: all,
    answers,
  });
  return all;
}
