/**
 * LangMem behind the adapter: upstream's `MemoryStoreManager` flow (search the store, run the
 * memory manager, apply its inserts, patches and removals) over an in-memory store.
 */
import { stableId } from "../../schema/stable_id.ts";
import { cosine } from "../cosine.ts";
import type {
  ManagementMode,
  MemorySystem,
  OpenSessionOptions,
  SystemSession,
  TracedRecord,
  WriteUnit,
} from "../memory_system.ts";
import type { CallPhase, SystemCalls, SystemPort } from "../system_port.ts";
import prompts from "./upstream_prompts.json" with { type: "json" };
import {
  formatConversation,
  LANGMEM_UPSTREAM,
  manageMemories,
  type ManagerMessage,
} from "./memory_manager.ts";

interface _Item {
  id: string;
  content: string;
  unitIds: string[];
  vector: number[];
}

/** One mode's store: items in insertion order, cosine search as langgraph's InMemoryStore. */
class _Store {
  items = new Map<string, _Item>();
  constructor(readonly calls: SystemCalls, readonly phase: CallPhase) {}
  async put(id: string, content: string, unitIds: string[]) {
    const [vector] = await this.calls.embed({ texts: [content], phase: this.phase });
    this.items.set(id, { id, content, unitIds, vector });
  }
  /** Upstream: `store.asearch(namespace, query=...)` (limit 10), then the top `limit` by score. */
  async search(query: string, limit: number): Promise<_Item[]> {
    const [q] = await this.calls.embed({ texts: [query], phase: this.phase });
    return [...this.items.values()].map((item) => ({ item, s: cosine(q, item.vector) }))
      .sort((a, b) => b.s - a.s).slice(0, Math.min(10, limit)).map((x) => x.item);
  }
}

function _message(unit: WriteUnit): ManagerMessage {
  return { role: unit.channel, content: unit.text };
}

/**
 * A LangMem system. Writing (once per unit): the store manager searches the pre-management
 * store for the five memories nearest the new message and runs the memory manager with inserts
 * only (its forced Memory call when memories exist); the inserted memories are the unit's
 * records in both modes. M0 stops there. M1 then runs upstream's consolidation phase
 * (`MemoryPhase`, default instructions, without messages) over the M1 store's five nearest
 * memories plus the new ones, with updates (PatchDoc) and deletes (RemoveDoc) on and inserts
 * off, and applies its patches and removals. Background records are inserted as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { langmemSystem } from "./langmem_system.ts";
 * import { SystemPort } from "../system_port.ts";
 * const system = langmemSystem({ port: new SystemPort({ chat: null, embedder: null }) });
 * assert.equal(system.system, "LangMem");
 * ```
 */
export function langmemSystem(options: {
  /** The system's chat model and embedder. */
  port: SystemPort;
  /** Existing memories shown to the manager per write; default 5 (upstream's `query_limit`). */
  queryLimit?: number;
}): MemorySystem {
  return {
    name: "langmem",
    system: "LangMem",
    version: LANGMEM_UPSTREAM,
    chatModel: options.port.chatModel,
    embeddingModel: options.port.embeddingModel,
    port: options.port,
    open: (open) => Promise.resolve(_session(open, options)),
  };
}

function _session(
  open: OpenSessionOptions,
  options: { port: SystemPort; queryLimit?: number },
): SystemSession {
  const calls = options.port.bind({ seed: open.seed, trial: open.trial });
  const limit = options.queryLimit ?? 5;
  // The M0 store is the pre-management state; it is kept even when only M1 is measured.
  const stores = new Map<ManagementMode, _Store>([["M0", new _Store(calls, "writing")]]);
  if (open.modes.includes("M1")) stores.set("M1", new _Store(calls, "M1"));
  const received = new Map<ManagementMode, Map<string, string>>(
    [...stores.keys()].map((m) => [m, new Map()]),
  );
  let next = 0;
  // Ids are shown to the model, so they carry nothing run-specific (the cache key stays stable).
  const newId = () => `m${next++}`;

  return {
    async write({ unit, background }) {
      if (background) {
        const id = newId();
        for (const store of stores.values()) await store.put(id, unit.text, [unit.id]);
        return;
      }
      const messages = [_message(unit)];
      // Upstream's query: `get_dialated_windows(messages, query_limit // 4)`, the last message.
      const query = formatConversation(messages.slice(-1));
      const sessionId = stableId([unit.id, unit.text]);
      const m0 = stores.get("M0")!;
      const m1 = stores.get("M1");
      const m1Hits = m1 ? await m1.search(query, limit) : [];
      const writing = await manageMemories({
        calls,
        phase: "writing",
        messages,
        existing: (await m0.search(query, limit)).map((i) => ({ id: i.id, content: i.content })),
        enableInserts: true,
        enableUpdates: false,
        enableDeletes: false,
        sessionId,
      });
      const inserted = writing.flatMap((a) => a.tool === "insert" ? [a.content] : []);
      const ids = inserted.map(() => newId());
      for (const [mode, store] of stores) {
        received.get(mode)!.set(unit.id, JSON.stringify(inserted));
        for (let i = 0; i < ids.length; i++) await store.put(ids[i], inserted[i], [unit.id]);
      }
      if (!m1) return;
      // M1: upstream's phase over the store's hits (store_based) plus the new memories.
      const phaseExisting = [
        ...m1Hits.filter((h) => m1.items.has(h.id)).map((h) => m1.items.get(h.id)!),
        ...ids.map((id) => m1.items.get(id)!),
      ].map((i) => ({ id: i.id, content: i.content }));
      const managed = await manageMemories({
        calls,
        phase: "M1",
        messages: [],
        existing: phaseExisting,
        instructions: prompts.phaseInstructions,
        enableInserts: false,
        enableUpdates: true,
        enableDeletes: true,
        sessionId: stableId(["phase", unit.id, unit.text]),
      });
      for (const action of managed) {
        if (action.tool === "patch") {
          const old = m1.items.get(action.id);
          if (!old) continue;
          const units = [...new Set([...old.unitIds, unit.id])];
          await m1.put(action.id, action.content, units);
        } else if (action.tool === "remove") m1.items.delete(action.id);
      }
    },
    records: ({ mode }) =>
      Promise.resolve(
        [...stores.get(mode)!.items.values()].map((i): TracedRecord => ({
          storeId: i.id,
          text: i.content,
          unitIds: [...i.unitIds],
        })),
      ),
    async search({ mode, query, k }) {
      const store = stores.get(mode)!;
      const [q] = await calls.embed({ texts: [query], phase: mode });
      return [...store.items.values()].map((item) => ({ item, s: cosine(q, item.vector) }))
        .sort((a, b) => b.s - a.s).slice(0, k)
        .map(({ item }) => ({ storeId: item.id, text: item.content, unitIds: [...item.unitIds] }));
    },
    received: ({ mode }) => received.get(mode)!,
    close: () => Promise.resolve(),
  };
}
