/** Embeddings through any OpenAI-compatible `/embeddings` endpoint, cached per text. */
import OpenAI from "openai";

/** An embedder: texts to vectors. */
export interface Embedder {
  model: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/**
 * An embedder over an OpenAI-compatible endpoint; identical texts are embedded once.
 *
 * @example
 * ```ts
 * import { openAIEmbedder } from "./embeddings.ts";
 * const embedder = openAIEmbedder({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "none" });
 * console.assert(embedder.model === "text-embedding-3-small");
 * ```
 */
export function openAIEmbedder(options: {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  /** API key (sent as the Authorization header only). */
  apiKey: string;
  /** Embedding model; default "text-embedding-3-small". */
  model?: string;
}): Embedder {
  const model = options.model ?? "text-embedding-3-small";
  const client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey, maxRetries: 4 });
  const cache = new Map<string, number[]>();
  return {
    model,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length > 0) {
        const res = await client.embeddings.create({ model, input: missing });
        res.data.forEach((d, i) => cache.set(missing[i], d.embedding));
      }
      return texts.map((t) => cache.get(t)!);
    },
  };
}

/**
 * Cosine similarity of two vectors of the same length; 0 when either is all zeros.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cosine } from "./embeddings.ts";
 * assert.equal(cosine([1, 0], [1, 0]), 1);
 * ```
 */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
