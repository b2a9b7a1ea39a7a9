/** An atomic source unit: the smallest piece of an interaction trace that writing can admit. */
import { z } from "zod";

/** Who produced the unit inside the interaction. */
export const Channel = z.enum(["user", "assistant", "tool"]);
/** Who produced the unit inside the interaction. */
export type Channel = z.infer<typeof Channel>;

/**
 * A number the unit states, keyed by the quantity it measures ("meeting hour", "dog age").
 * Numeric-conflict management compares values under the same key only, so unrelated numbers
 * (a date in one record, a price in another) never conflict.
 */
export const StatedNumber = z.object({
  key: z.string().min(1),
  value: z.number().finite(),
});
/** A number the unit states, keyed by the quantity it measures. */
export type StatedNumber = z.infer<typeof StatedNumber>;

/**
 * Who wrote a unit's text: the benchmark (`dataset`: its sessions, in its words) or the kit
 * (`kit`: an opening line, a recap, an attack template). The demo set plays the dataset.
 */
export const UnitOrigin = z.enum(["dataset", "kit"]);
/** Who wrote a unit's text. */
export type UnitOrigin = z.infer<typeof UnitOrigin>;

/**
 * One atomic source unit.
 *
 * `asserts` is the answer to the instance's query that this unit states, or null. The offline
 * reference agent reads it instead of parsing language; instance builders fill it in, and tests
 * check it against the text with the judge's matcher.
 *
 * `supports` is the answer this unit is evidence for, whether or not it states it: the benchmark
 * annotates the turn as evidence for y* (a date the reader works out from "yesterday" and the
 * session date, one of the counts a total is summed from), or the attack wrote it to carry y_adv.
 * Absent or null: evidence for nothing. A unit that asserts a value supports it.
 */
export const SourceUnit = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  channel: Channel,
  trusted: z.boolean(),
  verified: z.boolean(),
  numbers: z.array(StatedNumber).default([]),
  asserts: z.string().min(1).nullable().default(null),
  supports: z.string().min(1).nullable().optional(),
  /** Who wrote the text; absent: the dataset. */
  origin: UnitOrigin.optional(),
});
/** One atomic source unit. */
export type SourceUnit = z.infer<typeof SourceUnit>;
