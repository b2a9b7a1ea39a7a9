/**
 * Embeddings for the systems over any OpenAI-compatible `/embeddings` endpoint, held to the same
 * rules as the kit's chat client: cached in the kit's response cache, rate-limited by its request
 * limiter, errors redacted, every request counted. The key lives here and nowhere else.
 */
import OpenAI from "openai";
import { redact } from "../models/redact.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { cacheKey, type ResponseCache } from "../models/response_cache.ts";

/** Counters of an embedding client. */
export interface EmbeddingStats {
  /** HTTP requests sent (one per batch of texts the cache did not hold). */
  requests: number;
  /** Texts answered from the cache. */
  cacheHits: number;
  /** Texts embedded by a request. */
  texts: number;
  /** Prompt tokens the endpoint reported. */
  tokens: number;
  /** Requests that failed for good. */
  errors: number;
}

/** A failed embedding request; its message is redacted. */
export class EmbeddingCallError extends Error {
  override name = "EmbeddingCallError";
}

/** Options of an {@link EmbeddingClient}. */
export interface EmbeddingClientOptions {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  /** API key, sent as the Authorization header only. */
  apiKey: string;
  /** Embedding model name. */
  model: string;
  /** Response cache shared with the chat clients; default none (a per-client memo only). */
  cache?: ResponseCache;
  /** Shared limiter; default a private one with concurrency 8. */
  limiter?: RequestLimiter;
  /** Retries after the first attempt (the SDK's, honouring Retry-After); default 4. */
  maxRetries?: number;
  /** Per-request timeout in ms; default 60000. */
  timeoutMs?: number;
  /** Texts per request; default 256. */
  batchSize?: number;
  /**
   * Called instead of the endpoint for texts the cache does not hold (dry runs); results are
   * not cached. Default none: the endpoint is asked.
   */
  onMiss?: (texts: string[]) => Promise<number[][]>;
}

function _toBase64(v: readonly number[]): string {
  const bytes = new Uint8Array(new Float32Array(v).buffer);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function _fromBase64(b64: string): number[] {
  const s = atob(b64);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return [...new Float32Array(bytes.buffer)];
}

/**
 * An embedding client: identical texts are embedded once and kept in the response cache (as
 * float32, so a cached vector equals a fresh one exactly), so a rerun makes no request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EmbeddingClient } from "./embedding_client.ts";
 * const client = new EmbeddingClient({
 *   baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", model: "e",
 *   onMiss: (texts) => Promise.resolve(texts.map((t) => [t.length, 1])),
 * });
 * assert.deepEqual(await client.embed({ texts: ["ab", "ab"] }), [[2, 1], [2, 1]]);
 * assert.equal(client.stats.requests, 1);
 * ```
 */
export class EmbeddingClient {
  readonly model: string;
  readonly baseUrl: string;
  readonly stats: EmbeddingStats = { requests: 0, cacheHits: 0, texts: 0, tokens: 0, errors: 0 };
  #apiKey: string;
  #openai: OpenAI;
  #cache?: ResponseCache;
  #limiter: RequestLimiter;
  #batchSize: number;
  #memo = new Map<string, Promise<number[]>>();
  #onMiss?: (texts: string[]) => Promise<number[][]>;

  constructor(options: EmbeddingClientOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl;
    this.#apiKey = options.apiKey;
    this.#cache = options.cache;
    this.#limiter = options.limiter ?? new RequestLimiter({});
    this.#batchSize = options.batchSize ?? 256;
    this.#onMiss = options.onMiss;
    this.#openai = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      maxRetries: options.maxRetries ?? 4,
      timeout: options.timeoutMs ?? 60_000,
    });
  }

  #key(text: string): string {
    // The vector depends on endpoint, model and text only; "embeddings" keeps it apart from chat.
    return cacheKey({
      baseUrl: this.baseUrl,
      model: this.model,
      body: { endpoint: "embeddings", input: text },
      trial: 0,
    });
  }

  // The cache holds chat replies, so a vector is kept as one: base64 float32 as `content`, its
  // length as `promptTokens` (a value that does not decode to that length is dropped).
  #cached(text: string): number[] | undefined {
    const key = this.#key(text);
    const hit = this.#cache?.get(key);
    if (!hit) return undefined;
    try {
      const v = _fromBase64(hit.content);
      if (v.length > 0 && v.length === hit.promptTokens) return v;
    } catch { /* not a vector */ }
    this.#cache!.delete(key);
    return undefined;
  }

  /** Vectors of `texts`, in order; one request for all texts no cache holds. */
  async embed(options: {
    /** Texts to embed (duplicates are embedded once). */
    texts: readonly string[];
  }): Promise<number[][]> {
    return (await this.embedWithUsage(options)).vectors;
  }

  /** {@link embed}, with what this call alone cost: requests sent, texts sent, cache hits. */
  async embedWithUsage(options: {
    /** Texts to embed (duplicates are embedded once). */
    texts: readonly string[];
  }): Promise<{ vectors: number[][]; requests: number; texts: number; cacheHits: number }> {
    let requests = 0, sent = 0, cacheHits = 0;
    const missing: string[] = [];
    const resolvers = new Map<string, [(v: number[]) => void, (e: unknown) => void]>();
    // This call's own promises: a failed batch leaves the memo, but is still this call's error.
    const own = new Map<string, Promise<number[]>>();
    for (const text of new Set(options.texts)) {
      if (this.#memo.has(text)) {
        this.stats.cacheHits++;
        cacheHits++;
        continue;
      }
      const hit = this.#cached(text);
      if (hit) {
        this.stats.cacheHits++;
        cacheHits++;
        this.#memo.set(text, Promise.resolve(hit));
        continue;
      }
      missing.push(text);
      const pending = new Promise<number[]>((resolve, reject) =>
        resolvers.set(text, [resolve, reject])
      );
      own.set(text, pending);
      this.#memo.set(text, pending);
    }
    for (let i = 0; i < missing.length; i += this.#batchSize) {
      const batch = missing.slice(i, i + this.#batchSize);
      requests++;
      sent += batch.length;
      try {
        const vectors = await this.#request(batch);
        batch.forEach((text, j) => resolvers.get(text)![0](vectors[j]));
      } catch (e) {
        for (const text of batch) {
          this.#memo.delete(text);
          resolvers.get(text)![1](e);
        }
        for (const text of missing.slice(i + this.#batchSize)) {
          this.#memo.delete(text);
          resolvers.get(text)![1](e);
        }
        break;
      }
    }
    const vectors = await Promise.all(options.texts.map((t) => own.get(t) ?? this.#memo.get(t)!));
    return { vectors, requests, texts: sent, cacheHits };
  }

  async #request(batch: string[]): Promise<number[][]> {
    this.stats.requests++;
    this.stats.texts += batch.length;
    if (this.#onMiss) {
      // Round through float32 like the cache does, so a dry run sees the vectors a run would.
      return (await this.#onMiss(batch)).map((v) => _fromBase64(_toBase64(v)));
    }
    try {
      const res = await this.#limiter.run(() =>
        this.#openai.embeddings.create({
          model: this.model,
          input: batch,
          encoding_format: "float",
        })
      );
      this.stats.tokens += res.usage?.prompt_tokens ?? 0;
      const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) =>
        _fromBase64(_toBase64(d.embedding as number[]))
      );
      if (vectors.length !== batch.length) {
        throw new EmbeddingCallError(
          `${this.model}: asked for ${batch.length} embeddings, got ${vectors.length}`,
        );
      }
      batch.forEach((text, j) =>
        this.#cache?.set(this.#key(text), {
          content: _toBase64(vectors[j]),
          promptTokens: vectors[j].length,
        })
      );
      return vectors;
    } catch (e) {
      this.stats.errors++;
      const what = e instanceof OpenAI.APIError && e.status ? `HTTP ${e.status}` : "error";
      const detail = e instanceof Error ? e.message : String(e);
      throw new EmbeddingCallError(
        redact({ text: `${this.model} embeddings: ${what}: ${detail}`, secrets: [this.#apiKey] })
          .slice(0, 500),
      );
    }
  }
}
