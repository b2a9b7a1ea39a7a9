/**
 * The phases of a run's model requests, and which phase a request belongs to. The code that
 * makes a call says its phase (`inPhase`), so the dry-run plan and batch export count requests
 * by phase from the same code paths the run takes, never by reading prompts or by a formula.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A phase's place in a run. */
export interface PhaseInfo {
  /** What the phase's requests do. */
  description: string;
  /**
   * Batch API round: a phase's requests can be sent once every earlier round is answered.
   * Ranking and writing share round 1 (with `writeAhead` every unit is written whatever its
   * rank), the agent needs the written records, the judge the agent's answer.
   */
  round: number;
}

/**
 * The registry of phases, in run order. A new kind of model call (e.g. record-level
 * counterfactual agent calls) gets its entry here and wraps its calls in `inPhase`; the plan,
 * batch export and their printers then count it with no further change.
 */
export const RUN_PHASES = {
  ranking: { description: "LLM ranker: one ranking per trace and model", round: 1 },
  writing: { description: "LLM writer: one write per source unit and model", round: 1 },
  agent: { description: "the agent's answer, per pair, condition and trial", round: 2 },
  judge: { description: "LLM judge verdicts on the agent's answers", round: 3 },
  counterfactual: {
    description: "record-level counterfactuals: reruns with one retrieved record replaced " +
      "(their verdicts, needing the reruns' answers, in round 5)",
    round: 4,
  },
} as const satisfies Record<string, PhaseInfo>;

/** One phase of a run. */
export type RunPhase = keyof typeof RUN_PHASES;

/** The phases in run order. */
export const PHASES: readonly RunPhase[] = Object.keys(RUN_PHASES) as RunPhase[];

const _phase = new AsyncLocalStorage<
  { phase: RunPhase; round: number; condition?: "clean" | "poisoned"; answerKey?: string }
>();

/**
 * Run `fn` with `phase` as the current phase: every model call it makes, directly or through
 * awaited promises, is counted under that phase. `round` overrides the phase's batch round for
 * calls that need an answer of the same phase first (a counterfactual rerun's verdict needs the
 * rerun's answer: `inPhase("counterfactual", judgeIt, { round: 5 })`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { currentPhase, currentRound, inPhase } from "./run_phase.ts";
 * const seen = await inPhase("judge", async () => {
 *   await new Promise((r) => setTimeout(r, 1));
 *   return [currentPhase(), currentRound()];
 * });
 * assert.deepEqual(seen, ["judge", 3]);
 * assert.equal(inPhase("counterfactual", () => currentRound(), { round: 5 }), 5);
 * assert.equal(currentPhase(), undefined);
 * ```
 */
export function inPhase<T>(
  phase: RunPhase,
  fn: () => T,
  options: {
    round?: number;
    /** The condition of the trial a verdict grades (a dry run's stand-in verdict reads it). */
    condition?: "clean" | "poisoned";
    /**
     * What an answer can be foreseen to depend on (the question, the agent, the trial and the
     * evidence in its context): a dry run's stand-in answers are equal exactly when these are,
     * so the memory-blind judge is planned once per foreseeable answer.
     */
    answerKey?: string;
  } = {},
): T {
  if (!(phase in RUN_PHASES)) {
    throw new RangeError(
      `inPhase: unknown phase ${JSON.stringify(phase)} (expected one of ${PHASES.join(", ")})`,
    );
  }
  return _phase.run({
    phase,
    round: options.round ?? RUN_PHASES[phase].round,
    ...(options.condition && { condition: options.condition }),
    ...(options.answerKey && { answerKey: options.answerKey }),
  }, fn);
}

/** The `answerKey` `inPhase` was given for the code running now; undefined when none. */
export function currentAnswerKey(): string | undefined {
  return _phase.getStore()?.answerKey;
}

/** The condition `inPhase` was given for the code running now; undefined when none. */
export function currentCondition(): "clean" | "poisoned" | undefined {
  return _phase.getStore()?.condition;
}

/** The phase of the code running now; undefined outside any `inPhase`. */
export function currentPhase(): RunPhase | undefined {
  return _phase.getStore()?.phase;
}

/** The batch round of the code running now; undefined outside any `inPhase`. */
export function currentRound(): number | undefined {
  return _phase.getStore()?.round;
}
