/**
 * Mem0 as users install it today: the real `mem0ai` 3.x open-source `Memory`, in process.
 * mem0 3.x writes with one additive extraction call per `add` (ADD only: no UPDATE or DELETE)
 * and de-duplicates what it extracts by MD5 hash against the memories nearest the new messages.
 */
import { ProvenanceLedger } from "../provenance.ts";
import type {
  ManagementMode,
  MemorySystem,
  OpenSessionOptions,
  SystemSession,
  TracedRecord,
  WriteUnit,
} from "../memory_system.ts";
import type { SystemPort } from "../system_port.ts";
import {
  DIMENSION_PROBE,
  InMemoryVectorStore,
  KitEmbedder,
  KitHistory,
  KitLlm,
  type Mem0Message,
  mem0Message,
  nextParts,
  registerKitProviders,
} from "./_mem0_parts.ts";
import { readMemories331 } from "./_mem0_replies.ts";

/** The library version driven, written into rows. */
export const MEM0_VERSION = "mem0ai@3.3.1";

type _Module = typeof import("mem0ai/oss");
let _module: Promise<_Module> | null = null;

function _load(): Promise<_Module> {
  _module ??= (async () => {
    // mem0 sends usage telemetry unless told not to; it reads the flag at import time.
    if (Deno.env.get("MEM0_TELEMETRY") === undefined) Deno.env.set("MEM0_TELEMETRY", "false");
    const m = await import("mem0ai/oss");
    registerKitProviders(m as unknown as Record<string, unknown>);
    return m;
  })();
  return _module;
}

/**
 * A Mem0 (3.x) system. Native management in mem0 3.x is de-duplication only: the extraction
 * prompt shows the ten memories nearest the new messages ("do not re-extract"), and mem0 drops
 * an extracted memory whose MD5 hash equals one of theirs or an earlier one of the same reply.
 * Writing (once per unit) is that extraction call, made by the M0 memory: its store, where
 * nothing is ever dropped, is the pre-management state. M0 = every extracted memory inserted:
 * its store answers mem0's add-time lookup without hashes, so the hash de-duplication never
 * fires. M1 = mem0 as shipped: the same extraction reply (matched on the prompt's
 * `## New Messages` section) goes into a second memory, whose de-duplication runs. Both use
 * mem0's own search (top K, threshold 0.1, semantic + BM25 + entity boost). The prompt's
 * dates are the instance's session date. Background records go in with `infer: false`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mem0System } from "./mem0_system.ts";
 * import { SystemPort } from "../system_port.ts";
 * const system = mem0System({ port: new SystemPort({ chat: null, embedder: null }) });
 * assert.equal(system.system, "Mem0");
 * ```
 */
export function mem0System(options: {
  /** The system's chat model and embedder. */
  port: SystemPort;
}): MemorySystem {
  return {
    name: "mem0",
    system: "Mem0",
    version: MEM0_VERSION,
    chatModel: options.port.chatModel,
    embeddingModel: options.port.embeddingModel,
    port: options.port,
    open: (open) => _session(open, options.port),
  };
}

interface _Mode {
  memory: InstanceType<_Module["Memory"]>;
  store: InMemoryVectorStore;
  embedder: KitEmbedder;
  ledger: ProvenanceLedger;
}

async function _session(open: OpenSessionOptions, port: SystemPort): Promise<SystemSession> {
  const m = await _load();
  const calls = port.bind({ seed: open.seed, trial: open.trial });
  const userId = open.scope;
  const snapshot = new Map<string, string>();
  const received = new Map<ManagementMode, Map<string, string>>();
  let current: WriteUnit | null = null;
  // A reply mem0 cannot read: mem0 is handed an empty extraction (so it logs nothing) and the
  // write fails with this error once mem0 returns.
  let failure: unknown = null;
  const fixDate = (text: string) =>
    text.replace(/(## Observation Date\n)[^\n]*/, `$1${open.sessionDate}`)
      .replace(/(## Current Date\n)[^\n]*/, `$1${open.sessionDate}`);

  const handler = (mode: ManagementMode) =>
  async (
    messages: Mem0Message[],
    format?: unknown,
  ): Promise<string> => {
    const system = String(messages.find((x) => x.role === "system")?.content ?? "");
    const user = String(messages.findLast((x) => x.role === "user")?.content ?? "");
    // The call is told apart by mem0's prompt contract: its extractor prompt and sections.
    const extraction = system.includes("You are a Memory Extractor") &&
      user.includes("## New Messages\n");
    if (!extraction) {
      // No other mem0 3.x call is expected in this configuration; pass it through.
      return await calls.chat({
        messages: messages.map((x) => ({
          role: x.role as "system" | "user" | "assistant",
          content: String(x.content),
        })),
        ...(format ? { responseFormat: format as Record<string, unknown> } : {}),
        phase: mode,
      });
    }
    if (!current) throw new TypeError("mem0: an extraction call outside a write");
    let reply = snapshot.get(current.id);
    if (reply === undefined) {
      if (mode !== "M0") {
        throw new TypeError(`mem0: the M1 memory extracted before the M0 memory (${current.id})`);
      }
      try {
        reply = await calls.chat({
          messages: [{ role: "system", content: system }, {
            role: "user",
            content: fixDate(user),
          }],
          responseFormat: (format as Record<string, unknown>) ?? { type: "json_object" },
          // What mem0 cannot read is not cached and fails the write (an error row).
          validate: (content) => void readMemories331(content),
          phase: "writing",
        });
      } catch (e) {
        failure ??= e;
        return '{"memory": []}';
      }
      snapshot.set(current.id, reply);
    }
    received.get(mode)!.set(current.id, JSON.stringify(readMemories331(reply)));
    return reply;
  };

  const modes: ManagementMode[] = ["M0", ...(open.modes.includes("M1") ? ["M1" as const] : [])];
  const memories = new Map<ManagementMode, _Mode>();
  for (const mode of modes) {
    const stores = new Map<string, InMemoryVectorStore>();
    const collectionName = `memgauge-${mode}`;
    const embedder = new KitEmbedder(calls, mode === "M0" ? "writing" : "M1");
    // mem0's own probe, made here: a failure is then this task's error (error rows), where
    // mem0 would print it with a stack from its constructor.
    const dimension = (await embedder.embed(DIMENSION_PROBE)).length;
    // No await from here to the constructor: it takes the parts synchronously.
    Object.assign(nextParts, {
      llm: new KitLlm(handler(mode)),
      embedder,
      history: new KitHistory(),
    });
    const memory = new m.Memory({
      embedder: { provider: "memgauge", config: { model: port.embeddingModel ?? "none" } },
      vectorStore: { provider: "memgauge", config: { collectionName, stores, dimension } },
      llm: { provider: "memgauge", config: { model: port.chatModel ?? "none" } },
      historyStore: { provider: "memgauge", config: {} },
    } as never);
    // The store exists once mem0 has initialised.
    await (memory as unknown as { _ensureInitialized(): Promise<void> })._ensureInitialized();
    memories.set(mode, {
      memory,
      store: stores.get(collectionName)!,
      embedder,
      ledger: new ProvenanceLedger(),
    });
    received.set(mode, new Map());
  }

  const list = async (mode: ManagementMode) =>
    (await memories.get(mode)!.memory.getAll({ filters: { user_id: userId }, topK: 1_000_000 }))
      .results.map((r) => ({ id: String(r.id), text: String(r.memory ?? "") }));

  return {
    async write({ unit, background }) {
      current = unit;
      try {
        for (const [mode, x] of memories) {
          x.embedder.phase = mode === "M0" ? "writing" : "M1";
          x.store.hideHashes = mode === "M0";
          try {
            await x.memory.add([mem0Message(unit)], { userId, infer: !background });
          } finally {
            x.store.hideHashes = false;
          }
          if (failure !== null) throw failure;
          x.ledger.apply({ inputUnitIds: [unit.id], after: await list(mode) });
        }
      } finally {
        current = null;
        failure = null;
      }
    },
    async records({ mode }) {
      const ledger = memories.get(mode)!.ledger;
      return (await list(mode)).map((r): TracedRecord => ({
        storeId: r.id,
        text: r.text,
        unitIds: ledger.unitsOf(r.id),
      }));
    },
    async search({ mode, query, k }) {
      const x = memories.get(mode)!;
      x.embedder.phase = mode;
      const res = await x.memory.search(query, { filters: { user_id: userId }, topK: k });
      return res.results.map((r) => ({
        storeId: String(r.id),
        text: String(r.memory ?? ""),
        unitIds: x.ledger.unitsOf(String(r.id)),
      }));
    },
    received: ({ mode }) => received.get(mode)!,
    close: () => Promise.resolve(),
  };
}
