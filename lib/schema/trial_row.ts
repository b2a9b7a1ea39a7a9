/**
 * The row contract: one JSON object per trial. Later issues may add columns, never rename.
 * Columns are declared as data so readers (summaries, resume) can check them.
 */
import { z } from "zod";
import { Attack } from "./instance.ts";
import { RecordRole } from "./memory_record.ts";
import { OperatingPoint } from "./operating_point.ts";

/** Experimental condition of a trial; `nomemory` rows measure U0. */
export const Condition = z.enum(["clean", "poisoned", "nomemory"]);
/** Experimental condition of a trial. */
export type Condition = z.infer<typeof Condition>;

/**
 * What produced a row: `controlled` rows come from the kit's own stages (one stage varies, the
 * others sit at their operating point); `system` rows from an existing memory system measured
 * end to end (`lib/schema/system_row.ts`). Files written before the column existed are controlled.
 */
export const RowKind = z.enum(["controlled", "system"]);
/** What produced a row. */
export type RowKind = z.infer<typeof RowKind>;

/**
 * Where the LLM agent is shown the retrieved records: in its system prompt as a memory section
 * (LangGraph's memory agents; the default), in the user's turn, or through a `search_memory`
 * tool call forced on its first step.
 */
export const MemoryPlacement = z.enum(["system", "user", "tool"]);
/** Where the LLM agent is shown the retrieved records. */
export type MemoryPlacement = z.infer<typeof MemoryPlacement>;

/**
 * What a judge reads: `answer` = the question, the agent's final answer (and its visible
 * reasoning), `y*` and `y_adv`, never the retrieved memory (the default); `trajectory` = the
 * agent's whole trajectory, memory included (the paper's AgentEvals setting).
 */
export const JudgeScope = z.enum(["answer", "trajectory"]);
/** What a judge reads. */
export type JudgeScope = z.infer<typeof JudgeScope>;

/** One trial row of the controlled pipeline. */
export const TrialRow = z.object({
  /** `controlled` or absent (the stage sweep leaves it out; its rows are controlled by definition). */
  kind: z.literal("controlled").optional(),
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
  // The columns below are absent from the existing-systems rows and from files written before
  // them; readers take an absent value as null.
  /** What the judge read (`answer` for the deterministic matcher too). */
  judgeScope: JudgeScope.nullable().optional(),
  /**
   * The id of the judge that decided the row (`deterministic`, `llm:MODEL`, a plugin's id; for
   * `llm:self`, the agent's model it resolved to); null in files written before the column.
   */
  judge: z.string().nullable().default(null),
  /** The id of the writer `W` that wrote the row's memory (`verbatim`, `llm:MODEL`, a plugin's). */
  writer: z.string().nullable().default(null),
  /** Where the LLM agent was shown its memory; null for the offline reference agent. */
  memoryPlacement: MemoryPlacement.nullable().optional(),
  /**
   * Record-level counterfactual (`--counterfactual loo`): the `trajectoryId` of the trial this
   * row reruns with one retrieved record replaced; null on ordinary rows.
   */
  counterfactualOf: z.string().nullable().optional(),
  /** The record taken out of the original context; null on ordinary rows. */
  ablatedRecordId: z.string().nullable().optional(),
  /** Its role in the controlled design; null on ordinary rows. */
  ablatedRole: RecordRole.nullable().optional(),
  /**
   * The background record that took its slot (the next one of the fill order); null on ordinary
   * rows, and when no background record was left (the context then holds one record fewer).
   */
  replacementRecordId: z.string().nullable().optional(),
  /**
   * The agent model refused to answer (`content: null` with a `refusal`): the refusal text is
   * the `output`, graded as an abstention (`correct` and `matchesTarget` false, no judge call).
   * False for an answer; null for error rows, the offline agent's rows and older files.
   */
  refusal: z.boolean().nullable().optional(),
});
/** One trial row. */
export type TrialRow = z.infer<typeof TrialRow>;

/** Column names in contract order. */
export const TRIAL_ROW_COLUMNS = Object.keys(TrialRow.shape) as (keyof TrialRow)[];
