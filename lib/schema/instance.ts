/** A benchmark instance: query, answer, attacker target, background bank and the two traces. */
import { z } from "zod";
import { MemoryRecord } from "./memory_record.ts";
import { Trace } from "./trace.ts";

/** The attacks the kit builds risk traces for: user side (MINJA) and tool side (Sleeper). */
export const Attack = z.enum(["minja", "sleeper"]);
/** The attacks the kit builds risk traces for. */
export type Attack = z.infer<typeof Attack>;

/** One instance `i`: `x_i`, `y*_i`, `y_adv_i`, `B_i`, `tau+_i` and `tau-_i` per attack. */
export const Instance = z.object({
  id: z.string().min(1),
  dataset: z.string().min(1),
  /** Free-form stratum (LoCoMo category, LongMemEval question type, demo topic). */
  category: z.string().default(""),
  query: z.string().min(1),
  /**
   * Date of the session in which the query is asked ("28 May 2023"), later than every session in
   * memory; the agent is told it, so "N weeks ago" can be worked out. Absent in instance files
   * that have no calendar (the agent is then told the logical session).
   */
  queryDate: z.string().min(1).optional(),
  answer: z.string().min(1),
  target: z.string().min(1),
  /**
   * Kind of answer, so target construction and reporting can be type-aware: a date, a number, a
   * short entity, free text, or `choice`, one of the options the query itself offers ("Which
   * came first, the bike or the car?"), whose target is another of them.
   */
  answerKind: z.enum(["number", "date", "entity", "text", "choice"]),
  background: z.array(MemoryRecord.extend({ role: z.literal("background") })).min(1),
  helpful: Trace.refine((t) => t.kind === "helpful", {
    message: "helpful trace must have kind helpful",
  }),
  risk: z.object({
    minja: Trace.refine((t) => t.kind === "risk", { message: "risk trace must have kind risk" })
      .optional(),
    sleeper: Trace.refine((t) => t.kind === "risk", { message: "risk trace must have kind risk" })
      .optional(),
  }),
});
/** One instance. */
export type Instance = z.infer<typeof Instance>;

/** A file of instances. */
export const InstanceFile = z.object({
  dataset: z.string().min(1),
  description: z.string().default(""),
  instances: z.array(Instance).min(1),
});
/** A file of instances. */
export type InstanceFile = z.infer<typeof InstanceFile>;
