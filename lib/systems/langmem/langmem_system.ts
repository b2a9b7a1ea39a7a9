/** LangMem behind the adapter: the ported memory manager over an in-memory store. */
import type { ModelClient } from "../../models/model_client.ts";
import type { Embedder } from "../embeddings.ts";
import type { ManagementMode, MemorySystem, MemorySystemFactory } from "../memory_system.ts";
import { VectorIndex } from "../vector_index.ts";
import { LANGMEM_UPSTREAM, manageMemories } from "./memory_manager.ts";

/**
 * A LangMem factory. Like upstream's store manager, each write searches the store for the five
 * memories closest to the input and lets the manager act on them. M1 = insert, patch and remove
 * tools; M0 = insert only. Background records are inserted as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { langmemSystem } from "./langmem_system.ts";
 * // Background records are stored as given, without a model call; a toy embedder counts words.
 * const embedder = { model: "words", embed: (texts: readonly string[]) => Promise.resolve(texts.map((t) => [t.split(" ").length, 1])) };
 * const memory = await langmemSystem({ client: {} as never, embedder })({ scope: "ann", management: "M0" });
 * await memory.write({ units: [{ id: "u1", text: "Ann's dog is called Rex.", channel: "user" }], background: true });
 * assert.deepEqual(await memory.list(), [{ id: "ann-m0", text: "Ann's dog is called Rex." }]);
 * await memory.close();
 * ```
 */
export function langmemSystem(options: {
  /** Model client for the manager. */
  client: ModelClient;
  /** Embedder for the store's search. */
  embedder: Embedder;
  /** Existing memories shown to the manager per write; default 5 (upstream's query_limit). */
  queryLimit?: number;
}): MemorySystemFactory {
  return ({ scope, management }) => {
    const index = new VectorIndex({ embedder: options.embedder });
    let mode: ManagementMode = management;
    let next = 0;
    const newId = () => `${scope}-m${next++}`;
    const system: MemorySystem = {
      system: "LangMem",
      version: `${LANGMEM_UPSTREAM} (TypeScript port)`,
      get management() {
        return mode;
      },
      setManagement(m) {
        mode = m;
        return Promise.resolve();
      },
      async write({ units, background }) {
        const input = units.map((u) => `${u.channel}: ${u.text}`).join("\n");
        if (background) {
          for (const u of units) await index.put({ id: newId(), text: u.text });
          return { touched: [] };
        }
        const existing = (await index.search({ query: input, k: options.queryLimit ?? 5 }))
          .map((r) => ({ id: r.id, content: r.text }));
        const actions = await manageMemories({
          client: options.client,
          input,
          existing,
          tools: mode === "M1" ? ["insert", "patch", "remove"] : ["insert"],
        });
        const touched: string[] = [];
        for (const a of actions) {
          if (a.tool === "insert") await index.put({ id: newId(), text: a.content });
          else if (a.tool === "patch") {
            await index.put({ id: a.id, text: a.content });
            touched.push(a.id);
          } else index.remove(a.id);
        }
        return { touched };
      },
      list: () => Promise.resolve(index.list()),
      search: async ({ query, k }) =>
        (await index.search({ query, k })).map(({ id, text }) => ({ id, text })),
      close: () => Promise.resolve(),
    };
    return Promise.resolve(system);
  };
}
