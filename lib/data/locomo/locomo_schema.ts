/** zod schema of the official LoCoMo file `locomo10.json` (unknown extra keys are kept). */
import { z } from "zod";

/** One dialog turn; a turn that shares a photo carries the image captioner's `blip_caption`. */
export const LocomoTurn = z.looseObject({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});
/** One dialog turn. */
export type LocomoTurn = z.infer<typeof LocomoTurn>;

/** One QA item; category 5 (adversarial) items carry `adversarial_answer` instead of `answer`. */
export const LocomoQa = z.looseObject({
  question: z.string(),
  answer: z.union([z.string(), z.number()]).optional(),
  evidence: z.array(z.string()).default([]),
  category: z.number().int().min(1).max(5),
});

/** The conversation: speakers, `session_N` turn lists and `session_N_date_time` strings. */
export const LocomoConversation = z.looseObject({
  speaker_a: z.string(),
  speaker_b: z.string(),
}).catchall(z.union([z.string(), z.array(LocomoTurn)]));

/** One of the ten samples. */
export const LocomoSample = z.looseObject({
  sample_id: z.string(),
  conversation: LocomoConversation,
  qa: z.array(LocomoQa),
});

/**
 * The whole file: an array of samples.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LocomoFile } from "./locomo_schema.ts";
 * assert.ok(!LocomoFile.safeParse([{ sample_id: "x", conversation: {}, qa: [] }]).success);
 * ```
 */
export const LocomoFile = z.array(LocomoSample).min(1);
/** The parsed file. */
export type LocomoFile = z.infer<typeof LocomoFile>;
