/**
 * The model client: chat completions over any OpenAI-compatible endpoint through the `openai`
 * package. It sends what the endpoint accepts (catalog capabilities), splits every reply into
 * answer and reasoning, turns truncated or empty replies into errors, caches only valid replies,
 * adapts its concurrency to the endpoint's rate limits and retries with jitter. Keys never leave
 * this file: errors are redacted, cache keys exclude them.
 */
import OpenAI from "openai";
import { createPrng, type Prng } from "../random/prng.ts";
import { splitReasoning } from "../text/reasoning.ts";
import {
  DEFAULT_CAPABILITIES,
  type ModelCapabilities,
  type ModelEndpoint,
} from "./model_catalog.ts";
import { exhaustedForMs, retryAfterMs } from "./rate_limit_headers.ts";
import { guardConsole, redact, redactError, registerSecret } from "./redact.ts";
import { RequestLimiter } from "./request_limiter.ts";
import { type CachedReply, cacheKey, type ResponseCache } from "./response_cache.ts";
import { adaptResponseFormat, type PromptMessage } from "./structured_output.ts";

/** One chat message; `reasoning` (the model's, in a trajectory) is never sent back. */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** The reasoning behind an assistant message; kept in trajectories, not sent. */
  reasoning?: string;
  /** Function calls an assistant message made; default none. */
  toolCalls?: ToolCall[];
  /** For a `tool` message: the call it answers. */
  toolCallId?: string;
}

/** One function call of a reply (OpenAI `tool_calls`, flattened). */
export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (a JSON text). */
  arguments: string;
}

/** A function the model may call (OpenAI `tools` entry). */
export interface ToolSpec {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** OpenAI `tool_choice`: let the model decide, forbid, require, or force one function. */
export type ToolChoice =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

// A message as sent: OpenAI's tool fields for tool calls and their results.
function _wire(m: { role: string; content: string }, original?: ChatMessage) {
  const calls = original?.toolCalls ?? [];
  return {
    role: m.role,
    content: calls.length > 0 && m.content === "" ? null : m.content,
    ...(calls.length > 0 && {
      tool_calls: calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    }),
    ...(original?.toolCallId !== undefined && { tool_call_id: original.toolCallId }),
  };
}

/** One chat request; `trial` selects an independent cache slot (repeats are real samples). */
export interface ChatRequest {
  messages: ChatMessage[];
  /** OpenAI `response_format` (a JSON schema is prompted where the endpoint cannot take it); default none. */
  responseFormat?: Record<string, unknown>;
  /** Output limit; default the endpoint's `maxTokens`. */
  maxTokens?: number;
  /** Seed sent to providers that accept one; default 0. */
  seed?: number;
  /** Repeat index; default 0. */
  trial?: number;
  /**
   * Checks the answer before it is cached or returned; throw to reject it. A rejected reply is
   * not cached (so a rerun or `--retry-errors` asks again) and the call fails with the thrown
   * error; a cached reply that fails is removed and asked again. Default: every reply is valid.
   */
  validate?: (result: ChatResult) => void;
  /** Functions the model may call; default none. */
  tools?: readonly ToolSpec[];
  /** How the model must use `tools`; default the provider's (`auto`). */
  toolChoice?: ToolChoice;
}

/** A completed call. */
export interface ChatResult {
  /** The visible answer: the reply without reasoning blocks, trimmed. */
  content: string;
  /** The model's reasoning (provider field and `<think>` blocks); null when there was none. */
  reasoning: string | null;
  /** The provider's `finish_reason` (`stop`, ...); null when not reported. */
  stopReason: string | null;
  /** Function calls the reply made (then `content` may be ""); empty when none. */
  toolCalls: ToolCall[];
  cacheHit: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
}

/** Counters of a client, for progress and tests. */
export interface ClientStats {
  /** HTTP requests sent (attempts, including retries). */
  requests: number;
  cacheHits: number;
  /** Retries after failures (429 waits not included). */
  retries: number;
  /** Calls that failed for good after their retries (HTTP errors, timeouts, truncated, empty). */
  errors: number;
  /** Replies that arrived but `validate` rejected (not cached; a rerun asks again). */
  rejected: number;
  /** 429 answers waited out (they do not spend the retry budget). */
  rateLimited: number;
}

/** A call that failed for good; its message is redacted. `stopReason` when a reply said why. */
export class ModelCallError extends Error {
  override name = "ModelCallError";
  /** The reply's finish reason (`length`, `content_filter`, ...) when it caused the failure. */
  readonly stopReason: string | null;

  constructor(message: string, options: { stopReason?: string | null } = {}) {
    super(message);
    this.stopReason = options.stopReason ?? null;
  }
}

/** Options of a model client. */
export interface ModelClientOptions {
  endpoint: ModelEndpoint;
  /** Response cache; default none (every call is a request). */
  cache?: ResponseCache;
  /** This endpoint's limiter (share one per endpoint); default a private one with concurrency 8. */
  limiter?: RequestLimiter;
  /** Retries after the first attempt (429 waits excluded); default 4; 0 means none. */
  maxRetries?: number;
  /** Per-request timeout in ms; default 60000. */
  timeoutMs?: number;
  /** First back-off delay in ms (doubles each retry, jittered 50-150%); default 500. */
  retryBaseMs?: number;
  /** Longest back-off or Retry-After wait in ms; default 60000. */
  retryMaxMs?: number;
  /** Longest total time one call may spend waiting out 429s, in ms; default 600000 (10 min). */
  rateLimitWaitMs?: number;
  /** Seed of the jitter stream; default 0. */
  jitterSeed?: number;
  /** Temperature, replacing the endpoint's; default the endpoint's (null: none sent). */
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

/** A call outcome that is retried at most once (an empty reply), or not at all. */
class _ReplyError extends ModelCallError {
  constructor(message: string, stopReason: string | null, readonly retryOnce: boolean) {
    super(message, { stopReason });
  }
}

function _congestion(e: unknown): boolean {
  return e instanceof OpenAI.APIConnectionTimeoutError ||
    (e instanceof OpenAI.APIError && e.status === 429);
}

function _retryable(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (e instanceof OpenAI.APIError) {
    const s = e.status ?? 0;
    return s === 408 || s === 409 || s >= 500;
  }
  // A malformed body (JSON parse failure): try again.
  return e instanceof SyntaxError;
}

function _text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
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
 * assert.equal(client.body({ messages: [] }).max_tokens, 4096);
 * ```
 */
export class ModelClient {
  /** The endpoint with every capability filled in; no key. */
  readonly endpoint: Omit<ModelEndpoint, "apiKey"> & ModelCapabilities;
  readonly stats: ClientStats = {
    requests: 0,
    cacheHits: 0,
    retries: 0,
    errors: 0,
    rejected: 0,
    rateLimited: 0,
  };
  /** The endpoint's limiter (adaptive concurrency). */
  readonly limiter: RequestLimiter;
  #apiKey: string;
  #openai: OpenAI;
  #cache?: ResponseCache;
  #maxRetries: number;
  #retryBaseMs: number;
  #retryMaxMs: number;
  #rateLimitWaitMs: number;
  #temperature: number | null;
  #jitter: Prng;
  #inflight = new Map<string, Promise<ChatResult>>();
  #onMiss?: (miss: CacheMiss) => Promise<ChatResult>;

  constructor(options: ModelClientOptions) {
    const { apiKey, ...endpoint } = options.endpoint;
    this.endpoint = { ...DEFAULT_CAPABILITIES, ...endpoint };
    this.#apiKey = apiKey;
    registerSecret({ secret: apiKey });
    guardConsole();
    this.#cache = options.cache;
    this.#onMiss = options.onMiss;
    this.limiter = options.limiter ?? new RequestLimiter({});
    this.#maxRetries = options.maxRetries ?? 4;
    if (!Number.isInteger(this.#maxRetries) || this.#maxRetries < 0) {
      throw new RangeError(`--max-retries: expected an integer >= 0, got ${this.#maxRetries}`);
    }
    this.#retryBaseMs = options.retryBaseMs ?? 500;
    this.#retryMaxMs = options.retryMaxMs ?? 60_000;
    this.#rateLimitWaitMs = options.rateLimitWaitMs ?? 600_000;
    this.#temperature = options.temperature ?? this.endpoint.temperature;
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
    const e = this.endpoint;
    const { messages, responseFormat } = adaptResponseFormat({
      messages: request.messages as PromptMessage[],
      responseFormat: request.responseFormat,
      support: e.responseFormat,
    });
    return {
      messages: messages.map((m, i) => _wire(m, request.messages[i])),
      ...(request.tools?.length && {
        tools: request.tools,
        ...(request.toolChoice !== undefined && { tool_choice: request.toolChoice }),
      }),
      ...(this.#temperature !== null && { temperature: this.#temperature }),
      ...(e.seed && { seed: request.seed ?? 0 }),
      ...(responseFormat && { response_format: responseFormat }),
      [e.maxTokensParam]: request.maxTokens ?? e.maxTokens,
      ...(e.reasoningEffort !== null && { reasoning_effort: e.reasoningEffort }),
      ...e.extra,
    };
  }

  /** The cache key of a request. */
  key(request: ChatRequest): string {
    return this.#key(this.body(request), request);
  }

  #key(body: Record<string, unknown>, request: ChatRequest): string {
    return cacheKey({
      baseUrl: this.endpoint.baseUrl,
      model: this.endpoint.model,
      body,
      trial: request.trial ?? 0,
    });
  }

  /** The cached result of a request, if any and valid (no request is made). */
  cached(request: ChatRequest): ChatResult | undefined {
    return this.#cached(this.key(request), request);
  }

  #cached(key: string, request: ChatRequest): ChatResult | undefined {
    const hit = this.#cache?.get(key);
    if (!hit) return undefined;
    try {
      const result = this.#result(hit, true, request.maxTokens);
      request.validate?.(result);
      return result;
    } catch {
      // Stored before validation existed, or by a batch import: ask again.
      this.#cache!.delete(key);
      return undefined;
    }
  }

  /** Store a result obtained elsewhere (batch import) under a request's key. */
  store(
    request: ChatRequest,
    result: Pick<ChatResult, "content" | "promptTokens" | "completionTokens"> & Partial<ChatResult>,
  ): void {
    this.#cache?.set(this.key(request), {
      content: result.content,
      reasoning: result.reasoning ?? null,
      stopReason: result.stopReason ?? null,
      ...(result.toolCalls?.length && { toolCalls: result.toolCalls }),
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
    });
  }

  /** Complete a chat request: from the cache, or from the endpoint with retries. */
  chat(request: ChatRequest): Promise<ChatResult> {
    const sent = this.body(request);
    const key = this.#key(sent, request);
    const body = { model: this.endpoint.model, ...sent };
    const hit = this.#cached(key, request);
    if (hit) {
      this.stats.cacheHits++;
      return Promise.resolve(hit);
    }
    if (this.#onMiss) return this.#onMiss({ key, body });
    // Identical concurrent requests share one call.
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = this.#call(request, key, body).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  /** A stored or received reply as a result; throws for truncated, filtered or empty replies. */
  #result(reply: CachedReply, cacheHit: boolean, maxTokens: number | undefined): ChatResult {
    const id = this.endpoint.id;
    const stop = reply.stopReason;
    if (stop === "length") {
      const param = this.endpoint.maxTokensParam;
      throw new _ReplyError(
        `${id}: truncated at ${param}=${
          maxTokens ?? this.endpoint.maxTokens
        } (finish_reason: length)`,
        stop,
        false,
      );
    }
    if (stop === "content_filter") {
      throw new _ReplyError(
        `${id}: reply withheld by the provider's content filter (finish_reason: content_filter)`,
        stop,
        false,
      );
    }
    const split = splitReasoning(reply.content);
    const reasoning = [reply.reasoning, split.reasoning].filter((r) => r !== null && r !== "")
      .join("\n\n");
    const toolCalls = reply.toolCalls ?? [];
    if (split.answer === "" && toolCalls.length === 0) {
      throw new _ReplyError(
        `${id}: response has no message content (finish_reason: ${stop ?? "none"})`,
        stop,
        true,
      );
    }
    return {
      content: split.answer,
      reasoning: reasoning === "" ? null : reasoning,
      stopReason: stop,
      toolCalls,
      cacheHit,
      promptTokens: reply.promptTokens,
      completionTokens: reply.completionTokens,
    };
  }

  #fail(e: unknown, attempts: number): never {
    this.stats.errors++;
    if (e instanceof ModelCallError && !(e instanceof _ReplyError)) throw e;
    const what = e instanceof OpenAI.APIError && e.status
      ? `HTTP ${e.status}`
      : e instanceof _ReplyError
      ? "reply"
      : e instanceof Error
      ? e.name
      : "error";
    const detail = e instanceof Error ? e.message : String(e);
    const text = e instanceof _ReplyError
      ? `${detail} after ${attempts} attempt(s)`
      : `${this.endpoint.id}: ${what} after ${attempts} attempt(s): ${detail}`;
    throw new ModelCallError(redact({ text, secrets: [this.#apiKey] }).slice(0, 500), {
      stopReason: e instanceof ModelCallError ? e.stopReason : null,
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, Math.min(ms, this.#retryMaxMs)));
  }

  #backoff(n: number): number {
    return this.#retryBaseMs * 2 ** n * (0.5 + this.#jitter.float());
  }

  async #call(
    request: ChatRequest,
    key: string,
    body: Record<string, unknown>,
  ): Promise<ChatResult> {
    let failures = 0, attempts = 0, waited = 0, limited = 0, emptyRetried = false;
    for (;;) {
      const slot = await this.limiter.acquire({ priority: attempts > 0 });
      attempts++;
      let reply: CachedReply;
      try {
        this.stats.requests++;
        const { data, response } = await this.#openai.chat.completions.create(
          body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        ).withResponse();
        slot.release({ outcome: "ok" });
        this.limiter.pause(exhaustedForMs({ headers: response.headers }));
        const choice = data?.choices?.[0];
        const message = choice?.message as
          | (OpenAI.ChatCompletionMessage & { reasoning_content?: unknown; reasoning?: unknown })
          | undefined;
        if (!message || typeof message !== "object") {
          throw new SyntaxError("response has no choices[0].message");
        }
        reply = {
          content: typeof message.content === "string" ? message.content : "",
          reasoning: _text(message.reasoning_content) ?? _text(message.reasoning),
          stopReason: choice?.finish_reason ?? null,
          promptTokens: data.usage?.prompt_tokens ?? null,
          completionTokens: data.usage?.completion_tokens ?? null,
          ...(message.tool_calls?.length && {
            toolCalls: message.tool_calls.map((c) => ({
              id: c.id,
              name: (c as { function?: { name?: string } }).function?.name ?? "",
              arguments: (c as { function?: { arguments?: string } }).function?.arguments ?? "",
            })),
          }),
        };
      } catch (e) {
        const status = e instanceof OpenAI.APIError ? e.status : undefined;
        const retryAfter = status === 429
          ? retryAfterMs({
            headers: (e as InstanceType<typeof OpenAI.APIError>).headers as Headers,
          })
          : null;
        slot.release({
          outcome: _congestion(e) ? "congested" : "failed",
          retryAfterMs: retryAfter,
        });
        // A 429 is waited out on its own clock; it does not spend the retry budget. A quota
        // error is a 429 too, but waiting does not end it.
        if (status === 429 && (e as { code?: unknown }).code !== "insufficient_quota") {
          const wait = Math.min(retryAfter ?? this.#backoff(limited), this.#retryMaxMs);
          if (waited + wait > this.#rateLimitWaitMs) {
            this.#fail(
              new ModelCallError(
                `${this.endpoint.id}: HTTP 429 after ${attempts} attempt(s): still rate-limited ` +
                  `after waiting ${Math.round(waited / 1000)} s (the limit is ${
                    Math.round(this.#rateLimitWaitMs / 1000)
                  } s per call)`,
              ),
              attempts,
            );
          }
          this.stats.rateLimited++;
          limited++;
          waited += wait;
          await this.#sleep(wait);
          continue;
        }
        if (failures >= this.#maxRetries || !_retryable(e)) this.#fail(e, attempts);
        this.stats.retries++;
        await this.#sleep(this.#backoff(failures++));
        continue;
      }
      let result: ChatResult;
      try {
        result = this.#result(reply, false, request.maxTokens);
      } catch (e) {
        // An empty reply is asked once more; a truncated or filtered one is final.
        const again = e instanceof _ReplyError && e.retryOnce && !emptyRetried &&
          this.#maxRetries > 0;
        if (!again) this.#fail(e, attempts);
        emptyRetried = true;
        this.stats.retries++;
        continue;
      }
      try {
        request.validate?.(result);
      } catch (e) {
        // Not cached: a rerun or --retry-errors asks again.
        this.stats.rejected++;
        throw redactError({ error: e, secrets: [this.#apiKey] });
      }
      this.#cache?.set(key, reply);
      return result;
    }
  }
}
