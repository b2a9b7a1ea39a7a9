/**
 * The row of an existing memory system (Mem0, LangMem, A-MEM, Hindsight) measured end to end:
 * the controlled row's columns where they mean the same thing, null where a controlled
 * operating-point column does not apply (the system writes, manages and retrieves by itself).
 */
import { z } from "zod";
import { Attack } from "./instance.ts";
import { Condition, JudgeScope, MemoryPlacement } from "./trial_row.ts";

/** Native management switch of a system: M0 = its own management off, M1 = on. */
export const ManagementMode = z.enum(["M0", "M1"]);
/** Native management switch of a system. */
export type ManagementMode = z.infer<typeof ManagementMode>;

/**
 * One system row. Operating-point columns of the controlled design (`stage`, `thetaW`,
 * `policy`, `thetaR`, `thetaRRisk`, `fill`, `ranker`) and the scheduled exposure draws
 * (`helpfulExposed`, `riskExposed`) are null: the system's own writing, management and retrieval
 * replace them. `k` is the retrieval budget, `management` the system's mode.
 */
export const SystemRow = z.object({
  kind: z.literal("system"),
  runId: z.string(),
  seed: z.number().int(),
  agent: z.string(),
  /** True when the agent is the offline reference simulator, not a real model. */
  simulated: z.boolean(),
  dataset: z.string(),
  attack: Attack,
  stage: z.null(),
  thetaW: z.null(),
  policy: z.null(),
  thetaR: z.null(),
  thetaRRisk: z.null(),
  k: z.number().int().min(1),
  fill: z.null(),
  bankSize: z.number().int().min(1),
  ranker: z.null(),
  traceLoad: z.number().positive(),
  instanceId: z.string(),
  pairId: z.string(),
  condition: Condition,
  unitsHelpful: z.number().int(),
  unitsRisk: z.number().int(),
  /**
   * Units of the helpful (risk) trace whose information is retained (WR, Table 1): the facts
   * each states are recoverable from the live records that trace to it
   * (`informationRetained`).
   */
  admittedHelpful: z.number().int(),
  admittedRisk: z.number().int(),
  /** The looser count kept for comparison: units some live record traces to at all. */
  tracedHelpful: z.number().int(),
  tracedRisk: z.number().int(),
  /** Always empty: a system removes records itself, it does not quarantine them. */
  quarantinedIds: z.array(z.string()),
  helpfulExposed: z.null(),
  riskExposed: z.null(),
  /** Some record in the context traces to a unit of the helpful (risk) trace. */
  helpfulInContext: z.boolean(),
  riskInContext: z.boolean(),
  /** Stable record ids (from provenance, never the store's own ids), in retrieval order. */
  contextIds: z.array(z.string()),
  contextSize: z.number().int(),
  output: z.string().nullable(),
  correct: z.boolean().nullable(),
  matchesTarget: z.boolean().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number(),
  trial: z.number().int().nonnegative(),
  cacheHit: z.boolean().nullable(),
  promptTokens: z.number().int().nullable(),
  completionTokens: z.number().int().nullable(),
  /** The judge found the output leaving y* or y_adv open (a hedge); null when it does not say. */
  hedged: z.boolean().nullable(),
  judgeModel: z.string().nullable(),
  judgePromptHash: z.string().nullable(),
  /** What the judge read (`answer` for the deterministic matcher too). */
  judgeScope: JudgeScope,
  /** Where the LLM agent was shown its memory; null for the offline reference agent. */
  memoryPlacement: MemoryPlacement.nullable(),
  /** The agent model's reasoning, never part of `output`; null for the offline agent. */
  reasoning: z.string().nullable(),
  /** The finish reason of the agent's call, or of the call that failed the row; else null. */
  stopReason: z.string().nullable(),
  /** Display name as in the paper's tables: Mem0, LangMem, A-MEM, Hindsight. */
  system: z.string().min(1),
  /** Library version or upstream repository and commit. */
  systemVersion: z.string().min(1),
  /** The chat model the system itself called; null when a server calls its own (Hindsight). */
  systemModel: z.string().nullable(),
  /** The embedding model the system called; null when a server embeds itself. */
  embeddingModel: z.string().nullable(),
  management: ManagementMode,
  /**
   * RSR hit (Section 3 of the paper): some record in the top K traces to a source unit asserting
   * y* (clean) or y_adv (poisoned), i.e. the record carrying the evidence. Null for no-memory rows.
   */
  rsrHit: z.boolean().nullable(),
  /**
   * The looser count kept for comparison: some record in the top K traces to any unit of the
   * helpful (clean) or risk (poisoned) trace, asserting or not. Null for no-memory rows.
   */
  traceHit: z.boolean().nullable(),
  /** True when the system's model, embedder or server were the kit's scripted stand-ins. */
  pipelineCheck: z.boolean(),
});
/** One system row. */
export type SystemRow = z.infer<typeof SystemRow>;

/** Column names of a system row, in contract order. */
export const SYSTEM_ROW_COLUMNS = Object.keys(SystemRow.shape) as (keyof SystemRow)[];
