/**
 * A chat trajectory as the trajectory judge reads it, in agentevals' layout (one
 * `<role>...</role>` block per message; tool calls and tool results in `<tool_call>` and
 * `<tool_result>` blocks), so `--judge-scope trajectory` grades what AgentEvals would.
 */

/** One OpenAI-format message of a trajectory (the fields the layout uses). */
export interface TrajectoryMessage {
  role: string;
  content?: string | null;
  tool_calls?: readonly { id?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

/**
 * Format messages as agentevals' trajectory LLM-as-judge does (`_chatCompletionMessagesToString`
 * in langchain-ai/agentevals, js/src/trajectory/utils.ts, MIT License): blocks joined by a blank
 * line. Anything that is not a message list is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTrajectory } from "./format_trajectory.ts";
 * const text = formatTrajectory({ messages: [
 *   { role: "user", content: "How old is Rex?" },
 *   { role: "assistant", content: "", tool_calls: [{ id: "c1", function: { name: "search_memory", arguments: '{"query":"Rex"}' } }] },
 *   { role: "tool", content: "Rex is 4.", tool_call_id: "c1" },
 *   { role: "assistant", content: "Four." },
 * ] });
 * assert.equal(text.split("\n\n").length, 4);
 * assert.match(text, /<assistant>\n<tool_call>\n<name>search_memory<\/name>\n<arguments>\{"query":"Rex"\}<\/arguments>\n<\/tool_call>\n<\/assistant>/);
 * assert.match(text, /<tool>\n<tool_result>\n<id>c1<\/id>\n<content>Rex is 4\.<\/content>\n<\/tool_result>\n<\/tool>/);
 * ```
 */
export function formatTrajectory(options: {
  /** The trajectory's messages, in order. */
  messages: readonly TrajectoryMessage[];
}): string {
  return options.messages.map((message, i) => {
    if (!message || typeof message.role !== "string") {
      throw new TypeError(`Cannot format trajectory: message ${i} has no role`);
    }
    let content = message.content ?? "";
    if (message.tool_calls?.length) {
      const calls = message.tool_calls.map((call) =>
        `<tool_call>\n<name>${call.function?.name ?? ""}</name>\n<arguments>${
          call.function?.arguments ?? ""
        }</arguments>\n</tool_call>`
      ).join("\n");
      content = content ? `${content}\n${calls}` : calls;
    }
    if (message.tool_call_id) {
      content =
        `<tool_result>\n<id>${message.tool_call_id}</id>\n<content>${content}</content>\n</tool_result>`;
    }
    return `<${message.role}>\n${content}\n</${message.role}>`;
  }).join("\n\n");
}
