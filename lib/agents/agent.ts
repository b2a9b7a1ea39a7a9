/** The agent interface `F`: answer a query from the retrieved memory context. */
import type { MemoryRecord } from "../schema/memory_record.ts";
import type { Instance } from "../schema/instance.ts";
import type { Condition, MemoryPlacement } from "../schema/trial_row.ts";
import type { ModelUsage } from "../schema/model_usage.ts";

/** What an agent receives for one trial. */
export interface AgentInput {
  /** The instance; agents must read only `query` (the rest is for simulators' bookkeeping). */
  instance: Instance;
  /** Retrieved context `X_s`, exactly as positioned by retrieval. */
  context: MemoryRecord[];
  condition: Condition;
  pairId: string;
  /** Seed for this pair; clean and poisoned twins receive the same seed. */
  seed: number;
  /** Independent repeat index (`--trials`); default 0. Real agents use it as a cache slot. */
  trial?: number;
}

/** What an agent returns: the decision text and, when it has one, its trajectory. */
export interface AgentOutput {
  output: string;
  trajectory?: unknown;
  /** Model usage (real agents only); default none. */
  usage?: ModelUsage;
  /** The model's reasoning behind `output` (never part of it); default none. */
  reasoning?: string | null;
  /** The model's finish reason (`stop`, ...); default none. */
  stopReason?: string | null;
  /**
   * True when the model refused to answer (then `output` is the refusal text): an answer,
   * graded as an abstention (neither correct nor the target); default false.
   */
  refusal?: boolean;
}

/** An agent: the offline reference reader or a real model. */
export interface Agent {
  /** Row label, e.g. `reference:balanced` or `llm:gpt-5.4`. */
  id: string;
  /** True for the offline simulator; every row it produces says so. */
  simulated: boolean;
  /** Where an LLM agent is shown its memory (recorded in rows); default none (the simulator). */
  memoryPlacement?: MemoryPlacement;
  answer(input: AgentInput): Promise<AgentOutput>;
}
