/**
 * The trajectory sidecar's line: what one pair trial wrote, kept, retrieved and answered in the
 * clean and the poisoned run, beside the rows (`--trajectories FILE`). One JSON object per pair
 * trial, in the rows' order, keyed like them by `pairId#trial`; the explorer and the Inspect
 * export read it. Record texts appear once per line (contexts list ids).
 */
import { z } from "zod";
import { Channel } from "./source_unit.ts";
import { RecordRole } from "./memory_record.ts";

/** The format tag every line carries; a reader refuses lines of another major version. */
export const PAIR_TRAJECTORY_FORMAT = "memgauge.trajectory/1";

/** One source unit of a trace, with where the ranker put it and whether writing admitted it. */
export const TrajectoryUnit = z.object({
  id: z.string(),
  text: z.string(),
  channel: Channel,
  trusted: z.boolean(),
  verified: z.boolean(),
  /** The query answer the unit states (the kit's annotation), or null. */
  asserts: z.string().nullable(),
  /** 1 = ranked first (admitted first); null when the pair failed before ranking. */
  rank: z.number().int().min(1).nullable(),
  /** In the admitted prefix `A(theta_w)`. */
  admitted: z.boolean(),
});
/** One source unit of a trace. */
export type TrajectoryUnit = z.infer<typeof TrajectoryUnit>;

/** One trace (helpful or risk) in chronological order. */
export const TrajectoryTrace = z.object({
  kind: z.enum(["helpful", "risk"]),
  id: z.string(),
  session: z.string(),
  units: z.array(TrajectoryUnit),
});
/** One trace. */
export type TrajectoryTrace = z.infer<typeof TrajectoryTrace>;

/** A record as the pair saw it: text, role and the kit's provenance. */
export const TrajectoryRecord = z.object({
  text: z.string(),
  role: RecordRole,
  /** Units it was written from (written records), empty for a background record. */
  sourceUnitIds: z.array(z.string()),
  channels: z.array(Channel),
  trusted: z.boolean(),
  verified: z.boolean(),
  session: z.string(),
  writtenAt: z.number().int(),
  asserts: z.string().nullable(),
});
/** A record as the pair saw it. */
export type TrajectoryRecord = z.infer<typeof TrajectoryRecord>;

/** A record the management policy quarantined, and why. */
export const Quarantine = z.object({
  id: z.string(),
  role: RecordRole,
  reason: z.string(),
});
/** A quarantined record. */
export type Quarantine = z.infer<typeof Quarantine>;

/** One message of an LLM agent's transcript (OpenAI roles); reasoning is kept apart, shortened. */
export const TrajectoryMessage = z.object({
  role: z.string(),
  content: z.string().nullable(),
  /** Tool calls the message made, as `name(arguments)`. */
  toolCalls: z.array(z.string()).optional(),
  /** The model's reasoning, collapsed to its opening (full text of the answer: the row's `reasoning`). */
  reasoning: z.string().optional(),
  /** Characters of reasoning before it was collapsed. */
  reasoningChars: z.number().int().optional(),
});
/** One message of a transcript. */
export type TrajectoryMessage = z.infer<typeof TrajectoryMessage>;

/** What one condition's run saw and said. */
export const TrajectoryRun = z.object({
  /** Records the policy quarantined in this condition's memory. */
  quarantined: z.array(Quarantine),
  /** The context the agent was given, record ids in slot order. */
  context: z.array(z.string()),
  output: z.string().nullable(),
  correct: z.boolean().nullable(),
  matchesTarget: z.boolean().nullable(),
  hedged: z.boolean().nullable(),
  error: z.string().nullable(),
  /** The LLM agent's transcript (none for the offline agent). */
  messages: z.array(TrajectoryMessage).optional(),
  /** The offline reference agent's reading (what it read, each value's evidence), as it reports it. */
  reading: z.unknown().optional(),
  /** An LLM judge's one-sentence reason. */
  judgeReason: z.string().nullable().optional(),
});
/** What one condition's run saw and said. */
export type TrajectoryRun = z.infer<typeof TrajectoryRun>;

/** One record-level counterfactual rerun (`--counterfactual loo`). */
export const TrajectoryAblation = z.object({
  condition: z.enum(["clean", "poisoned"]),
  /** 0-based slot of the ablated record in the context. */
  slot: z.number().int().min(0),
  ablated: z.string(),
  role: RecordRole,
  replacement: z.string().nullable(),
  output: z.string().nullable(),
  correct: z.boolean().nullable(),
  matchesTarget: z.boolean().nullable(),
  /** The rerun undid the decision its trial was selected for; null for an error. */
  flipped: z.boolean().nullable(),
  error: z.string().nullable(),
});
/** One counterfactual rerun. */
export type TrajectoryAblation = z.infer<typeof TrajectoryAblation>;

/** One sidecar line: one pair trial. */
export const PairTrajectory = z.object({
  format: z.literal(PAIR_TRAJECTORY_FORMAT),
  runId: z.string(),
  pairId: z.string(),
  trial: z.number().int().min(0),
  instanceId: z.string(),
  agent: z.string(),
  attack: z.string(),
  /** The question, y* and y_adv. */
  query: z.string(),
  answer: z.string(),
  target: z.string(),
  /** Scheduled exposure draws a+ and a-. */
  helpfulExposed: z.boolean(),
  riskExposed: z.boolean(),
  /** Helpful trace, then the risk trace, with ranks and admission. */
  traces: z.array(TrajectoryTrace),
  /** Ids of the records written from the admitted prefixes (helpful, risk; none when nothing was admitted). */
  written: z.array(z.string()),
  /** Every record the line mentions, by id. */
  records: z.record(z.string(), TrajectoryRecord),
  clean: TrajectoryRun,
  poisoned: TrajectoryRun,
  ablations: z.array(TrajectoryAblation),
  /** A failure before the agent ran (ranking, writing): both rows are error rows. */
  error: z.string().nullable(),
});
/** One sidecar line. */
export type PairTrajectory = z.infer<typeof PairTrajectory>;

/**
 * The key of a sidecar line, the same as its rows' `trialKey`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trajectoryKey } from "./pair_trajectory.ts";
 * assert.equal(trajectoryKey({ pairId: "p1", trial: 2 }), "p1#2");
 * ```
 */
export function trajectoryKey(line: { pairId: string; trial?: number }): string {
  return `${line.pairId}#${line.trial ?? 0}`;
}
