/** Which stage of a sweep a model request belongs to, read from its prompt. */
import { isAgentSystemPrompt } from "../../agents/memory_prompt.ts";
import { RANKER_PROMPT } from "../../stages/writing/rankers/llm.ts";
import { WRITER_PROMPT } from "../../stages/writing/writers/llm.ts";

/** The phases of a batched sweep, in the order their requests become computable. */
export const BATCH_PHASES = ["ranking", "writing", "agent", "judge"] as const;

/** One phase of a batched sweep. */
export type BatchPhase = typeof BATCH_PHASES[number];

/**
 * The phase of a chat request body: the ranker, writer and agent are recognised by their system
 * prompts (each is part of the cache key, so it is always there); anything else is the judge.
 * Rankings come before writes (an LLM writer writes only admitted units), writes before agent
 * calls (the context holds the written records), agent calls before judge calls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentMessages } from "../../agents/memory_prompt.ts";
 * import { requestPhase } from "./request_phase.ts";
 * const messages = agentMessages({ query: "Q?", context: [], placement: "system" });
 * assert.equal(requestPhase({ messages }), "agent");
 * assert.equal(requestPhase({ messages: [{ role: "user", content: "grade this" }] }), "judge");
 * ```
 */
export function requestPhase(body: Record<string, unknown>): BatchPhase {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const system = messages.find((m) => m?.role === "system")?.content;
  if (system === RANKER_PROMPT) return "ranking";
  if (system === WRITER_PROMPT) return "writing";
  if (typeof system === "string" && isAgentSystemPrompt(system)) return "agent";
  return "judge";
}
