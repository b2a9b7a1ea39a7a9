/**
 * The final answer every judge reads: the agent's output without any reasoning it carries
 * (`<think>` and `<reasoning>` blocks and their kin). The memory-blind LLM judge and the
 * deterministic matcher read exactly this text, so they grade the same thing.
 */
import { splitReasoning } from "../text/reasoning.ts";

/**
 * The final answer of an output: `splitReasoning(output).answer`. The model client has already
 * split a provider's reply; this also covers outputs from elsewhere (a system adapter, a batch
 * import, a row judged again) and is idempotent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { finalAnswer } from "./final_answer.ts";
 * assert.equal(finalAnswer("<reasoning>a record says 6</reasoning>\nFour."), "Four.");
 * assert.equal(finalAnswer(finalAnswer("<think>6?</think>Four.")), "Four.");
 * ```
 */
export function finalAnswer(output: string): string {
  return splitReasoning(output).answer;
}
