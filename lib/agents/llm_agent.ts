/**
 * The LLM agent: a LangGraph.js graph that reads the query and the retrieved memory context and
 * answers through a model client. Its trajectory is the chat transcript (OpenAI message format),
 * which is what the agentevals trajectory judge reads.
 */
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import type { MemoryRecord } from "../model/memory_record.ts";
import type { ChatMessage, ModelClient } from "../models/model_client.ts";
import { deriveSeed } from "../random/derive_seed.ts";
import type { ModelUsage } from "../model/model_usage.ts";
import type { Agent } from "./agent.ts";

/** The system prompt of the agent (part of every cache key, so changing it re-asks). */
export const AGENT_SYSTEM_PROMPT =
  "You are a personal assistant with a long-term memory. Answer the user's question using the " +
  "memory records provided. Reply with the answer in one short sentence.";

/** The user message: numbered memory records, then the question. */
export function agentUserMessage(options: { query: string; context: readonly MemoryRecord[] }) {
  const records = options.context.length === 0
    ? "(no memory records)"
    : options.context.map((r, i) => `[${i + 1}] ${r.text}`).join("\n");
  return `Memory records:\n${records}\n\nQuestion: ${options.query}`;
}

const State = Annotation.Root({
  query: Annotation<string>,
  context: Annotation<MemoryRecord[]>,
  seed: Annotation<number>,
  trial: Annotation<number>,
  messages: Annotation<ChatMessage[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  usage: Annotation<ModelUsage | null>,
  stopReason: Annotation<string | null>,
});

/**
 * An agent over one model: `llm:MODEL` in `--agent`. The graph has two nodes, `recall` (put the
 * retrieved records in front of the model) and `answer` (one model call), so further steps (tool
 * use, reflection) can be added as nodes without changing the interface.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmAgent } from "./llm_agent.ts";
 * import { ModelClient } from "../models/model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} } });
 * const agent = llmAgent({ client });
 * assert.equal(agent.id, "llm:m");
 * assert.equal(agent.simulated, false);
 * ```
 */
export function llmAgent(options: {
  /** The client of the agent's model. */
  client: ModelClient;
}): Agent & { client: ModelClient } {
  const { client } = options;
  const graph = new StateGraph(State)
    .addNode("recall", (s) => ({
      messages: [
        { role: "system", content: AGENT_SYSTEM_PROMPT },
        { role: "user", content: agentUserMessage({ query: s.query, context: s.context }) },
      ] as ChatMessage[],
    }))
    .addNode("answer", async (s) => {
      const r = await client.chat({ messages: s.messages, seed: s.seed, trial: s.trial });
      // Only the visible answer is the output (judged, graded); the reasoning stays beside it.
      return {
        messages: [
          { role: "assistant", content: r.content, ...(r.reasoning && { reasoning: r.reasoning }) },
        ] as ChatMessage[],
        stopReason: r.stopReason,
        usage: {
          cacheHit: r.cacheHit,
          promptTokens: r.promptTokens,
          completionTokens: r.completionTokens,
        },
      };
    })
    .addEdge(START, "recall")
    .addEdge("recall", "answer")
    .addEdge("answer", END)
    .compile();
  return {
    id: `llm:${client.endpoint.id}`,
    simulated: false,
    client,
    async answer({ instance, context, seed, trial = 0 }) {
      const final = await graph.invoke({
        query: instance.query,
        context,
        // Twins share the seed; each trial gets its own, so repeats are independent samples.
        seed: deriveSeed(seed, "trial", trial),
        trial,
        usage: null,
        stopReason: null,
      });
      const last = final.messages.at(-1)!;
      return {
        output: last.content,
        trajectory: final.messages,
        usage: final.usage ?? undefined,
        reasoning: last.reasoning ?? null,
        stopReason: final.stopReason ?? null,
      };
    },
  };
}
