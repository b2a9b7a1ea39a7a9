/**
 * The model client: chat completions over any OpenAI-compatible endpoint through the `openai`
 * package, with a response cache, bounded concurrency, 429 back-off, jittered retries and a
 * per-request timeout. Keys never leave this file: errors are redacted, cache keys exclude them.
 */
import OpenAI from "openai";
import { createPrng, type Prng } from "../random/prng.ts";
import type { ModelEndpoint } from "./model_catalog.ts";
import { redact } from "./redact.ts";
import { RequestLimiter } from "./request_limiter.ts";
import { cacheKey, type ResponseCache } from "./response_cache.ts";

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** One chat request; `trial` selects an independent cache slot (repeats are real samples). */
export interface ChatRequest {
  messages: ChatMessage[];
  /** OpenAI `response_format`; default none. */
  responseFormat?: Record<string, unknown>;
  /** Maximum completion tokens; default provider's. */
  maxTokens?: number;
  /** Seed sent to providers that accept one; default 0. */
  seed?: number;
  /** Repeat index; default 0. */
  trial?: number;
}

/** A completed call. */
export interface ChatResult {
  content: string;
  cacheHit: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
}

/** Counters of a client, for progress and tests. */
export interface ClientStats {
  /** HTTP requests sent (attempts, including retries). */
  requests: number;
  cacheHits: number;
  retries: number;
  /** Calls that failed after all retries. */
  errors: number;
}

/** A call that failed for good; its message is redacted. */
export class ModelCallError extends Error {
  override name = "ModelCallError";
}

/** Options of a model client. */
export interface ModelClientOptions {
  endpoint: ModelEndpoint;
  /** Response cache; default none (every call is a request). */
  cache?: ResponseCache;
  /** Shared limiter; default a private one with concurrency 8. */
  limiter?: RequestLimiter;
  /** Retries after the first attempt; default 4; 0 means none. */
  maxRetries?: number;
  /** Per-request timeout in ms; default 60000. */
  timeoutMs?: number;
  /** First back-off delay in ms (doubles each retry, jittered 50-150%); default 500. */
  retryBaseMs?: number;
  /** Longest back-off or Retry-After wait in ms; default 60000. */
  retryMaxMs?: number;
  /** Seed of the jitter stream; default 0. */
  jitterSeed?: number;
  /** Temperature; default 0. */
  temperature?: number;
  /**
   * Called instead of the endpoint when the cache has no answer (batch export records the
   * request here); receives the cache key and the exact body a request would send. Default
   * none: the endpoint is asked.
   */
  onMiss?: (miss: CacheMiss) => Promise<ChatResult>;
}

/** A request the cache could not answer: its cache key and the full body (with `model`). */
export interface CacheMiss {
  key: string;
  body: Record<string, unknown>;
}

function _retryAfterMs(headers: Headers | undefined): number | null {
  const raw = headers?.get("retry-after-ms") ?? null;
  if (raw !== null && Number.isFinite(Number(raw))) return Number(raw);
  const secs = headers?.get("retry-after") ?? null;
  if (secs === null) return null;
  if (Number.isFinite(Number(secs))) return Number(secs) * 1000;
  const date = Date.parse(secs);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function _retryable(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (e instanceof OpenAI.APIError) {
    const s = e.status ?? 0;
    return s === 408 || s === 409 || s === 429 || s >= 500;
  }
  // A malformed body (JSON parse failure) or a response without content: try again.
  return e instanceof SyntaxError || e instanceof ModelCallError;
}

/**
 * A chat client for one endpoint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ModelClient } from "./model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} }, maxRetries: 0, timeoutMs: 200 });
 * await assert.rejects(client.chat({ messages: [{ role: "user", content: "hi" }] }), /ModelCallError|m: /);
 * assert.equal(client.stats.errors, 1);
 * ```
 */
export class ModelClient {
  readonly endpoint: Omit<ModelEndpoint, "apiKey">;
  readonly stats: ClientStats = { requests: 0, cacheHits: 0, retries: 0, errors: 0 };
  #apiKey: string;
  #openai: OpenAI;
  #cache?: ResponseCache;
  #limiter: RequestLimiter;
  #maxRetries: number;
  #retryBaseMs: number;
  #retryMaxMs: number;
  #temperature: number;
  #jitter: Prng;
  #inflight = new Map<string, Promise<ChatResult>>();
  #onMiss?: (miss: CacheMiss) => Promise<ChatResult>;

  constructor(options: ModelClientOptions) {
    const { apiKey, ...endpoint } = options.endpoint;
    this.endpoint = endpoint;
    this.#apiKey = apiKey;
    this.#cache = options.cache;
    this.#onMiss = options.onMiss;
    this.#limiter = options.limiter ?? new RequestLimiter({});
    this.#maxRetries = options.maxRetries ?? 4;
    if (!Number.isInteger(this.#maxRetries) || this.#maxRetries < 0) {
      throw new RangeError(`--max-retries: expected an integer >= 0, got ${this.#maxRetries}`);
    }
    this.#retryBaseMs = options.retryBaseMs ?? 500;
    this.#retryMaxMs = options.retryMaxMs ?? 60_000;
    this.#temperature = options.temperature ?? 0;
    this.#jitter = createPrng(options.jitterSeed ?? 0);
    // The SDK's own retries are off: this client retries, so the limiter sees every 429.
    this.#openai = new OpenAI({
      apiKey,
      baseURL: endpoint.baseUrl,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 60_000,
    });
  }

  /** The request body (without model) a chat request becomes; also what batch export writes. */
  body(request: ChatRequest): Record<string, unknown> {
    return {
      messages: request.messages,
      temperature: this.#temperature,
      ...(this.endpoint.seed && { seed: request.seed ?? 0 }),
      ...(request.responseFormat && { response_format: request.responseFormat }),
      ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
      ...this.endpoint.extra,
    };
  }

  /** The cache key of a request. */
  key(request: ChatRequest): string {
    return cacheKey({
      baseUrl: this.endpoint.baseUrl,
      model: this.endpoint.model,
      body: this.body(request),
      trial: request.trial ?? 0,
    });
  }

  /** The cached result of a request, if any (no request is made). */
  cached(request: ChatRequest): ChatResult | undefined {
    const hit = this.#cache?.get(this.key(request)) as Omit<ChatResult, "cacheHit"> | undefined;
    return hit && { ...hit, cacheHit: true };
  }

  /** Store a result obtained elsewhere (batch import) under a request's key. */
  store(request: ChatRequest, result: Omit<ChatResult, "cacheHit">): void {
    this.#cache?.set(this.key(request), result);
  }

  /** Complete a chat request: from the cache, or from the endpoint with retries. */
  chat(request: ChatRequest): Promise<ChatResult> {
    const key = this.key(request);
    const hit = this.cached(request);
    if (hit) {
      this.stats.cacheHits++;
      return Promise.resolve(hit);
    }
    if (this.#onMiss) {
      return this.#onMiss({ key, body: { model: this.endpoint.model, ...this.body(request) } });
    }
    // Identical concurrent requests share one call.
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = this.#call(request).then((result) => {
        this.#cache?.set(key, {
          content: result.content,
          promptTokens: result.promptTokens,
          completionTokens: result.completionTokens,
        });
        return result;
      }).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  async #call(request: ChatRequest): Promise<ChatResult> {
    const body = { model: this.endpoint.model, ...this.body(request) };
    for (let attempt = 0;; attempt++) {
      try {
        const response = await this.#limiter.run(() => {
          this.stats.requests++;
          return this.#openai.chat.completions.create(
            body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
          );
        });
        const content = response?.choices?.[0]?.message?.content;
        if (typeof content !== "string") {
          throw new ModelCallError(`${this.endpoint.id}: response has no message content`);
        }
        return {
          content,
          cacheHit: false,
          promptTokens: response.usage?.prompt_tokens ?? null,
          completionTokens: response.usage?.completion_tokens ?? null,
        };
      } catch (e) {
        if (attempt >= this.#maxRetries || !_retryable(e)) {
          this.stats.errors++;
          const what = e instanceof OpenAI.APIError && e.status
            ? `HTTP ${e.status}`
            : e instanceof Error
            ? e.name
            : "error";
          const detail = e instanceof Error ? e.message : String(e);
          throw new ModelCallError(
            redact({
              text: `${this.endpoint.id}: ${what} after ${attempt + 1} attempt(s): ${detail}`,
              secrets: [this.#apiKey],
            }).slice(0, 500),
          );
        }
        this.stats.retries++;
        const retryAfter = e instanceof OpenAI.APIError
          ? _retryAfterMs(e.headers as Headers | undefined)
          : null;
        let wait = this.#retryBaseMs * 2 ** attempt * (0.5 + this.#jitter.float());
        if (retryAfter !== null) {
          wait = retryAfter;
          // Slow the whole run: the provider is rate-limiting all of us.
          this.#limiter.pause(Math.min(retryAfter, this.#retryMaxMs));
        }
        await new Promise((r) => setTimeout(r, Math.min(wait, this.#retryMaxMs)));
      }
    }
  }
}
