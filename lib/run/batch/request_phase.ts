/** Which phase of a run a model request belongs to. */
import { isAgentSystemPrompt } from "../../agents/memory_prompt.ts";
import { RANKER_PROMPT } from "../../stages/writing/rankers/llm.ts";
import { WRITER_PROMPT } from "../../stages/writing/writers/llm.ts";
import { currentPhase, PHASES, type RunPhase } from "../run_phase.ts";

/** The phases of a batched sweep, in the order their requests become computable. */
export const BATCH_PHASES: readonly RunPhase[] = PHASES;

/** One phase of a batched sweep. */
export type BatchPhase = RunPhase;

/**
 * The phase of a request: the one the calling code declared (`inPhase`, which every call of a
 * sweep runs under). A request made outside any phase (a library user's own call) is placed
 * by its system prompt, which is part of its cache key: ranker, writer, agent, else judge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentMessages } from "../../agents/memory_prompt.ts";
 * import { inPhase } from "../run_phase.ts";
 * import { requestPhase } from "./request_phase.ts";
 * const messages = agentMessages({ query: "Q?", context: [], placement: "system" });
 * assert.equal(requestPhase({ messages }), "agent");
 * assert.equal(inPhase("counterfactual", () => requestPhase({ messages })), "counterfactual");
 * assert.equal(requestPhase({ messages: [{ role: "user", content: "grade this" }] }), "judge");
 * ```
 */
export function requestPhase(body: Record<string, unknown>): RunPhase {
  const declared = currentPhase();
  if (declared) return declared;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const system = messages.find((m) => m?.role === "system")?.content;
  if (system === RANKER_PROMPT) return "ranking";
  if (system === WRITER_PROMPT) return "writing";
  if (typeof system === "string" && isAgentSystemPrompt(system)) return "agent";
  return "judge";
}
