/** Names the CLI accepts for existing memory systems, resolved to adapter factories. */
import { ModelClient } from "../models/model_client.ts";
import { amemSystem } from "./amem/amem_system.ts";
import { openAIEmbedder } from "./embeddings.ts";
import { hindsightSystem } from "./hindsight.ts";
import { langmemSystem } from "./langmem/langmem_system.ts";
import { mem0System } from "./mem0.ts";
import type { MemorySystemFactory, SystemEndpoint } from "./memory_system.ts";

/** System names the kit has adapters for. */
export const SYSTEM_NAMES = ["mem0", "langmem", "amem", "hindsight"] as const;

/**
 * The factory for a system name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSystem } from "./resolve_system.ts";
 * const endpoint = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "none", model: "m", embeddingModel: "e" };
 * assert.equal(typeof resolveSystem({ name: "langmem", endpoint }), "function");
 * assert.throws(() => resolveSystem({ name: "zep", endpoint }), RangeError);
 * ```
 */
export function resolveSystem(options: {
  /** One of {@link SYSTEM_NAMES}. */
  name: string;
  /** The system's model and embedding endpoint (not used by Hindsight, whose server has its own). */
  endpoint: SystemEndpoint;
  /** Hindsight server base URL; required for "hindsight". */
  hindsightUrl?: string;
  /** Hindsight API key; default none. */
  hindsightApiKey?: string;
}): MemorySystemFactory {
  const { endpoint } = options;
  const client = () =>
    new ModelClient({
      endpoint: {
        id: endpoint.model,
        model: endpoint.model,
        baseUrl: endpoint.baseUrl,
        apiKey: endpoint.apiKey,
        seed: false,
        extra: {},
      },
      retryBaseMs: 50,
    });
  const embedder = () =>
    openAIEmbedder({
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      model: endpoint.embeddingModel,
    });
  switch (options.name) {
    case "mem0":
      return mem0System({ endpoint });
    case "langmem":
      return langmemSystem({ client: client(), embedder: embedder() });
    case "amem":
      return amemSystem({ client: client(), embedder: embedder() });
    case "hindsight":
      if (!options.hindsightUrl) {
        throw new TypeError(
          "--system hindsight needs --hindsight-url URL (the Hindsight server you run)",
        );
      }
      return hindsightSystem({ baseUrl: options.hindsightUrl, apiKey: options.hindsightApiKey });
    default:
      throw new RangeError(
        `--system: unknown system ${JSON.stringify(options.name)} (expected one of ${
          SYSTEM_NAMES.join(", ")
        })`,
      );
  }
}
