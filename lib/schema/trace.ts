/** An interaction trace: the ordered source units one session contributes to memory. */
import { z } from "zod";
import { SourceUnit } from "./source_unit.ts";

/**
 * A helpful (`tau+`) or risk-bearing (`tau-`) trace. Units are in chronological order;
 * `session` names the session the trace came from (helpful and risk traces come from separate
 * sessions).
 */
export const Trace = z.object({
  id: z.string().min(1),
  session: z.string().min(1),
  kind: z.enum(["helpful", "risk"]),
  /**
   * Calendar date of the session the trace was written in ("8 May 2023"), when the data has
   * one; its record carries it as `provenance.sessionTime`.
   */
  sessionTime: z.string().min(1).optional(),
  units: z.array(SourceUnit).min(1),
}).superRefine((trace, ctx) => {
  const seen = new Set<string>();
  trace.units.forEach((unit, i) => {
    if (seen.has(unit.id)) {
      ctx.addIssue({
        code: "custom",
        path: ["units", i, "id"],
        message: `duplicate unit id ${JSON.stringify(unit.id)}`,
      });
    }
    seen.add(unit.id);
  });
});
/** A helpful or risk-bearing trace. */
export type Trace = z.infer<typeof Trace>;
