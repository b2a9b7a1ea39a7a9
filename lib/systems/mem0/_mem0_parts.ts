/**
 * What the kit plugs into the real `mem0ai` library through its own factories (provider
 * "memgauge"): an in-memory vector store (mem0's default needs the better-sqlite3 native module),
 * an LLM and an embedder that go through the kit's port, and an in-memory message history.
 */
import { cosine } from "../cosine.ts";
import type { WriteUnit } from "../memory_system.ts";
import type { CallPhase, SystemCalls } from "../system_port.ts";

type _Payload = Record<string, unknown>;

/**
 * The library's `VectorStore` interface in memory: cosine search (ties keep insertion order),
 * equality filters, and mem0's BM25 `keywordSearch` as its default `MemoryVectorStore` has it
 * (k1 1.5, b 0.75, over `textLemmatized`). `hideHashes` makes searches return payloads without
 * their `hash` (how M0 switches mem0 3.x's hash de-duplication off).
 */
export class InMemoryVectorStore {
  #rows = new Map<string, { vector: number[]; payload: _Payload }>();
  #userId = "memgauge";
  hideHashes = false;
  insert(vectors: number[][], ids: string[], payloads: _Payload[]) {
    vectors.forEach((v, i) => this.#rows.set(ids[i], { vector: v, payload: payloads[i] }));
    return Promise.resolve();
  }
  #match(payload: _Payload, filters?: _Payload) {
    return Object.entries(filters ?? {}).every(([k, v]) => payload[k] === v);
  }
  #out(payload: _Payload): _Payload {
    if (!this.hideHashes) return payload;
    const { hash: _hash, ...rest } = payload;
    return rest;
  }
  search(query: number[], limit = 5, filters?: _Payload) {
    const out = [...this.#rows.entries()]
      .filter(([, r]) => this.#match(r.payload, filters))
      .map(([id, r]) => ({ id, payload: this.#out(r.payload), score: cosine(query, r.vector) }))
      .sort((a, b) => b.score - a.score);
    return Promise.resolve(out.slice(0, limit));
  }
  keywordSearch(query: string, limit = 10, filters?: _Payload) {
    const tokenize = (t: string) => t.toLowerCase().split(/\s+/).filter(Boolean);
    const docs = [...this.#rows.entries()].filter(([, r]) => this.#match(r.payload, filters))
      .map(([id, r]) => ({
        id,
        payload: r.payload,
        tokens: tokenize(String(r.payload.textLemmatized ?? r.payload.data ?? "")),
      }));
    const terms = tokenize(query);
    if (docs.length === 0 || terms.length === 0) return Promise.resolve([]);
    const n = docs.length, avg = docs.reduce((s, d) => s + d.tokens.length, 0) / n;
    const idf = new Map(
      [...new Set(terms)].map((t) => {
        const f = docs.filter((d) => d.tokens.includes(t)).length;
        return [t, Math.log((n - f + 0.5) / (f + 0.5) + 1)];
      }),
    );
    const scored = docs.map((d) => {
      let score = 0;
      for (const t of terms) {
        const tf = d.tokens.filter((x) => x === t).length;
        score += (idf.get(t) ?? 0) * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * d.tokens.length / avg));
      }
      return { id: d.id, payload: this.#out(d.payload), score };
    });
    return Promise.resolve(
      scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score).slice(0, limit),
    );
  }
  get(id: string) {
    const r = this.#rows.get(id);
    return Promise.resolve(r ? { id, payload: r.payload } : null);
  }
  update(id: string, vector: number[], payload: _Payload) {
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
  list(filters?: _Payload, limit = 100) {
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

/** A chat message as mem0 hands it to its LLM. */
export interface Mem0Message {
  role: string;
  content: unknown;
}

/** mem0's `LLM` interface, answered by the adapter's handler. */
export class KitLlm {
  constructor(
    readonly handle: (messages: Mem0Message[], responseFormat?: unknown) => Promise<string>,
  ) {}
  generateResponse(messages: Mem0Message[], responseFormat?: unknown): Promise<string> {
    return this.handle(messages, responseFormat);
  }
  async generateChat(messages: Mem0Message[]) {
    return { content: await this.handle(messages), role: "assistant" };
  }
}

/** mem0's `Embedder` interface over the kit's embedding client. */
/** The text mem0 embeds to learn the embedding dimension (`Memory._autoInitialize`). */
export const DIMENSION_PROBE = "dimension probe";

export class KitEmbedder {
  constructor(readonly calls: SystemCalls, public phase: CallPhase) {}
  async embed(text: string): Promise<number[]> {
    return (await this.calls.embed({ texts: [text], phase: this.phase }))[0];
  }
  embedBatch(texts: string[]): Promise<number[][]> {
    return this.calls.embed({ texts, phase: this.phase });
  }
}

/**
 * mem0 3.x's message history (the "Last k Messages" of its extraction prompt) in memory, as
 * its SQLite history keeps it: the last 10 messages per session scope.
 */
export class KitHistory {
  #messages = new Map<string, { role: string; content: string }[]>();
  addHistory() {
    return Promise.resolve();
  }
  batchAddHistory() {
    return Promise.resolve();
  }
  getHistory() {
    return Promise.resolve([]);
  }
  reset() {
    this.#messages.clear();
    return Promise.resolve();
  }
  close() {}
  saveMessages(messages: { role: string; content: string }[], scope: string) {
    const kept = [...(this.#messages.get(scope) ?? []), ...messages].slice(-10);
    this.#messages.set(scope, kept);
    return Promise.resolve();
  }
  getLastMessages(scope: string, limit = 10) {
    return Promise.resolve((this.#messages.get(scope) ?? []).slice(-limit));
  }
}

type _Factory = { create: (provider: string, config: Record<string, unknown>) => unknown };

/**
 * The parts the next `new Memory(...)` takes for provider "memgauge". mem0's config schema
 * strips unknown keys from some sections, so the parts are handed over here rather than in the
 * config; the constructor is synchronous, so no other construction can interleave.
 */
export const nextParts: { llm?: unknown; embedder?: unknown; history?: unknown } = {};

function _take(kind: keyof typeof nextParts): unknown {
  const part = nextParts[kind];
  if (part === undefined) {
    throw new TypeError(`mem0 provider "memgauge": no ${kind} was handed over for this Memory`);
  }
  delete nextParts[kind];
  return part;
}

/** Register provider "memgauge" with a mem0 module's factories, once per module. */
export function registerKitProviders(module: Record<string, unknown>): void {
  const parts: Record<string, (config: Record<string, unknown>) => unknown> = {
    VectorStoreFactory: _entityAware,
    LLMFactory: () => _take("llm"),
    EmbedderFactory: () => _take("embedder"),
    HistoryManagerFactory: () => _take("history"),
  };
  for (const [name, make] of Object.entries(parts)) {
    const factory = module[name] as _Factory & { _memgauge?: boolean };
    if (factory._memgauge) continue;
    const original = factory.create.bind(factory);
    factory.create = (provider, config) =>
      provider === "memgauge" ? make(config) : original(provider, config);
    factory._memgauge = true;
  }
}

// mem0 3.x opens a second store for entities with the same config and `<name>_entities`.
function _entityAware(config: Record<string, unknown>): unknown {
  const stores = config.stores as Map<string, InMemoryVectorStore>;
  const name = String(config.collectionName);
  let store = stores.get(name);
  if (!store) stores.set(name, store = new InMemoryVectorStore());
  return store;
}

/** The JSON value after `marker` in `text` (brackets matched, strings respected), or null. */
export function jsonAfter(text: string, marker: string): unknown {
  const at = text.indexOf(marker);
  if (at < 0) return null;
  const rest = text.slice(at + marker.length);
  const start = rest.search(/[[{]/);
  if (start < 0) return null;
  let depth = 0, inString = false;
  for (let i = start; i < rest.length; i++) {
    const c = rest[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (--depth === 0) {
        try {
          return JSON.parse(rest.slice(start, i + 1));
        } catch {
          return null;
        }
      }
    }
  }
  return null;
}

/** mem0's message for one unit: a tool output goes in as a user message marked as such. */
export function mem0Message(unit: WriteUnit): { role: string; content: string } {
  return {
    role: unit.channel === "assistant" ? "assistant" : "user",
    content: unit.channel === "tool" ? `[tool output] ${unit.text}` : unit.text,
  };
}
