/** A memory record: what the writer stores, what management keeps, what retrieval exposes. */
import { z } from "zod";
import { Channel, StatedNumber } from "./source_unit.ts";

/** Where a record came from. The kit keeps this itself; it never trusts a store's metadata. */
export const Provenance = z.object({
  /** Session the record was written from ("background" for the bank). */
  session: z.string().min(1),
  /** Channels of its source units, in first-seen order; a record has at least one. */
  channels: z.array(Channel).min(1),
  /** True when every source unit is trusted. */
  trusted: z.boolean(),
  /** True when at least one source unit is a verified outcome (a confirmation, a tool result). */
  verified: z.boolean(),
  /** Logical write time: background 0, helpful session 1, risk session 2. */
  writtenAt: z.number().int().nonnegative(),
  /**
   * Calendar time of the session the record was written in, as the data gives it ("8 May
   * 2023"); absent when the data has none (instance files without it still parse). The agent
   * then shows the logical session (`writtenAt`) as the written time.
   */
  sessionTime: z.string().min(1).optional(),
});
/** Where a record came from. */
export type Provenance = z.infer<typeof Provenance>;

/** Role of a record in the controlled design. */
export const RecordRole = z.enum(["helpful", "risk", "background"]);
/** Role of a record in the controlled design. */
export type RecordRole = z.infer<typeof RecordRole>;

/** One memory record. `asserts`: the query answer it states (first asserting unit), or null. */
export const MemoryRecord = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  role: RecordRole,
  sourceUnitIds: z.array(z.string()),
  provenance: Provenance,
  numbers: z.array(StatedNumber).default([]),
  asserts: z.string().min(1).nullable().default(null),
  /**
   * The answer the record is evidence for (its first source unit's `supports` or `asserts`),
   * whether or not its text states it; absent or null: none.
   */
  supports: z.string().min(1).nullable().optional(),
  /**
   * The share of its trace's evidence for `supports` that the record holds (units written /
   * units of the trace that carry it), in (0, 1]; absent: all of it (a bank record, a system's).
   */
  supportShare: z.number().positive().max(1).optional(),
});
/** One memory record. */
export type MemoryRecord = z.infer<typeof MemoryRecord>;
