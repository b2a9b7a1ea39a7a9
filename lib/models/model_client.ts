/**
 * The model client: chat completions over any OpenAI-compatible endpoint, one `fetch` per
 * request (the body the `openai` package would send, without its per-request machinery). It
 * sends what the endpoint accepts (catalog capabilities), reads replies as providers send them
 * (reasoning fields and blocks, content arrays, refusals), turns truncated or empty replies
 * into errors, caches only valid replies (stored in batches, off the request path), adapts its
 * concurrency to each endpoint's rate limits, spreads a model's requests over its replicas and
 * retries with jitter. Errors name the HTTP status and the provider's error code. Keys never
 * leave this file: errors are redacted, cache keys exclude them.
 */
import { FieldError } from "../schema/field_error.ts";
import { createPrng, type Prng } from "../random/prng.ts";
import { callScope } from "./call_scope.ts";
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
import type { SpendCap } from "./spend_cap.ts";
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
  /** An assistant message that refused: the refusal text (`content` is then ""); not sent. */
  refusal?: string;
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
  /**
   * Whether a refusal (`content: null` with `message.refusal`) is an answer: the agent's
   * question may be refused (an abstention, cached like any answer); a judge, ranker or writer
   * that refuses gave no usable reply (an error, not cached). Default false.
   */
  acceptRefusal?: boolean;
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
  /**
   * The model's refusal text (then `content` is ""), with `acceptRefusal`; null or absent when
   * it answered.
   */
  refusal?: string | null;
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

/**
 * A call that failed for good; its message is redacted. It names the HTTP status and, in
 * brackets, the provider's error code and parameter (`m: HTTP 400 after 1 attempt(s)
 * [unsupported_parameter, param max_tokens]: ...`), so a summary can count failures by cause.
 * `stopReason` when a reply said why.
 */
export class ModelCallError extends Error {
  override name = "ModelCallError";
  /** The reply's finish reason (`length`, `content_filter`, ...) when it caused the failure. */
  readonly stopReason: string | null;
  /** The HTTP status of the last answer; null when none came (timeout, connection). */
  readonly status: number | null;
  /** The provider's error code (`unsupported_parameter`, `insufficient_quota`, ...); or null. */
  readonly code: string | null;

  constructor(
    message: string,
    options: { stopReason?: string | null; status?: number | null; code?: string | null } = {},
  ) {
    super(message);
    this.stopReason = options.stopReason ?? null;
    this.status = options.status ?? null;
    this.code = options.code ?? null;
  }
}

/** Options of a model client. */
export interface ModelClientOptions {
  endpoint: ModelEndpoint;
  /** Response cache; default none (every call is a request). */
  cache?: ResponseCache;
  /**
   * The limiter of the endpoint (its first base URL; share one per endpoint); default a private
   * one with concurrency 8.
   */
  limiter?: RequestLimiter;
  /**
   * The limiter of each replica's base URL (`endpoint.baseUrls`); default `limiter` for the
   * first and a private one with the same concurrency for each other.
   */
  limiterFor?: (baseUrl: string) => RequestLimiter;
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
  /**
   * The run's spending cap (`--max-cost`), shared by its clients: a request whose estimated
   * cost would cross it is not sent (`SpendCapReached`); default none.
   */
  spend?: SpendCap;
  /**
   * Which cache misses may be sent (given the body); the others fail with "not in the cache"
   * (re-judging rows answers the agent from the cache only). Default: every miss is sent.
   */
  sendOnly?: (body: Record<string, unknown>) => boolean;
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

/** An HTTP answer that is not a completion: its status, the provider's error and headers. */
class _HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly param: string | null,
    message: string,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

/** No answer in time. */
class _Timeout extends Error {}

/** No connection (refused, reset, DNS). */
class _Connection extends Error {}

function _text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * A message's visible text and reasoning parts. `content` is a string, null, or (Mistral) a list
 * of typed parts: `text` parts are the answer, joined as sent; `thinking` parts are reasoning.
 */
function _content(content: unknown): { text: string; thinking: string[] } {
  if (typeof content === "string") return { text: content, thinking: [] };
  if (!Array.isArray(content)) return { text: "", thinking: [] };
  const text: string[] = [], thinking: string[] = [];
  for (const part of content) {
    if (typeof part === "string") text.push(part);
    else if (part && typeof part === "object") {
      const p = part as { type?: unknown; text?: unknown; thinking?: unknown; reasoning?: unknown };
      if ((p.type === "text" || p.type === undefined) && typeof p.text === "string") {
        text.push(p.text);
      } else if (p.type === "thinking" || p.type === "reasoning") {
        const inner = p.thinking ?? p.reasoning ?? p.text;
        const body = typeof inner === "string" ? inner : _content(inner).text;
        if (body.trim() !== "") thinking.push(body);
      }
    }
  }
  return { text: text.join(""), thinking };
}

/** The provider's error of a non-2xx body: `{error: {message, code, type, param}}` or text. */
function _providerError(
  text: string,
): { message: string; code: string | null; param: string | null } {
  try {
    const body = JSON.parse(text);
    const e = (Array.isArray(body) ? body[0] : body)?.error ?? body;
    const message = typeof e === "string" ? e : _text(e?.message) ?? text;
    const code = _text(e?.code) ?? (typeof e?.code === "number" ? String(e.code) : null) ??
      _text(e?.type) ?? _text(e?.status);
    return { message, code, param: _text(e?.param) };
  } catch {
    return { message: text.trim() || "(empty body)", code: null, param: null };
  }
}

/** One base URL of a model, with its limiter and health. */
interface _Replica {
  url: string;
  limiter: RequestLimiter;
  /** Until when it is skipped after failures (ms since the epoch); 0 when healthy. */
  downUntil: number;
  failures: number;
}

/** Longest time a failing replica is skipped, in ms. */
const REPLICA_COOL_OFF_MS = 30_000;

/**
 * A chat client for one model, served by one endpoint or by several replicas of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ModelClient } from "./model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} }, maxRetries: 0, timeoutMs: 200 });
 * await assert.rejects(client.chat({ messages: [{ role: "user", content: "hi" }] }), /m: connection failed after 1 attempt/);
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
  /** The limiter of the endpoint's first base URL (adaptive concurrency). */
  readonly limiter: RequestLimiter;
  #apiKey: string;
  #headers: Record<string, string>;
  #replicas: _Replica[];
  #cache?: ResponseCache;
  #maxRetries: number;
  #timeoutMs: number;
  #retryBaseMs: number;
  #retryMaxMs: number;
  #rateLimitWaitMs: number;
  #temperature: number | null;
  #jitter: Prng;
  #inflight = new Map<string, Promise<ChatResult>>();
  #onMiss?: (miss: CacheMiss) => Promise<ChatResult>;
  #spend?: SpendCap;
  #sendOnly?: (body: Record<string, unknown>) => boolean;

  constructor(options: ModelClientOptions) {
    const { apiKey, ...endpoint } = options.endpoint;
    this.endpoint = { ...DEFAULT_CAPABILITIES, ...endpoint };
    this.#spend = options.spend;
    this.#sendOnly = options.sendOnly;
    if (this.#spend && !endpoint.prices && !options.onMiss) {
      throw new RangeError(
        `--max-cost: model ${endpoint.id} has no prices in data/models.json, so its spend ` +
          `cannot be estimated (give --model-option ${endpoint.id}.prices.inputPer1M=X ` +
          `--model-option ${endpoint.id}.prices.outputPer1M=Y)`,
      );
    }
    this.#apiKey = apiKey;
    registerSecret({ secret: apiKey });
    guardConsole();
    this.#cache = options.cache;
    this.#onMiss = options.onMiss;
    this.limiter = options.limiter ?? new RequestLimiter({});
    const urls = endpoint.baseUrls?.length ? endpoint.baseUrls : [endpoint.baseUrl];
    this.#replicas = urls.map((url, i) => ({
      url: url.replace(/\/+$/, ""),
      limiter: i === 0 ? this.limiter : options.limiterFor?.(url) ??
        new RequestLimiter({ concurrency: this.limiter.concurrency }),
      downUntil: 0,
      failures: 0,
    }));
    this.#maxRetries = options.maxRetries ?? 4;
    if (!Number.isInteger(this.#maxRetries) || this.#maxRetries < 0) {
      throw new FieldError({
        field: "maxRetries",
        detail: `expected an integer >= 0, got ${this.#maxRetries}`,
      });
    }
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#retryBaseMs = options.retryBaseMs ?? 500;
    this.#retryMaxMs = options.retryMaxMs ?? 60_000;
    this.#rateLimitWaitMs = options.rateLimitWaitMs ?? 600_000;
    this.#temperature = options.temperature ?? this.endpoint.temperature;
    this.#jitter = createPrng(options.jitterSeed ?? 0);
    this.#headers = {
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Bearer ${apiKey}`,
    };
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

  /** The cache key of a request (whichever replica answers it). */
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
      const result = this.#result(hit, true, request);
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
      ...(result.refusal && { refusal: result.refusal }),
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
    });
  }

  /** Complete a chat request: from the cache, or from the endpoint with retries. */
  chat(request: ChatRequest): Promise<ChatResult> {
    const sent = this.body(request);
    const key = this.#key(sent, request);
    const scope = callScope();
    scope?.calls?.push({ key, cache: this.#cache });
    const hit = this.#cached(key, request);
    if (hit) {
      this.stats.cacheHits++;
      return Promise.resolve(hit);
    }
    const body = { model: this.endpoint.model, ...sent };
    if (this.#onMiss) return this.#onMiss({ key, body });
    if (this.#sendOnly && !this.#sendOnly(body)) {
      this.stats.errors++;
      return Promise.reject(
        new ModelCallError(
          `${this.endpoint.id}: not in the cache, and this run asks only the cache for it`,
        ),
      );
    }
    // Identical concurrent requests share one call.
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = this.#call(request, key, body, scope?.rank, scope?.run)
        .finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  /** A stored or received reply as a result; throws for truncated, filtered or empty replies. */
  #result(reply: CachedReply, cacheHit: boolean, request: ChatRequest): ChatResult {
    const id = this.endpoint.id;
    const stop = reply.stopReason;
    if (stop === "length") {
      const param = this.endpoint.maxTokensParam;
      throw new _ReplyError(
        `${id}: truncated at ${param}=${
          request.maxTokens ?? this.endpoint.maxTokens
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
    const refusal = split.answer === "" && toolCalls.length === 0 ? reply.refusal ?? null : null;
    if (refusal !== null && !request.acceptRefusal) {
      throw new _ReplyError(
        `${id}: the model refused (refusal: ${JSON.stringify(refusal.slice(0, 200))})`,
        stop,
        false,
      );
    }
    if (split.answer === "" && toolCalls.length === 0 && refusal === null) {
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
      refusal,
      cacheHit,
      promptTokens: reply.promptTokens,
      completionTokens: reply.completionTokens,
    };
  }

  #fail(e: unknown, attempts: number): never {
    this.stats.errors++;
    if (e instanceof ModelCallError && !(e instanceof _ReplyError)) throw e;
    const id = this.endpoint.id;
    let text: string;
    if (e instanceof _ReplyError) text = `${e.message} after ${attempts} attempt(s)`;
    else if (e instanceof _HttpError) {
      const detail = [e.code, e.param && `param ${e.param}`].filter(Boolean).join(", ");
      text = `${id}: HTTP ${e.status} after ${attempts} attempt(s)${
        detail ? ` [${detail}]` : ""
      }: ${e.message}`;
    } else if (e instanceof _Timeout) {
      text = `${id}: timeout after ${attempts} attempt(s): no answer within ${this.#timeoutMs} ms`;
    } else if (e instanceof _Connection) {
      text = `${id}: connection failed after ${attempts} attempt(s): ${e.message}`;
    } else if (e instanceof SyntaxError) {
      text = `${id}: malformed reply after ${attempts} attempt(s): ${e.message}`;
    } else {
      const name = e instanceof Error ? e.name : "error";
      text = `${id}: ${name} after ${attempts} attempt(s): ${
        e instanceof Error ? e.message : String(e)
      }`;
    }
    throw new ModelCallError(redact({ text, secrets: [this.#apiKey] }).slice(0, 500), {
      stopReason: e instanceof ModelCallError ? e.stopReason : null,
      status: e instanceof _HttpError ? e.status : null,
      code: e instanceof _HttpError ? e.code : null,
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, Math.min(ms, this.#retryMaxMs)));
  }

  #backoff(n: number): number {
    return this.#retryBaseMs * 2 ** n * (0.5 + this.#jitter.float());
  }

  /** The replica to ask: a healthy one with the most room, else the one back soonest. */
  #pick(): _Replica {
    const replicas = this.#replicas;
    if (replicas.length === 1) return replicas[0];
    const now = Date.now();
    const up = replicas.filter((r) => r.downUntil <= now);
    const pool = up.length > 0
      ? up
      : [replicas.reduce((a, b) => (b.downUntil < a.downUntil ? b : a))];
    const load = (r: _Replica) => (r.limiter.active + r.limiter.waiting) / r.limiter.limit;
    return pool.reduce((a, b) => (load(b) < load(a) ? b : a));
  }

  /** A replica that failed is skipped for a while (1 s, doubling, at most 30 s). */
  #down(replica: _Replica): boolean {
    if (this.#replicas.length === 1) return false;
    replica.failures++;
    replica.downUntil = Date.now() +
      Math.min(REPLICA_COOL_OFF_MS, 1000 * 2 ** (replica.failures - 1));
    return this.#replicas.some((r) => r.downUntil <= Date.now());
  }

  /** One HTTP exchange: the parsed completion, or a thrown `_HttpError`/`_Timeout`/`_Connection`. */
  async #post(replica: _Replica, payload: string): Promise<{ data: unknown; headers: Headers }> {
    let res: Response;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      res = await fetch(`${replica.url}/chat/completions`, {
        method: "POST",
        headers: this.#headers,
        body: payload,
        signal,
      });
    } catch (e) {
      if ((e as Error)?.name === "TimeoutError" || signal.aborted) throw new _Timeout("timeout");
      throw new _Connection((e as Error)?.message ?? String(e));
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      if ((e as Error)?.name === "TimeoutError" || signal.aborted) throw new _Timeout("timeout");
      throw new _Connection((e as Error)?.message ?? String(e));
    }
    if (!res.ok) {
      const err = _providerError(text);
      throw new _HttpError(res.status, err.code, err.param, err.message, res.headers);
    }
    return { data: JSON.parse(text), headers: res.headers };
  }

  async #call(
    request: ChatRequest,
    key: string,
    body: Record<string, unknown>,
    rank: number | undefined,
    run: string | undefined,
  ): Promise<ChatResult> {
    const payload = JSON.stringify(body);
    let failures = 0, attempts = 0, waited = 0, limited = 0, emptyRetried = false;
    for (;;) {
      let replica = this.#pick();
      let slot = await replica.limiter.acquire({ priority: attempts > 0, rank });
      // A replica that failed while this request waited for it: wait for a healthy one.
      while (
        replica.downUntil > Date.now() && this.#replicas.some((r) => r.downUntil <= Date.now())
      ) {
        slot.release({ outcome: "failed" });
        replica = this.#pick();
        slot = await replica.limiter.acquire({ priority: attempts > 0, rank });
      }
      // Priced before it is sent: a request that would cross --max-cost is not.
      let reservation: ReturnType<SpendCap["reserve"]> | undefined;
      try {
        reservation = this.#spend?.reserve({
          model: this.endpoint.id,
          prices: this.endpoint.prices!,
          promptChars: payload.length,
        });
      } catch (e) {
        slot.release({ outcome: "failed" });
        throw e;
      }
      attempts++;
      let reply: CachedReply;
      try {
        this.stats.requests++;
        const { data, headers } = await this.#post(replica, payload);
        slot.release({ outcome: "ok" });
        replica.failures = 0;
        replica.downUntil = 0;
        replica.limiter.pause(exhaustedForMs({ headers }));
        const d = data as {
          choices?: { message?: Record<string, unknown>; finish_reason?: string | null }[];
          usage?: { prompt_tokens?: number; completion_tokens?: number };
        } | null;
        const choice = d?.choices?.[0];
        const message = choice?.message;
        if (!message || typeof message !== "object") {
          throw new SyntaxError("response has no choices[0].message");
        }
        const { text, thinking } = _content(message.content);
        const field = _text(message.reasoning_content) ?? _text(message.reasoning);
        const thoughts = [field, ...thinking].filter((t) => t !== null).join("\n\n");
        const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        const refusal = _text(message.refusal);
        reply = {
          content: text,
          reasoning: thoughts === "" ? null : thoughts,
          stopReason: choice?.finish_reason ?? null,
          promptTokens: d?.usage?.prompt_tokens ?? null,
          completionTokens: d?.usage?.completion_tokens ?? null,
          ...(calls.length > 0 && {
            toolCalls: calls.map((
              c: { id?: string; function?: { name?: string; arguments?: string } },
            ) => ({
              id: c.id ?? "",
              name: c.function?.name ?? "",
              arguments: c.function?.arguments ?? "",
            })),
          }),
          ...(refusal !== null && { refusal }),
        };
        if (reservation) this.#spend!.settle(reservation, reply);
      } catch (e) {
        if (reservation) this.#spend!.release(reservation);
        const status = e instanceof _HttpError ? e.status : undefined;
        const retryAfter = status === 429
          ? retryAfterMs({ headers: (e as _HttpError).headers })
          : null;
        const congested = status === 429 || e instanceof _Timeout;
        slot.release({ outcome: congested ? "congested" : "failed", retryAfterMs: retryAfter });
        // A 429 is waited out on its own clock; it does not spend the retry budget. A quota
        // error is a 429 too, but waiting does not end it.
        if (status === 429 && (e as _HttpError).code !== "insufficient_quota") {
          const wait = Math.min(retryAfter ?? this.#backoff(limited), this.#retryMaxMs);
          if (waited + wait > this.#rateLimitWaitMs) {
            this.#fail(
              new ModelCallError(
                `${this.endpoint.id}: HTTP 429 after ${attempts} attempt(s): still rate-limited ` +
                  `after waiting ${Math.round(waited / 1000)} s (the limit is ${
                    Math.round(this.#rateLimitWaitMs / 1000)
                  } s per call)`,
                { status: 429 },
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
        const retryable = e instanceof _Connection || e instanceof _Timeout ||
          e instanceof SyntaxError ||
          (status !== undefined && (status === 408 || status === 409 || status >= 500));
        if (failures >= this.#maxRetries || !retryable) this.#fail(e, attempts);
        this.stats.retries++;
        failures++;
        // A replica that fails is skipped; another healthy one is asked at once.
        const elsewhere = (e instanceof _Connection || e instanceof _Timeout ||
          (status !== undefined && status >= 500)) && this.#down(replica);
        if (!elsewhere) await this.#sleep(this.#backoff(failures - 1));
        continue;
      }
      let result: ChatResult;
      try {
        result = this.#result(reply, false, request);
      } catch (e) {
        // An empty reply is asked once more; a truncated, filtered or refused one is final.
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
      // Queued, stored in a batch off the request path; a failed store never fails the call.
      this.#cache?.set(key, reply, run === undefined ? {} : { run });
      return result;
    }
  }
}
