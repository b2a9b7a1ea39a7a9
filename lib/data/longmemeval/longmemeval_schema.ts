/** zod schema of the official LongMemEval files (`longmemeval_oracle.json`, `longmemeval_s.json`). */
import { z } from "zod";

/** One chat turn. */
export const LongMemEvalTurn = z.looseObject({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  has_answer: z.boolean().optional(),
});

/** One question with its haystack of sessions. */
export const LongMemEvalItem = z.looseObject({
  question_id: z.string(),
  question_type: z.string(),
  question: z.string(),
  answer: z.union([z.string(), z.number()]),
  question_date: z.string(),
  haystack_dates: z.array(z.string()),
  haystack_session_ids: z.array(z.string()),
  haystack_sessions: z.array(z.array(LongMemEvalTurn)),
  answer_session_ids: z.array(z.string()),
});

/**
 * A whole file: an array of items.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LongMemEvalFile } from "./longmemeval_schema.ts";
 * assert.ok(!LongMemEvalFile.safeParse([{ question_id: 1 }]).success);
 * ```
 */
export const LongMemEvalFile = z.array(LongMemEvalItem).min(1);
/** A parsed file. */
export type LongMemEvalFile = z.infer<typeof LongMemEvalFile>;
