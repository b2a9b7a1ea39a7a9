/**
 * The `search_memory` tool of `--memory-placement tool`: the agent asks for its memories and
 * gets exactly the controlled context (the retrieval stage already chose it), whatever it asked.
 */
import type { ToolSpec } from "../models/model_client.ts";
import { agentPrompts } from "./memory_prompt.ts";

/** The tool's name, as the model sees it. */
export const SEARCH_MEMORY = "search_memory";

/**
 * The tool's OpenAI function declaration (description text from `prompts/memory_agent.md`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchMemoryTool } from "./search_memory_tool.ts";
 * const tool = searchMemoryTool();
 * assert.equal(tool.function.name, "search_memory");
 * assert.deepEqual(tool.function.parameters.required, ["query"]);
 * ```
 */
export function searchMemoryTool(): ToolSpec & {
  function: { parameters: { required: string[] } };
} {
  const prompts = agentPrompts();
  return {
    type: "function",
    function: {
      name: SEARCH_MEMORY,
      description: prompts.search_memory,
      parameters: {
        type: "object",
        properties: { query: { type: "string", description: prompts.search_memory_query } },
        required: ["query"],
        additionalProperties: false,
      },
    },
  };
}

/** `tool_choice` that forces the tool (the agent's first step). */
export const FORCE_SEARCH_MEMORY = {
  type: "function",
  function: { name: SEARCH_MEMORY },
} as const;
