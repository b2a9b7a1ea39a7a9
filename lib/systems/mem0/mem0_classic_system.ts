/**
 * Mem0's classic pipeline, the one the paper measured: the real `mem0ai@2.4.6` open-source
 * `Memory`, in process (npm alias `mem0ai-classic`): fact extraction, then the
 * ADD/UPDATE/DELETE/NONE decision over the memories nearest each fact.
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
  jsonAfter,
  KitEmbedder,
  KitLlm,
  type Mem0Message,
  mem0Message,
  nextParts,
  registerKitProviders,
} from "./_mem0_parts.ts";
import { readDecision246, readFacts246 } from "./_mem0_replies.ts";

/** The library version driven, written into rows. */
export const MEM0_CLASSIC_VERSION = "mem0ai@2.4.6";

type _Module = typeof import("mem0ai-classic/oss");
let _module: Promise<_Module> | null = null;

function _load(): Promise<_Module> {
  _module ??= (async () => {
    if (Deno.env.get("MEM0_TELEMETRY") === undefined) Deno.env.set("MEM0_TELEMETRY", "false");
    const m = await import("mem0ai-classic/oss");
    registerKitProviders(m as unknown as Record<string, unknown>);
    return m;
  })();
  return _module;
}

// mem0 2.4.6's prompt contracts (`getFactRetrievalMessages`, `getUpdateMemoryMessages`).
const _EXTRACTION = "You are a Personal Information Organizer";
const _DECISION = "You are a smart memory manager which controls the memory of a system.";
const _NEW_FACTS =
  "determine whether these facts should be added, updated, or deleted in the memory.";

/**
 * A Mem0 (classic, 2.4.6) system. Writing (once per unit): mem0's fact-extraction call, made by
 * whichever memory asks first and replayed to the other (the prompt depends on the unit alone;
 * its "Today's date" is the instance's session date). M1 = mem0 as shipped: the decision call
 * (ADD/UPDATE/DELETE/NONE over the five memories nearest each fact) goes to the model. M0 = the
 * decision step off: mem0's decision prompt is recognised by its contract and answered "ADD"
 * for every fact it lists, without a model call. Background records go in with `infer: false`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mem0ClassicSystem } from "./mem0_classic_system.ts";
 * import { SystemPort } from "../system_port.ts";
 * const system = mem0ClassicSystem({ port: new SystemPort({ chat: null, embedder: null }) });
 * assert.equal(system.version, "mem0ai@2.4.6");
 * ```
 */
export function mem0ClassicSystem(options: {
  /** The system's chat model and embedder. */
  port: SystemPort;
}): MemorySystem {
  return {
    name: "mem0-classic",
    system: "Mem0",
    version: MEM0_CLASSIC_VERSION,
    chatModel: options.port.chatModel,
    embeddingModel: options.port.embeddingModel,
    port: options.port,
    open: (open) => _session(open, options.port),
  };
}

interface _Mode {
  memory: InstanceType<_Module["Memory"]>;
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
  // A reply mem0 cannot read: mem0 gets an empty one (it logs nothing and changes nothing) and
  // the write fails with this error once mem0 returns.
  let failure: unknown = null;
  const asChat = (messages: Mem0Message[]) =>
    messages.map((x) => ({
      role: x.role as "system" | "user" | "assistant",
      content: String(x.content ?? ""),
    }));

  const handler = (mode: ManagementMode) =>
  async (
    messages: Mem0Message[],
    format?: unknown,
  ): Promise<string> => {
    const chat = asChat(messages);
    const responseFormat = (format as Record<string, unknown>) ?? undefined;
    // Calls are told apart by mem0's prompt contracts (their fixed opening lines).
    if (chat[0]?.role === "system" && chat[0].content.includes(_EXTRACTION)) {
      if (!current) throw new TypeError("mem0-classic: an extraction call outside a write");
      let reply = snapshot.get(current.id);
      if (reply === undefined) {
        chat[0].content = chat[0].content.replace(
          /Today's date is [^\n]*?\./,
          `Today's date is ${open.sessionDate}.`,
        );
        try {
          reply = await calls.chat({
            messages: chat,
            responseFormat,
            // What mem0 cannot read is not cached and fails the write (an error row).
            validate: (content) => void readFacts246(content),
            phase: "writing",
          });
        } catch (e) {
          failure ??= e;
          return '{"facts": []}';
        }
        snapshot.set(current.id, reply);
      }
      received.get(mode)!.set(current.id, JSON.stringify(readFacts246(reply)));
      return reply;
    }
    if (chat.some((m) => m.content.trimStart().startsWith(_DECISION))) {
      if (mode === "M0") {
        // The decision step off: every fact the prompt lists is added as it is.
        const facts = (jsonAfter(chat[0].content, _NEW_FACTS) ?? []) as unknown[];
        return JSON.stringify({
          memory: facts.map((text, i) => ({ id: String(i), text: String(text), event: "ADD" })),
        });
      }
      try {
        return await calls.chat({
          messages: chat,
          responseFormat,
          validate: (content) => void readDecision246(content),
          phase: mode,
        });
      } catch (e) {
        failure ??= e;
        return '{"memory": []}';
      }
    }
    return await calls.chat({ messages: chat, responseFormat, phase: mode });
  };

  const memories = new Map<ManagementMode, _Mode>();
  for (const mode of open.modes) {
    const embedder = new KitEmbedder(calls, "writing");
    // mem0's own probe, made here: a failure is this task's error, not a logged stack.
    const dimension = (await embedder.embed(DIMENSION_PROBE)).length;
    Object.assign(nextParts, { llm: new KitLlm(handler(mode)), embedder });
    const memory = new m.Memory({
      version: "v1.1",
      disableHistory: true,
      embedder: { provider: "memgauge", config: { model: port.embeddingModel ?? "none" } },
      vectorStore: {
        provider: "memgauge",
        config: { collectionName: `memgauge-${mode}`, stores: new Map(), dimension },
      },
      llm: { provider: "memgauge", config: { model: port.chatModel ?? "none" } },
    } as never);
    memories.set(mode, { memory, embedder, ledger: new ProvenanceLedger() });
    received.set(mode, new Map());
  }

  const list = async (mode: ManagementMode) =>
    (await memories.get(mode)!.memory.getAll({ userId, limit: 1_000_000 })).results
      .map((r) => ({ id: String(r.id), text: String(r.memory ?? "") }));

  return {
    async write({ unit, background }) {
      current = unit;
      try {
        for (const [mode, x] of memories) {
          x.embedder.phase = snapshot.has(unit.id) ? mode : "writing";
          const res = await x.memory.add([mem0Message(unit)] as never, {
            userId,
            infer: !background,
          });
          if (failure !== null) throw failure;
          const results = (res as { results?: { id: string; metadata?: { event?: string } }[] })
            .results ?? [];
          x.ledger.apply({
            inputUnitIds: [unit.id],
            after: await list(mode),
            // An UPDATE to the same text still carries the new unit's information.
            touched: results.filter((r) => r.metadata?.event === "UPDATE").map((r) => r.id),
          });
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
      const res = await x.memory.search(query, { userId, limit: k });
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
