/**
 * The paper's agent: a LangGraph.js graph in the shape of LangGraph's memory-agent templates.
 * A `call_model` node answers from a system prompt that holds the retrieved memories (each with
 * its source and written time) and the query asked in a later session; with
 * `--memory-placement tool` the model must first call `search_memory`, which a tool node answers
 * with exactly the controlled context. The trajectory is the chat transcript in OpenAI message
 * format, which the trajectory judge reads.
 *
 * Where the graph is one model call (memory in the system prompt or the user's turn: START ->
 * call_model -> END), its node is run directly, with the same state, messages and trajectory
 * (`tests/agents/llm_agent_test.ts` checks them against `graph.invoke`): LangGraph's runtime
 * costs 1-3 ms of CPU per trial, more than everything else the kit does for a request. The tool
 * placement's loop runs on LangGraph, with no LangSmith run tree built per runnable unless
 * tracing is asked for (`LANGSMITH_TRACING=true`).
 */
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { MemoryRecord } from "../schema/memory_record.ts";
import type { ModelUsage } from "../schema/model_usage.ts";
import type { MemoryPlacement } from "../schema/trial_row.ts";
import type { ChatMessage, ModelClient, ToolCall } from "../models/model_client.ts";
import { deriveSeed } from "../random/derive_seed.ts";
import type { Agent } from "./agent.ts";
import { agentMessages, memorySection } from "./memory_prompt.ts";
import { FORCE_SEARCH_MEMORY, SEARCH_MEMORY, searchMemoryTool } from "./search_memory_tool.ts";

/** Model calls one trial may make with the tool before it must have answered. */
const MAX_MODEL_CALLS = 3;

const State = Annotation.Root({
  context: Annotation<MemoryRecord[]>,
  seed: Annotation<number>,
  trial: Annotation<number>,
  messages: Annotation<ChatMessage[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  calls: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  usage: Annotation<ModelUsage>({
    reducer: (a, b) => ({
      cacheHit: a.cacheHit && b.cacheHit,
      promptTokens: _sum(a.promptTokens, b.promptTokens),
      completionTokens: _sum(a.completionTokens, b.completionTokens),
    }),
    default: () => ({ cacheHit: true, promptTokens: null, completionTokens: null }),
  }),
  stopReason: Annotation<string | null>,
});

/** The usage channel's default (no call made yet). */
const _NO_USAGE: ModelUsage = { cacheHit: true, promptTokens: null, completionTokens: null };

function _sum(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

/** Whether LangSmith tracing was asked for (then LangGraph builds its run trees as usual). */
function _tracing(): boolean {
  try {
    return ["LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"]
      .some((name) => Deno.env.get(name) === "true");
  } catch {
    return false; // no env permission: nobody asked
  }
}

let _runTreesOff = false;

/**
 * LangChain core builds a LangSmith `RunTree` (tracing disabled) for every runnable LangGraph
 * runs, to carry its config; with tracing off that tree is never sent anywhere. Ask it not to
 * build one: the config still reaches every node, which receives it as an argument.
 */
function _noRunTrees(): void {
  if (_runTreesOff || _tracing()) return;
  _runTreesOff = true;
  const provider = AsyncLocalStorageProviderSingleton as unknown as {
    runWithConfig(config: unknown, callback: unknown, avoidCreatingRootRunTree?: boolean): unknown;
  };
  const runWithConfig = provider.runWithConfig.bind(provider);
  provider.runWithConfig = (config, callback, avoid) =>
    runWithConfig(config, callback, avoid ?? true);
}

/** A transcript message in OpenAI format (what the trajectory judge formats). */
function _openai(m: ChatMessage): Record<string, unknown> {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls?.length && {
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    }),
    ...(m.toolCallId !== undefined && { tool_call_id: m.toolCallId }),
    ...(m.reasoning && { reasoning: m.reasoning }),
    ...(m.refusal && { refusal: m.refusal }),
  };
}

/**
 * The agent over one model: `llm:MODEL` in `--agent`. Nodes: `call_model` (one model call) and,
 * with the tool placement, `search_memory` (the tool node), routed as LangGraph's memory agents
 * route tool calls. Twins share the seed; each trial gets its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmAgent } from "./llm_agent.ts";
 * import { ModelClient } from "../models/model_client.ts";
 * import { loadDemo } from "../data/demo.ts";
 * import { startFakeOpenAIServer } from "../testing/fake_openai_server.ts";
 * // The model reasons in a <think> block: the answer is what follows it, the reasoning kept apart.
 * const server = startFakeOpenAIServer({ reply: () => "<think>the record says 4</think>4" });
 * try {
 *   const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: server.baseUrl, apiKey: "k", seed: true, extra: {} } });
 *   const agent = llmAgent({ client });
 *   assert.deepEqual([agent.id, agent.simulated, agent.memoryPlacement], ["llm:m", false, "system"]);
 *   const [instance] = await loadDemo({ seed: 0, bankSize: 4, traceLoad: 1, dataDir: "" });
 *   const answer = await agent.answer({ instance, context: instance.background, condition: "clean", pairId: "p", seed: 0 });
 *   assert.deepEqual([answer.output, answer.reasoning], ["4", "the record says 4"]);
 * } finally { await server.close(); }
 * ```
 */
export function llmAgent(options: {
  /** The client of the agent's model. */
  client: ModelClient;
  /** Where the retrieved records go; default `system` (LangGraph's memory agents). */
  memoryPlacement?: MemoryPlacement;
}): Agent & {
  client: ModelClient;
  memoryPlacement: MemoryPlacement;
  /** The compiled LangGraph graph (what `answer` runs, node by node where it is one call). */
  graph: { invoke(input: Record<string, unknown>): Promise<unknown> };
} {
  const { client } = options;
  const placement = options.memoryPlacement ?? "system";
  const useTool = placement === "tool";
  const tools = useTool ? [searchMemoryTool()] : undefined;

  const callModel = async (s: typeof State.State) => {
    if (s.calls >= MAX_MODEL_CALLS) {
      throw new RangeError(
        `agent llm:${client.endpoint.id}: no answer after ${MAX_MODEL_CALLS} model calls (it kept calling ${SEARCH_MEMORY})`,
      );
    }
    const searched = s.messages.some((m) => m.role === "tool");
    const r = await client.chat({
      messages: s.messages,
      seed: s.seed,
      trial: s.trial,
      // The first step must search memory; afterwards the model may answer.
      ...(tools && { tools, toolChoice: searched ? "auto" : FORCE_SEARCH_MEMORY }),
      // A refusal is an answer (an abstention), not a failed call.
      acceptRefusal: true,
    });
    // Only the visible answer is the output (judged, graded); the reasoning stays beside it.
    const message: ChatMessage = {
      role: "assistant",
      content: r.content,
      ...(r.reasoning && { reasoning: r.reasoning }),
      ...(r.toolCalls.length > 0 && { toolCalls: r.toolCalls }),
      ...(r.refusal && { refusal: r.refusal }),
    };
    return {
      messages: [message],
      calls: 1,
      stopReason: r.stopReason,
      usage: {
        cacheHit: r.cacheHit,
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
      },
    };
  };
  // The tool returns the controlled context, whatever the query the model asked for.
  const searchMemory = (s: typeof State.State) => {
    const calls: ToolCall[] = s.messages.at(-1)?.toolCalls ?? [];
    return {
      messages: calls.map((call): ChatMessage => ({
        role: "tool",
        toolCallId: call.id,
        content: call.name === SEARCH_MEMORY
          ? memorySection({ context: s.context })
          : `Unknown tool ${JSON.stringify(call.name)}; the only tool is ${SEARCH_MEMORY}.`,
      })),
    };
  };
  const route = (s: typeof State.State) =>
    useTool && (s.messages.at(-1)?.toolCalls?.length ?? 0) > 0 ? SEARCH_MEMORY : END;
  const graph = new StateGraph(State)
    .addNode("call_model", callModel)
    .addNode(SEARCH_MEMORY, searchMemory)
    .addEdge(START, "call_model")
    .addConditionalEdges("call_model", route, [SEARCH_MEMORY, END])
    .addEdge(SEARCH_MEMORY, "call_model")
    .compile();

  if (useTool) _noRunTrees();

  return {
    id: `llm:${client.endpoint.id}`,
    simulated: false,
    memoryPlacement: placement,
    client,
    graph,
    async answer({ instance, context, seed, trial = 0 }) {
      const opening = agentMessages({
        query: instance.query,
        ...(instance.queryDate === undefined ? {} : { queryDate: instance.queryDate }),
        context,
        placement,
      });
      const input = {
        context,
        // Twins share the seed; each trial gets its own, so repeats are independent samples.
        seed: deriveSeed(seed, "trial", trial),
        trial,
        messages: opening,
        stopReason: null,
      };
      let final: Pick<typeof State.State, "messages" | "usage" | "stopReason">;
      if (useTool) final = await graph.invoke(input);
      else {
        // START -> call_model -> END: the node, with the state the graph would give it.
        const step = await callModel({ ...input, calls: 0, usage: _NO_USAGE });
        final = { ...step, messages: [...opening, ...step.messages] };
      }
      const last = final.messages.at(-1)!;
      if (last.role !== "assistant" || (last.toolCalls?.length ?? 0) > 0) {
        throw new RangeError(`agent llm:${client.endpoint.id}: the last message is not an answer`);
      }
      return {
        // A refusal is the answer: its text is the output, graded as an abstention.
        output: last.refusal ?? last.content,
        trajectory: final.messages.map(_openai),
        usage: final.usage,
        reasoning: last.reasoning ?? null,
        stopReason: final.stopReason ?? null,
        ...(last.refusal !== undefined && { refusal: true }),
      };
    },
  };
}
