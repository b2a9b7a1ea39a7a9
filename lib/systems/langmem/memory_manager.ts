/**
 * A TypeScript port of LangMem's memory manager (langchain-ai/langmem@b5dbe4a,
 * `knowledge/extraction.py`) over trustcall's extractor (hinthornw/trustcall@8c7312b,
 * `_base.py`): the prompt as upstream builds it, the tools it binds (Memory, PatchDoc,
 * RemoveDoc), and trustcall's forced tool call whenever existing memories are shown.
 */
import prompts from "./upstream_prompts.json" with { type: "json" };
import { pyRepr } from "../_python_repr.ts";
import type { ChatMessage } from "../../models/model_client.ts";
import type { CallPhase, SystemCalls } from "../system_port.ts";

/** The upstream commits the port follows, written into rows. */
export const LANGMEM_UPSTREAM =
  "langchain-ai/langmem@b5dbe4a + hinthornw/trustcall@8c7312b (TypeScript port)";

/** One message of the conversation the manager reads. */
export interface ManagerMessage {
  role: "user" | "assistant" | "tool";
  content: string;
}

/** One memory shown to the manager: an id and its content. */
export interface ExistingMemory {
  id: string;
  content: string;
}

/** What one manager call decided. */
export type ManagerAction =
  | { tool: "insert"; content: string }
  | { tool: "patch"; id: string; content: string }
  | { tool: "remove"; id: string };

const _TITLES = { user: "Human Message", assistant: "Ai Message", tool: "Tool Message" };

/** langchain-core's `get_msg_title_repr`: the title centred in 80 `=`. */
function _title(title: string): string {
  const padded = ` ${title} `;
  const sep = "=".repeat(Math.floor((80 - padded.length) / 2));
  return `${sep}${padded}${padded.length % 2 ? sep + "=" : sep}`;
}

/**
 * langmem `utils.get_conversation`: consecutive messages of one role merged
 * (`merge_message_runs`), each printed as `pretty_repr()`, joined by a blank line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatConversation } from "./memory_manager.ts";
 * assert.match(formatConversation([{ role: "user", content: "hi" }]), /^=+ Human Message =+\n\nhi$/);
 * ```
 */
export function formatConversation(messages: readonly ManagerMessage[]): string {
  const merged: ManagerMessage[] = [];
  for (const m of messages) {
    const last = merged.at(-1);
    if (last && last.role === m.role && m.role !== "tool") last.content += "\n" + m.content;
    else merged.push({ ...m });
  }
  return merged.map((m) => `${_title(_TITLES[m.role])}\n\n${m.content}`).join("\n\n");
}

function _tools(options: { inserts: boolean; updates: boolean; deletes: boolean; ids: string[] }) {
  const fn = (name: string, description: string, parameters: Record<string, unknown>) => ({
    type: "function",
    function: { name, description, parameters },
  });
  const tools = [];
  // trustcall binds PatchDoc first, then the schemas, then RemoveDoc (`_ExtractUpdates._setup`).
  if (options.updates) {
    const f = prompts.patchDocTool.fields;
    tools.push(fn(prompts.patchDocTool.name, prompts.patchDocTool.description, {
      type: "object",
      properties: {
        json_doc_id: { type: "string", description: f.json_doc_id },
        planned_edits: { type: "string", description: f.planned_edits },
        patches: {
          type: "array",
          description: f.patches,
          items: {
            type: "object",
            description: prompts.jsonPatch.description,
            properties: {
              op: {
                type: "string",
                enum: ["add", "remove", "replace"],
                description: prompts.jsonPatch.fields.op,
              },
              path: { type: "string", description: prompts.jsonPatch.fields.path },
              value: { description: prompts.jsonPatch.fields.value },
            },
            required: ["op", "path", "value"],
          },
        },
      },
      required: ["json_doc_id", "planned_edits", "patches"],
    }));
  }
  if (options.inserts) {
    tools.push(fn(prompts.memoryTool.name, prompts.memoryTool.description, {
      type: "object",
      properties: {
        content: { type: "string", description: prompts.memoryTool.contentDescription },
      },
      required: ["content"],
    }));
  }
  if (options.deletes && options.ids.length > 0) {
    const allowed = `(${[...options.ids].sort().map((id) => pyRepr(id)).join(", ")}${
      options.ids.length === 1 ? "," : ""
    })`;
    tools.push(fn(prompts.removeDocTool.name, prompts.removeDocTool.description, {
      type: "object",
      properties: {
        json_doc_id: {
          type: "string",
          description: prompts.removeDocTool.idDescription.replace("{allowed_ids}", allowed),
        },
      },
      required: ["json_doc_id"],
    }));
  }
  return tools;
}

/** Options of {@link manageMemories}. */
export interface ManageMemoriesOptions {
  /** The session's model calls. */
  calls: SystemCalls;
  /** Which phase the call belongs to (writing or a mode's management). */
  phase: CallPhase;
  /** The conversation to read; empty for a consolidation phase without messages. */
  messages: readonly ManagerMessage[];
  /** Existing memories, as upstream passes the store's search hits (plus new ones in a phase). */
  existing: readonly ExistingMemory[];
  /** Upstream's `instructions`; default `_MEMORY_INSTRUCTIONS`. */
  instructions?: string;
  /** Upstream's switches. */
  enableInserts: boolean;
  enableUpdates: boolean;
  enableDeletes: boolean;
  /** Session id in `<session_ID>` (upstream: a random uuid4; here stable for caching). */
  sessionId: string;
}

/** A JSON patch applied to a Memory document `{content}`; null when the result has no content. */
function _applyPatches(content: string, patches: unknown[]): string | null {
  const doc: Record<string, unknown> = { content };
  for (const p of patches) {
    if (!p || typeof p !== "object") continue;
    const { op, path, value } = p as Record<string, unknown>;
    const key = typeof path === "string" ? path.replace(/^\//, "") : "";
    if (key !== "content") continue;
    if (op === "replace" || op === "add") doc.content = value;
    else if (op === "remove") delete doc.content;
  }
  return typeof doc.content === "string" && doc.content !== "" ? doc.content : null;
}

/**
 * One call of the manager. Prompt: upstream's system message "You are a memory subroutine for
 * an AI." with trustcall's `<existing>` block appended when memories exist, then upstream's user
 * message (instructions, the update rules, the `<session_...>` conversation). Tools as trustcall
 * binds them; with existing memories the call is forced (`tool_choice` "any", or "PatchDoc" when
 * only updates are on), without them it is not (upstream's `_Extract`, `tool_choice` None).
 * The chat API's tool calling is emulated by a JSON reply `{"tool_calls": [...]}` whose schema
 * lists the tools and, when forced, needs at least one call. Calls naming an unknown tool or
 * memory are dropped, as trustcall drops them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manageMemories } from "./memory_manager.ts";
 * const calls = { chat: () => Promise.resolve('{"tool_calls":[{"name":"Memory","arguments":{"content":"x"}},{"name":"RemoveDoc","arguments":{"json_doc_id":"m1"}}]}'), embed: () => Promise.resolve([]) };
 * const actions = await manageMemories({ calls, phase: "writing", messages: [{ role: "user", content: "hi" }],
 *   existing: [{ id: "m1", content: "old" }], enableInserts: true, enableUpdates: false, enableDeletes: false, sessionId: "s" });
 * assert.deepEqual(actions, [{ tool: "insert", content: "x" }]);
 * ```
 */
export async function manageMemories(options: ManageMemoriesOptions): Promise<ManagerAction[]> {
  const { existing } = options;
  const ids = existing.map((e) => e.id);
  const updatesPath = existing.length > 0;
  // Without existing memories trustcall extracts with the schemas only (`_Extract`).
  const tools = _tools({
    inserts: updatesPath ? options.enableInserts : true,
    updates: updatesPath && options.enableUpdates,
    deletes: updatesPath && options.enableDeletes,
    ids,
  });
  const forced = updatesPath;
  let system = prompts.subroutineSystem;
  if (updatesPath) {
    const instances = existing.map((e) =>
      `<instance id=${e.id} schema_type="Memory">\n${pyRepr({ content: e.content })}\n</instance>`
    ).join("\n");
    const cmd = prompts.existingCmd + (options.enableInserts ? prompts.existingCmdInserts : "");
    system += "\n\n" + `${cmd}\n<existing>\n${instances}\n</existing>\n`;
  }
  const conversation = formatConversation(options.messages);
  const user = `${options.instructions ?? prompts.instructions}${prompts.userTail}` +
    `\n\n<session_${options.sessionId}>\n${conversation}\n</session_${options.sessionId}>`;
  const toolNames = tools.map((t) => t.function.name);
  // Emulated tool calling (the kit's model client speaks chat completions, not tools).
  const emulation =
    `You can call these tools (OpenAI function definitions):\n<tools>\n${
      JSON.stringify(tools, null, 2)
    }\n</tools>\nCall them by replying with a JSON object {"tool_calls": [{"name": TOOL_NAME, ` +
    `"arguments": {...}}, ...]}, one entry per call, in the order you make them.` +
    (forced ? " You must call at least one tool." : " An empty list means you call no tool.");
  const messages: ChatMessage[] = [
    { role: "system", content: `${system}\n\n${emulation}` },
    { role: "user", content: user },
  ];
  const parse = (reply: string): unknown => {
    const parsed = JSON.parse(reply.slice(reply.indexOf("{"), reply.lastIndexOf("}") + 1));
    if (!Array.isArray((parsed as { tool_calls?: unknown })?.tool_calls)) {
      throw new TypeError("no tool_calls list");
    }
    return parsed;
  };
  const reply = await options.calls.chat({
    messages,
    responseFormat: {
      type: "json_schema",
      json_schema: {
        name: "tool_calls",
        schema: {
          type: "object",
          properties: {
            tool_calls: {
              type: "array",
              ...(forced && { minItems: 1 }),
              items: {
                anyOf: tools.map((t) => ({
                  type: "object",
                  properties: {
                    name: { type: "string", const: t.function.name },
                    arguments: t.function.parameters,
                  },
                  required: ["name", "arguments"],
                })),
              },
            },
          },
          required: ["tool_calls"],
        },
      },
    },
    phase: options.phase,
    // A reply that is no list of tool calls fails the call and is not cached (a rerun asks again).
    validate: (content) => {
      try {
        parse(content);
      } catch {
        throw new TypeError(
          `langmem: the model's reply is not a JSON object of tool calls, got ${
            JSON.stringify(content.slice(0, 120))
          }`,
        );
      }
    },
  });
  const parsed = parse(reply);
  const list = (parsed as { tool_calls?: unknown }).tool_calls;
  const known = new Map(existing.map((e) => [e.id, e.content]));
  const actions: ManagerAction[] = [];
  for (const call of Array.isArray(list) ? list : []) {
    const name = String((call as Record<string, unknown>)?.name ?? "");
    const args = ((call as Record<string, unknown>)?.arguments ?? {}) as Record<string, unknown>;
    if (!toolNames.includes(name)) continue;
    if (name === "Memory" && typeof args.content === "string" && args.content !== "") {
      actions.push({ tool: "insert", content: args.content });
    } else if (name === "PatchDoc" && known.has(String(args.json_doc_id))) {
      const patches = Array.isArray(args.patches) ? args.patches : [];
      // trustcall keeps an empty patch only when PatchDoc is the forced tool; a no-op either way.
      const content = _applyPatches(known.get(String(args.json_doc_id))!, patches);
      if (patches.length > 0 && content !== null) {
        actions.push({ tool: "patch", id: String(args.json_doc_id), content });
      }
    } else if (name === "RemoveDoc" && known.has(String(args.json_doc_id))) {
      actions.push({ tool: "remove", id: String(args.json_doc_id) });
    }
  }
  return actions;
}
