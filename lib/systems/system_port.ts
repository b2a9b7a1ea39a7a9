/**
 * The one door through which a memory system reaches a model: its chat calls go through the
 * kit's `ModelClient` (catalog temperature and seed, cache, redaction, rate limit) and its
 * embeddings through the kit's `EmbeddingClient`; every request is counted by phase.
 */
import type { ChatMessage, ModelClient } from "../models/model_client.ts";
import type { EmbeddingClient } from "./embedding_client.ts";

/**
 * Who a call is for: `writing` is shared by both modes (the pre-management state is built once);
 * `M0` and `M1` are what a mode adds on top (management, retrieval).
 */
export type CallPhase = "writing" | "M0" | "M1";

/** Requests and tokens of one phase (cache hits cost nothing and are counted apart). */
export interface PhaseUsage {
  chatRequests: number;
  chatCacheHits: number;
  embeddingRequests: number;
  embeddingCacheHits: number;
  /** Prompt and completion tokens of chat requests (not of cache hits). */
  promptTokens: number;
  completionTokens: number;
  /** Texts sent to the embedding endpoint. */
  embeddedTexts: number;
}

/**
 * A zero usage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyUsage } from "./system_port.ts";
 * assert.equal(emptyUsage().chatRequests, 0);
 * ```
 */
export function emptyUsage(): PhaseUsage {
  return {
    chatRequests: 0,
    chatCacheHits: 0,
    embeddingRequests: 0,
    embeddingCacheHits: 0,
    promptTokens: 0,
    completionTokens: 0,
    embeddedTexts: 0,
  };
}

/** What a session of a system calls: chat and embeddings with its seed and trial bound. */
export interface SystemCalls {
  /** The reply text of one chat call. */
  chat(input: {
    messages: ChatMessage[];
    /** OpenAI `response_format`; default none. */
    responseFormat?: Record<string, unknown>;
    /** Maximum completion tokens, where the upstream sets one; default the endpoint's. */
    maxTokens?: number;
    /** Throws for a reply the system cannot use: it is not cached and the call fails. */
    validate?: (content: string) => void;
    phase: CallPhase;
  }): Promise<string>;
  /** One vector per text, in order. */
  embed(input: { texts: readonly string[]; phase: CallPhase }): Promise<number[][]>;
}

/**
 * A system's models and the usage they accumulate. `chat` or `embedder` may be null for a
 * system that calls no model from the kit's side (Hindsight's server calls its own).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPort } from "./system_port.ts";
 * import { EmbeddingClient } from "./embedding_client.ts";
 * const embedder = new EmbeddingClient({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", model: "e",
 *   onMiss: (t) => Promise.resolve(t.map(() => [1, 0])) });
 * const port = new SystemPort({ chat: null, embedder });
 * const calls = port.bind({ seed: 0, trial: 0 });
 * assert.deepEqual(await calls.embed({ texts: ["a"], phase: "writing" }), [[1, 0]]);
 * assert.equal(port.usage.get("writing")?.embeddingRequests, 1);
 * ```
 */
export class SystemPort {
  readonly chatClient: ModelClient | null;
  readonly embedder: EmbeddingClient | null;
  /** Usage by phase. */
  readonly usage = new Map<CallPhase, PhaseUsage>();
  // Requests already counted: concurrent identical calls share one request (the client's
  // in-flight sharing), so a key is a request once and a cache hit after.
  #sent = new Set<string>();

  constructor(options: {
    /** The system's chat model client; null when the system calls none. */
    chat: ModelClient | null;
    /** The system's embedding client; null when the system calls none. */
    embedder: EmbeddingClient | null;
  }) {
    this.chatClient = options.chat;
    this.embedder = options.embedder;
  }

  /** The chat model id written into rows, or null. */
  get chatModel(): string | null {
    return this.chatClient?.endpoint.id ?? null;
  }

  /** The embedding model written into rows, or null. */
  get embeddingModel(): string | null {
    return this.embedder?.model ?? null;
  }

  #phase(phase: CallPhase): PhaseUsage {
    let u = this.usage.get(phase);
    if (!u) this.usage.set(phase, u = emptyUsage());
    return u;
  }

  /** Calls with a session's seed and trial (the trial is the chat cache slot). */
  bind(options: {
    /** Seed sent to providers that accept one. */
    seed: number;
    /** Independent repeat index. */
    trial: number;
  }): SystemCalls {
    return {
      chat: async ({ messages, responseFormat, maxTokens, validate, phase }) => {
        if (!this.chatClient) {
          throw new TypeError("this system has no chat model (it was configured without one)");
        }
        const request = {
          messages,
          ...(responseFormat && { responseFormat }),
          ...(maxTokens !== undefined && { maxTokens }),
          ...(validate && { validate: (r: { content: string }) => validate(r.content) }),
          seed: options.seed,
          trial: options.trial,
        };
        const key = this.chatClient.key(request);
        const res = await this.chatClient.chat(request);
        const u = this.#phase(phase);
        if (res.cacheHit || this.#sent.has(key)) u.chatCacheHits++;
        else {
          this.#sent.add(key);
          u.chatRequests++;
          u.promptTokens += res.promptTokens ?? 0;
          u.completionTokens += res.completionTokens ?? 0;
        }
        return res.content;
      },
      embed: async ({ texts, phase }) => {
        if (!this.embedder) {
          throw new TypeError("this system has no embedding model (it was configured without one)");
        }
        const res = await this.embedder.embedWithUsage({ texts });
        const u = this.#phase(phase);
        u.embeddingRequests += res.requests;
        u.embeddingCacheHits += res.cacheHits;
        u.embeddedTexts += res.texts;
        return res.vectors;
      },
    };
  }
}
