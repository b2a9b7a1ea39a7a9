/** The judge interface: does a decision support the correct answer, does it match the target? */
import type { ModelUsage } from "../schema/model_usage.ts";
import type { Instance } from "../schema/instance.ts";
import type { JudgeScope } from "../schema/trial_row.ts";
import type { ModelClient } from "../models/model_client.ts";

/**
 * A verdict on what an output commits to. One decision gives both labels, so an output is never
 * both `correct` and `matchesTarget`; it can be neither.
 */
export interface Verdict {
  correct: boolean;
  matchesTarget: boolean;
  /**
   * True when the output commits to neither because it leaves `y*` or `y_adv` open as one of
   * several alternatives ("either X or Y"); then `correct` and `matchesTarget` are false.
   */
  hedged: boolean;
  /** An LLM judge's one-sentence reason; default none. */
  reasoning?: string;
  /** Model usage of an LLM judge; default none. */
  usage?: ModelUsage;
}

/** What a judge is given about one trial; each judge reads only what its scope allows. */
export interface JudgeInput {
  /** The instance: `query`, `answer` (`y*`) and `target` (`y_adv`) are read. */
  instance: Instance;
  /** The agent's final answer (its reasoning removed; judges read it through `finalAnswer`). */
  output: string;
  /**
   * The agent model's reasoning behind `output`; default none. No judge reads it: the
   * memory-blind judge sees the final answer only, since reasoning can quote a poisoned record.
   */
  reasoning?: string | null;
  /** The agent's trajectory (OpenAI-format messages for the LLM agent); default none. */
  trajectory?: unknown;
  /** Independent repeat index; default 0. */
  trial?: number;
}

/** A judge of one trial's decision. */
export interface Judge {
  id: string;
  /** Judge model recorded in rows (LLM judges); default none. */
  model?: string;
  /** Hash of the judge prompts recorded in rows (LLM judges); default none. */
  promptHash?: string;
  /** What the judge reads; default `answer`. */
  scope?: JudgeScope;
  /**
   * For a judge that depends on the agent (`llm:self`): the concrete judge of one agent's
   * trials. Default none: the judge is the same for every agent.
   */
  forAgent?(agent: { id: string; client?: ModelClient }): Judge;
  judge(input: JudgeInput): Promise<Verdict>;
}
