/**
 * The row contract: one JSON object per trial. Later issues may add columns, never rename.
 * Columns are declared as data so readers (summaries, resume) can check them.
 */
import { z } from "zod";
import { Attack } from "./instance.ts";
import { OperatingPoint } from "./operating_point.ts";

/** Experimental condition of a trial; `nomemory` rows measure U0. */
export const Condition = z.enum(["clean", "poisoned", "nomemory"]);
/** Experimental condition of a trial. */
export type Condition = z.infer<typeof Condition>;

/** One trial row. */
export const TrialRow = z.object({
  runId: z.string(),
  seed: z.number().int(),
  agent: z.string(),
  /** True when the agent is the offline reference simulator, not a real model. */
  simulated: z.boolean(),
  dataset: z.string(),
  attack: Attack,
  ...OperatingPoint.shape,
  instanceId: z.string(),
  pairId: z.string(),
  condition: Condition,
  unitsHelpful: z.number().int(),
  unitsRisk: z.number().int(),
  admittedHelpful: z.number().int(),
  admittedRisk: z.number().int(),
  quarantinedIds: z.array(z.string()),
  /** Scheduled exposure draws `a+` and `a-` (before availability and slots). */
  helpfulExposed: z.boolean(),
  riskExposed: z.boolean(),
  /** What the agent actually saw. */
  helpfulInContext: z.boolean(),
  riskInContext: z.boolean(),
  contextIds: z.array(z.string()),
  contextSize: z.number().int(),
  output: z.string().nullable(),
  correct: z.boolean().nullable(),
  matchesTarget: z.boolean().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number(),
  /** Independent repeat index (`--trials`). */
  trial: z.number().int().nonnegative().default(0),
  /** Model usage of the row's agent and judge calls; null for the offline reference path. */
  cacheHit: z.boolean().nullable().default(null),
  promptTokens: z.number().int().nullable().default(null),
  completionTokens: z.number().int().nullable().default(null),
  /**
   * The judge found the output leaving `y*` or `y_adv` open as an alternative ("either X or Y"),
   * so it supports neither; null for error rows, for judges that do not decide it and for rows
   * written before the column existed.
   */
  hedged: z.boolean().nullable().default(null),
  /** LLM judge model and prompt hash; null for the deterministic matcher. */
  judgeModel: z.string().nullable().default(null),
  judgePromptHash: z.string().nullable().default(null),
  /** The agent model's reasoning (provider field or `<think>` blocks), never part of `output`. */
  reasoning: z.string().nullable().default(null),
  /**
   * The finish reason of the agent's call (`stop`, ...), or of the call that failed the row
   * (`length`, `content_filter`); null for the offline reference path.
   */
  stopReason: z.string().nullable().default(null),
});
/** One trial row. */
export type TrialRow = z.infer<typeof TrialRow>;

/** Column names in contract order. */
export const TRIAL_ROW_COLUMNS = Object.keys(TrialRow.shape) as (keyof TrialRow)[];
