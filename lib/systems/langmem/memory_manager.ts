/**
 * A TypeScript port of LangMem's memory manager (langchain-ai/langmem, src/langmem/knowledge/
 * extraction.py, commit b5dbe4a): the model reads the new messages and the relevant existing
 * memories and calls insert, patch and remove tools over them.
 */
import { chatJson } from "../chat_json.ts";
import type { ModelClient } from "../../models/model_client.ts";

/** The upstream commit the port follows, written into rows. */
export const LANGMEM_UPSTREAM = "langchain-ai/langmem@b5dbe4aa34055face022cb4a6db153edd5826377";

/** One action of the manager. */
export type LangMemAction =
  | { tool: "insert"; content: string }
  | { tool: "patch"; id: string; content: string }
  | { tool: "remove"; id: string };

// The upstream instructions, condensed: extract, compare and update, synthesize.
const _INSTRUCTIONS =
  `You are a long-term memory manager maintaining a core store of semantic, procedural and episodic memory for a life-long learning agent.
1. Extract and contextualize: identify essential facts, relationships, preferences and context in the input.
2. Compare and update: attend to novel information that deviates from existing memories; consolidate redundant memories; remove incorrect or redundant ones while keeping the store consistent.
3. Synthesize: record memory content exactly as you would want to recall it. Prefer dense, complete memories over overlapping ones.`;

/**
 * Decide the actions for one input. `tools` are the tools the model may call: M1 gives insert,
 * patch and remove; M0 insert only. Actions naming an unknown memory id, or a tool that is not
 * enabled, are dropped (upstream's extractor rejects them the same way).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manageMemories } from "./memory_manager.ts";
 * const client = { chat: () => Promise.resolve({ content: '{"actions":[{"tool":"remove","id":"m1"},{"tool":"insert","content":"x"}]}' }) };
 * const actions = await manageMemories({ client: client as never, input: "hi", existing: [{ id: "m1", content: "old" }], tools: ["insert"] });
 * assert.deepEqual(actions, [{ tool: "insert", content: "x" }]);
 * ```
 */
export async function manageMemories(options: {
  /** The model client. */
  client: ModelClient;
  /** The new messages, one per line ("role: text"). */
  input: string;
  /** Relevant existing memories (upstream passes the store's search hits). */
  existing: readonly { id: string; content: string }[];
  /** Enabled tools. */
  tools: readonly ("insert" | "patch" | "remove")[];
}): Promise<LangMemAction[]> {
  const prompt = `${_INSTRUCTIONS}

Existing memories (JSON):
<langmem-existing>${JSON.stringify(options.existing)}</langmem-existing>

Tools you may call: <langmem-tools>${options.tools.join(",")}</langmem-tools>
- insert {"tool":"insert","content":...}: a new memory
- patch {"tool":"patch","id":...,"content":...}: replace an existing memory's content
- remove {"tool":"remove","id":...}: delete an existing memory

New messages:
<langmem-input>${options.input}</langmem-input>

Reply with a JSON object {"actions": [...]} (an empty list when nothing is worth remembering).`;
  const json = await chatJson({ client: options.client, prompt, label: "langmem" });
  const known = new Set(options.existing.map((e) => e.id));
  const actions = Array.isArray(json.actions) ? json.actions : [];
  return actions.flatMap((a: Record<string, unknown>): LangMemAction[] => {
    const tool = String(a.tool ?? "");
    if (!options.tools.includes(tool as never)) return [];
    if (tool === "insert" && typeof a.content === "string" && a.content) {
      return [{ tool, content: a.content }];
    }
    if (tool === "patch" && known.has(String(a.id)) && typeof a.content === "string") {
      return [{ tool, id: String(a.id), content: a.content }];
    }
    if (tool === "remove" && known.has(String(a.id))) return [{ tool, id: String(a.id) }];
    return [];
  });
}
