/**
 * Build a system with its model calls on the kit's clients: the chat model resolved through the
 * catalog (`--system-model`, as `--model` is for agents), embeddings through the kit's embedding
 * client, both over the run's response cache and request limiter.
 */
import { resolveModelEndpoint } from "../models/model_catalog.ts";
import { type CacheMiss, type ChatResult, ModelClient } from "../models/model_client.ts";
import type { RequestLimiter } from "../models/request_limiter.ts";
import type { ResponseCache } from "../models/response_cache.ts";
import { EmbeddingClient } from "./embedding_client.ts";
import type { MemorySystem } from "./memory_system.ts";
import { makeSystem, registeredSystemSpec } from "./systems.ts";
import { SystemPort } from "./system_port.ts";

/** Options of {@link systemSetup}. */
export interface SystemSetupOptions {
  /** `--system` name. */
  name: string;
  /**
   * The system's chat client, when the caller already has one (a `modelSetup` client shares the
   * run's cache and its endpoint's limiter with the agent); default one built here from
   * `chatModel`, `baseUrl` and `apiKeyEnv`.
   */
  chatClient?: ModelClient;
  /** The system's chat model: a catalog id, or with `baseUrl` any model name. */
  chatModel: string;
  /** Base URL of the chat model; default the catalog's. */
  baseUrl?: string;
  /** Key variable for an uncatalogued chat model; default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
  /** Embedding model name. */
  embeddingModel: string;
  /** Base URL of the embedding endpoint; default `baseUrl`, else OpenAI's. */
  embeddingBaseUrl?: string;
  /** Key variable of the embedding endpoint; default `OPENAI_API_KEY`. */
  embeddingKeyEnv?: string;
  /** Hindsight server and key. */
  hindsightUrl?: string;
  hindsightApiKey?: string;
  /** First poll interval while Hindsight consolidates, in ms; default 50. */
  hindsightPollMs?: number;
  /** The run's response cache and limiter. */
  cache?: ResponseCache;
  limiter?: RequestLimiter;
  /** Retries and timeout of the model clients; defaults the clients'. */
  maxRetries?: number;
  timeoutMs?: number;
  retryBaseMs?: number;
  /** A plugin system's own options by key (`--system-option`); default none. */
  systemOptions?: Readonly<Record<string, string>>;
  /** Environment holding the keys; default the process environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** A dry run: misses are answered here, nothing is sent and no key is read. */
  dryRun?: {
    chat: (miss: CacheMiss) => Promise<ChatResult>;
    embed: (texts: string[]) => Promise<number[][]>;
  };
}

/**
 * The system, ready to measure. Keys are read only for the models the system calls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemSetup } from "./system_setup.ts";
 * const system = systemSetup({ name: "amem", chatModel: "m", baseUrl: "http://127.0.0.1:9/v1",
 *   embeddingModel: "e", env: { OPENAI_API_KEY: "k" } });
 * assert.deepEqual([system.chatModel, system.embeddingModel], ["m", "e"]);
 * ```
 */
export function systemSetup(options: SystemSetupOptions): MemorySystem {
  const spec = registeredSystemSpec(options.name);
  // A dry run reads no key: any variable "holds" a placeholder that is never sent.
  const env = options.dryRun
    ? new Proxy({}, { get: () => "dry-run" }) as Record<string, string>
    : options.env ?? Deno.env.toObject();
  let port = new SystemPort({ chat: null, embedder: null });
  if (spec.needsModels) {
    const chat = options.chatClient ?? new ModelClient({
      endpoint: resolveModelEndpoint({
        id: options.chatModel,
        baseUrl: options.baseUrl,
        apiKeyEnv: options.apiKeyEnv,
        env,
      }),
      cache: options.cache,
      limiter: options.limiter,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      retryBaseMs: options.retryBaseMs,
      onMiss: options.dryRun?.chat,
    });
    const keyEnv = options.embeddingKeyEnv ?? "OPENAI_API_KEY";
    const apiKey = env[keyEnv];
    if (apiKey === undefined || apiKey === "") {
      throw new RangeError(
        `--embedding-model ${options.embeddingModel}: environment variable ${keyEnv} is not set (it must hold the API key)`,
      );
    }
    const embedder = new EmbeddingClient({
      baseUrl: options.embeddingBaseUrl ?? options.baseUrl ?? "https://api.openai.com/v1",
      apiKey,
      model: options.embeddingModel,
      cache: options.cache,
      limiter: options.limiter,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      onMiss: options.dryRun?.embed,
    });
    port = new SystemPort({ chat, embedder });
  }
  return makeSystem({
    name: spec.name,
    port,
    hindsightUrl: options.hindsightUrl,
    hindsightApiKey: options.hindsightApiKey,
    hindsightPollMs: options.hindsightPollMs,
    cache: options.cache,
    limiter: options.limiter,
    systemOptions: options.systemOptions ?? {},
  });
}
