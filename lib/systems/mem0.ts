/**
 * Mem0 through the real `mem0ai` open-source TypeScript memory (in-process under Deno), the
 * classic pipeline: fact extraction, then the ADD/UPDATE/DELETE/NONE decision.
 */
import type {
  ManagementMode,
  MemorySystem,
  MemorySystemFactory,
  SystemEndpoint,
  SystemRecord,
} from "./memory_system.ts";
import { cosine } from "./embeddings.ts";

/** The pinned library version, written into rows. */
export const MEM0_VERSION = "mem0ai@2.4.6";

type Mem0Module = typeof import("mem0ai/oss");
let _module: Promise<Mem0Module> | null = null;

// mem0's default vector store needs the better-sqlite3 native module; the kit plugs an
// in-memory store into the library's own VectorStore interface instead (provider "memgauge").
class _InMemoryVectorStore {
  #rows = new Map<string, { vector: number[]; payload: Record<string, unknown> }>();
  #userId = "memgauge";
  insert(vectors: number[][], ids: string[], payloads: Record<string, unknown>[]) {
    vectors.forEach((v, i) => this.#rows.set(ids[i], { vector: v, payload: payloads[i] }));
    return Promise.resolve();
  }
  #match(payload: Record<string, unknown>, filters?: Record<string, unknown>) {
    return Object.entries(filters ?? {}).every(([k, v]) => payload[k] === v);
  }
  search(query: number[], limit = 5, filters?: Record<string, unknown>) {
    const out = [...this.#rows.entries()]
      .filter(([, r]) => this.#match(r.payload, filters))
      .map(([id, r]) => ({ id, payload: r.payload, score: cosine(query, r.vector) }))
      // Ties broken by insertion order (Map order, stable sort): deterministic top-K.
      .sort((a, b) => b.score - a.score);
    return Promise.resolve(out.slice(0, limit));
  }
  get(id: string) {
    const r = this.#rows.get(id);
    return Promise.resolve(r ? { id, payload: r.payload } : null);
  }
  update(id: string, vector: number[], payload: Record<string, unknown>) {
    this.#rows.set(id, { vector, payload });
    return Promise.resolve();
  }
  delete(id: string) {
    this.#rows.delete(id);
    return Promise.resolve();
  }
  deleteCol() {
    this.#rows.clear();
    return Promise.resolve();
  }
  list(filters?: Record<string, unknown>, limit = 100) {
    const all = [...this.#rows.entries()].filter(([, r]) => this.#match(r.payload, filters))
      .map(([id, r]) => ({ id, payload: r.payload }));
    return Promise.resolve([all.slice(0, limit), all.length]);
  }
  getUserId() {
    return Promise.resolve(this.#userId);
  }
  setUserId(id: string) {
    this.#userId = id;
    return Promise.resolve();
  }
  initialize() {
    return Promise.resolve();
  }
}

function _load(): Promise<Mem0Module> {
  _module ??= (async () => {
    // mem0 sends usage telemetry unless told not to; it reads the flag at import time.
    if (Deno.env.get("MEM0_TELEMETRY") === undefined) Deno.env.set("MEM0_TELEMETRY", "false");
    const m = await import("mem0ai/oss");
    const factory = m.VectorStoreFactory as unknown as {
      create: (provider: string, config: Record<string, unknown>) => unknown;
    };
    const original = factory.create.bind(factory);
    factory.create = (provider, config) =>
      provider === "memgauge" ? config.client : original(provider, config);
    return m;
  })();
  return _module;
}

type _Llm = {
  generateResponse: (messages: { role: string; content: unknown }[], format?: unknown) => Promise<
    unknown
  >;
};

/**
 * A Mem0 factory. M1 = `add(..., { infer: true })` with the library's update decision; M0 = the
 * library's fact extraction with its update decision replaced by "ADD every extracted fact" (the
 * decision call never reaches the model). Background records go in with `infer: false`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mem0System } from "./mem0.ts";
 * import { startPipelineCheck } from "./pipeline_check.ts";
 * const check = await startPipelineCheck(); // scripted local endpoints, not a real model
 * try {
 *   const memory = await mem0System({ endpoint: check.endpoint })({ scope: "ann", management: "M0" });
 *   await memory.write({ units: [{ id: "u1", text: "Ann's dog is called Rex.", channel: "user" }], background: true });
 *   assert.deepEqual((await memory.list()).map((r) => r.text), ["Ann's dog is called Rex."]);
 *   await memory.close();
 * } finally { await check.close(); }
 * ```
 */
export function mem0System(options: {
  /** The model and embedding endpoint mem0 calls. */
  endpoint: SystemEndpoint;
}): MemorySystemFactory {
  return async ({ scope, management }) => {
    const m = await _load();
    const { endpoint } = options;
    const memory = new m.Memory({
      version: "v1.1",
      disableHistory: true,
      embedder: {
        provider: "openai",
        config: {
          apiKey: endpoint.apiKey,
          baseURL: endpoint.baseUrl,
          model: endpoint.embeddingModel,
        },
      },
      vectorStore: {
        provider: "memgauge",
        config: { collectionName: scope, client: new _InMemoryVectorStore() },
      },
      llm: {
        provider: "openai",
        config: { apiKey: endpoint.apiKey, baseURL: endpoint.baseUrl, model: endpoint.model },
      },
    } as never);
    let mode: ManagementMode = management;
    const llm = (memory as unknown as { llm: _Llm }).llm;
    const generate = llm.generateResponse.bind(llm);
    let lastFacts: string[] = [];
    llm.generateResponse = async (messages, format) => {
      const isDecision = messages.length === 1 && messages[0].role === "user";
      if (isDecision && mode === "M0") {
        // M0: the decision step is off; every extracted fact is added as it is.
        return JSON.stringify({
          memory: lastFacts.map((text, i) => ({ id: `new-${i}`, text, event: "ADD" })),
        });
      }
      const out = await generate(messages, format);
      if (!isDecision) lastFacts = _facts(out);
      return out;
    };
    const system: MemorySystem = {
      system: "Mem0",
      version: MEM0_VERSION,
      get management() {
        return mode;
      },
      setManagement(next) {
        mode = next;
        return Promise.resolve();
      },
      async write({ units, background }) {
        const messages = units.map((u) => ({
          role: u.channel === "assistant" ? "assistant" : "user",
          content: u.channel === "tool" ? `[tool output] ${u.text}` : u.text,
        }));
        const res = await memory.add(messages as never, { userId: scope, infer: !background });
        const results = (res as { results?: { id: string; metadata?: { event?: string } }[] })
          .results ?? [];
        return {
          touched: results.filter((r) => r.metadata?.event === "UPDATE").map((r) => r.id),
        };
      },
      async list(): Promise<SystemRecord[]> {
        const res = await memory.getAll({ userId: scope, limit: 1_000_000 });
        return res.results.map((r) => ({ id: r.id, text: String(r.memory ?? "") }));
      },
      async search({ query, k }): Promise<SystemRecord[]> {
        const res = await memory.search(query, { userId: scope, limit: k });
        return res.results.map((r) => ({ id: r.id, text: String(r.memory ?? "") }));
      },
      close: () => Promise.resolve(),
    };
    return system;
  };
}

function _facts(out: unknown): string[] {
  try {
    const text = String(out);
    const json = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
    return Array.isArray(json.facts) ? json.facts.map(String) : [];
  } catch {
    return [];
  }
}
