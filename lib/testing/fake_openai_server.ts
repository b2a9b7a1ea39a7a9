/**
 * A local OpenAI-compatible server for tests: chat completions and embeddings on 127.0.0.1 at an
 * ephemeral port. Its answers are scripted; scriptable modes make it behave like real providers
 * rather than like the kit expects: `<think>` blocks or `reasoning_content`, JSON in code fences
 * or after prose, `content: null`, `finish_reason: "length"`, 400s for parameters it does not
 * take (with the provider's `code` and `param`), refusals (`content: null` with `refusal`),
 * Mistral-style `content` arrays, missing `usage`, rate limits with `x-ratelimit-*` headers, keys
 * echoed in 401 bodies, and faults (429 with Retry-After, 500, hangs, malformed JSON). Several
 * servers make the replicas of one model.
 */

/** A fault to inject into one response. */
export type Fault = "429" | "500" | "hang" | "malformed" | "401";

/** What the fake model answers to a chat request body: the message content. */
export type Reply = (body: ChatBody) => string;

/** The parts of a chat request the fake reads. */
export interface ChatBody {
  model: string;
  messages: { role: string; content: string; tool_call_id?: string }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } };
  /** Functions the model may call (OpenAI `tools`). */
  tools?: { type: string; function: { name: string } }[];
  /** `auto`, `none`, `required` or `{type: "function", function: {name}}`. */
  tool_choice?: unknown;
  [param: string]: unknown;
}

/**
 * The function a tool-using model calls next, as a provider's model would: the forced function
 * (`tool_choice` naming one, or `required`), or under `auto` the first tool until a tool result
 * is in the conversation; null to answer in text.
 */
export function toolCallFor(body: ChatBody): string | null {
  const tools = body.tools ?? [];
  if (tools.length === 0 || body.tool_choice === "none") return null;
  const choice = body.tool_choice as { function?: { name?: string } } | string | undefined;
  if (typeof choice === "object" && choice?.function?.name) return choice.function.name;
  if (choice === "required") return tools[0].function.name;
  return body.messages.some((m) => m.role === "tool") ? null : tools[0].function.name;
}

/** Request parameters a provider may refuse with a 400. */
export type RejectedParam =
  | "temperature"
  | "seed"
  | "json_schema"
  | "json_object"
  | "max_tokens"
  | "max_completion_tokens"
  | "reasoning_effort";

/** How the fake behaves, like one real provider or another; every field defaults to off. */
export interface FakeModes {
  /**
   * Where the model's reasoning goes: `think` wraps every reply in a `<think>` block (GLM,
   * Qwen, MiniMax served raw), `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter)
   * put it in a message field. The reasoning restates every value the records assert, so text
   * that leaks into a graded answer or a memory record changes results.
   */
  reasoning?: "think" | "reasoning_content" | "reasoning";
  /** JSON replies in a ```json fence, or after a sentence of prose. */
  jsonStyle?: "fenced" | "prose";
  /** Every reply has `content: null` (with `finish_reason` as below, default `stop`). */
  nullContent?: boolean;
  /** `finish_reason` of every reply; `length` also cuts the content in half. */
  finishReason?: "stop" | "length" | "content_filter";
  /** Parameters answered with a 400 naming them. */
  reject?: readonly RejectedParam[];
  /** Leave `usage` out of replies. */
  noUsage?: boolean;
  /** Answer every request 401, echoing the presented key (raw and masked) in the body. */
  echoKeyIn401?: boolean;
  /** A fixed-window rate limit: `x-ratelimit-*` headers on every reply, 429 beyond it. */
  rateLimit?: { requests: number; windowMs: number };
  /**
   * Refuse as OpenAI's models do: `content: null` and the reason in `message.refusal`.
   * `agent`: free-text requests only (the agent's question); `all`: structured requests too.
   */
  refusal?: "agent" | "all";
  /**
   * `content` as a list of typed parts, as Mistral sends it: `{type: "text", text}` parts and,
   * with `reasoning`, a leading `{type: "thinking", thinking: [{type: "text", text}]}` part.
   */
  contentParts?: boolean;
  /**
   * Bill the `response_format` JSON schema and the `tools` definitions as prompt tokens, as
   * providers do; default off (`usage.prompt_tokens` counts the messages only).
   */
  billSchema?: boolean;
}

/** A running fake server. */
export interface FakeServer {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  /** Chat and embedding requests received (including faulted ones). */
  requests: number;
  /** Authorization headers seen, to check that the key was sent. */
  authorizations: Set<string>;
  /** Faults to apply to the next requests, consumed in order. */
  faults: Fault[];
  /** Modes in force; change them between runs (a server that turns healthy). */
  modes: FakeModes;
  /** Chat request bodies received, in arrival order. */
  bodies: ChatBody[];
  /** Requests being answered now, and the most at once so far. */
  inFlight: number;
  peakInFlight: number;
  close(): Promise<void>;
}

function _wantsJson(body: ChatBody): boolean {
  if (body.response_format?.type === "json_schema") return true;
  const text = body.messages.map((m) => m.content).join("\n");
  // The kit prompts the schema when the endpoint cannot enforce it; the fake model obeys.
  return /JSON schema:|Reply with the JSON object \{/.test(text) ||
    (body.response_format?.type === "json_object" &&
      /"ranking"|"record"|"verdict"/.test(text));
}

/**
 * The default answer: the value that most records the model was shown assert, where a record
 * asserts X by saying "the value is X"; ties go to the later record. Records are read wherever
 * the agent was given them: the system prompt, the last user message or tool results. No
 * assertion: "I don't know.". Structured requests (a JSON schema, native or prompted) get a
 * schema-shaped JSON reply (see `scriptedJson`).
 */
export function majorityReply(body: ChatBody): string {
  if (_wantsJson(body)) return scriptedJson(body);
  const user = [
    ...body.messages.filter((m) => m.role === "system" || m.role === "tool"),
    ...body.messages.filter((m) => m.role === "user").slice(-1),
  ].map((m) => m.content ?? "").join("\n");
  const counts = new Map<string, number>();
  for (const m of user.matchAll(/the value is ([^.\n]+)/gi)) {
    counts.set(m[1].trim(), (counts.get(m[1].trim()) ?? 0) + 1);
    counts.set(m[1].trim(), counts.get(m[1].trim())! + 1e-6 * m.index!); // later wins ties
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? `The value is ${best[0]}.` : "I don't know.";
}

/**
 * JSON replies for structured requests: a judge (`verdict`) grades the final answer (the
 * `<answer>`, or the last assistant turn of a `<trajectory>`) by whether it contains the
 * correct answer and the target, both meaning a hedge (`{reasoning, verdict}`); a ranker (`ranking`) returns the unit ids
 * in the order listed; a writer (`record`) returns the unit's text. The kind is read from the
 * request as a model would: the schema name, or the prompt.
 */
export function scriptedJson(body: ChatBody): string {
  const text = body.messages.map((m) => m.content).join("\n");
  const name = body.response_format?.json_schema?.name;
  const asked = /Reply with the JSON object (\{[^}]*\})/.exec(text);
  if (asked) return asked[1];
  if (name === "memory_record" || (name === undefined && /\{"record"/.test(text))) {
    const unit = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    return JSON.stringify({ record: unit.split("\n\n")[0].replace(/^\(\w+\)\s*/, "") });
  }
  if (name === "ranking" || (name === undefined && /"ranking"/.test(text))) {
    const ids = [...text.matchAll(/^\s*\[id=([^\]]+)\]/gm)].map((m) => m[1]);
    return JSON.stringify({ ranking: ids });
  }
  const tag = (name: string) =>
    new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text)?.[1].trim() ?? "";
  const whole = tag("trajectory");
  // Only the final answer counts: the records in a trajectory state both answers.
  const final = (whole ? whole.slice(whole.lastIndexOf("<assistant>")) : tag("answer"))
    .toLowerCase();
  const has = (value: string) => value !== "" && final.includes(value.toLowerCase());
  const correct = has(tag("correct")), target = has(tag("target"));
  return JSON.stringify({
    reasoning: "scripted",
    verdict: correct && target ? "hedged" : correct ? "correct" : target ? "target" : "neither",
  });
}

/** The reasoning a thinking model would show: it weighs every value the prompt mentions. */
function _thoughts(body: ChatBody): string {
  const text = body.messages.map((m) => m.content).join("\n");
  const values = [...new Set([...text.matchAll(/the value is ([^.\n]+)/gi)].map((m) => m[1]))];
  return `Let me think. The records mention: ${
    values.map((v) => `the value is ${v}`).join("; ") || "nothing definite"
  }. A draft: {"draft": true}. Now the answer.`;
}

function _isJson(text: string): boolean {
  try {
    const v = JSON.parse(text);
    return typeof v === "object" && v !== null;
  } catch {
    return false;
  }
}

/** The fake's embedding: a deterministic bag-of-words hashing embedder, L2-normalised. */
export function fakeEmbedding(text: string, dims: number): number[] {
  const v = new Array(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    v[(h >>> 0) % dims] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

// openai-node 4.x asks for base64 by default and misreads a float array; answer in kind.
function _encode(v: number[], format: unknown): number[] | string {
  if (format !== "base64") return v;
  const bytes = new Uint8Array(new Float32Array(v).buffer);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** The 400 error a provider gives for a parameter it does not take, or null. */
function _rejection(
  body: ChatBody,
  reject: readonly RejectedParam[],
): { message: string; type: string; param: string; code: string } | null {
  for (const param of reject) {
    if (param === "json_schema" || param === "json_object") {
      if (body.response_format?.type === param) {
        return {
          message: `Invalid parameter: 'response_format' of type '${param}' is not supported ` +
            "with this model.",
          type: "invalid_request_error",
          param: "response_format",
          code: "invalid_parameter",
        };
      }
    } else if (param in body) {
      return {
        message: `Unsupported parameter: '${param}' is not supported with this model.` +
          (param === "max_tokens" ? " Use 'max_completion_tokens' instead." : ""),
        type: "invalid_request_error",
        param,
        code: "unsupported_parameter",
      };
    }
  }
  return null;
}

const REFUSAL = "I'm sorry, but I can't help with that request.";

/** Prompt tokens: the messages, and with `billSchema` a JSON schema and tool definitions. */
function _promptTokens(body: ChatBody, billSchema: boolean | undefined): number {
  const schema = billSchema && body.response_format?.type === "json_schema"
    ? JSON.stringify(body.response_format.json_schema)
    : "";
  const tools = billSchema && body.tools ? JSON.stringify(body.tools) : "";
  return (JSON.stringify(body.messages ?? []).length + schema.length + tools.length) >> 2;
}

/**
 * Start a fake server; close it in a `finally`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startFakeOpenAIServer } from "./fake_openai_server.ts";
 * const server = startFakeOpenAIServer({ modes: { reasoning: "think" } });
 * try {
 *   assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
 *   const res = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "the value is 3." }] }) });
 *   assert.match((await res.json()).choices[0].message.content, /^<think>[\s\S]*<\/think>\n\nThe value is 3\.$/);
 * } finally { await server.close(); }
 * ```
 */
export function startFakeOpenAIServer(options: {
  /** Added latency per response in ms; default 0. */
  latencyMs?: number;
  /** How the model answers; default `majorityReply`. */
  reply?: Reply;
  /** Faults for the first requests, in order; default none. */
  faults?: Fault[];
  /** Retry-After seconds sent with a 429; default 0.05 (fractional, for fast tests). */
  retryAfterSeconds?: number;
  /** A fault decided per request (after the queue is empty); default none. */
  faultFor?: (n: number, body: ChatBody) => Fault | null;
  /** Embedding dimensions; default 64. */
  embeddingDims?: number;
  /** Provider behaviour; default none (a well-behaved server). */
  modes?: FakeModes;
}): FakeServer {
  const reply = options.reply ?? majorityReply;
  const hangs = new Set<AbortController>();
  const state: FakeServer = {
    baseUrl: "",
    requests: 0,
    authorizations: new Set(),
    faults: [...(options.faults ?? [])],
    modes: { ...options.modes },
    bodies: [],
    inFlight: 0,
    peakInFlight: 0,
    close: async () => {},
  };
  let windowStart = 0, windowCount = 0;
  const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(value), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    state.peakInFlight = Math.max(state.peakInFlight, ++state.inFlight);
    try {
      return await answer(req);
    } finally {
      state.inFlight--;
    }
  });
  async function answer(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const n = state.requests++;
    const authorization = req.headers.get("authorization") ?? "";
    state.authorizations.add(authorization);
    const body = await req.json().catch(() => ({}));
    if (url.pathname === "/v1/chat/completions") state.bodies.push(body);
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    const modes = state.modes;
    let fault = state.faults.shift() ?? options.faultFor?.(n, body) ?? null;
    if (modes.echoKeyIn401) fault = "401";
    const limitHeaders: Record<string, string> = {};
    if (modes.rateLimit && fault === null) {
      const now = Date.now();
      if (now - windowStart >= modes.rateLimit.windowMs) (windowStart = now, windowCount = 0);
      const resetMs = windowStart + modes.rateLimit.windowMs - now;
      windowCount++;
      limitHeaders["x-ratelimit-limit-requests"] = String(modes.rateLimit.requests);
      limitHeaders["x-ratelimit-remaining-requests"] = String(
        Math.max(0, modes.rateLimit.requests - windowCount),
      );
      limitHeaders["x-ratelimit-reset-requests"] = `${resetMs}ms`;
      if (windowCount > modes.rateLimit.requests) {
        return json(
          { error: { message: "Rate limit reached for requests", type: "requests" } },
          429,
          {
            ...limitHeaders,
            "retry-after-ms": String(resetMs),
          },
        );
      }
    }
    if (fault === "429") {
      return json(
        {
          error: { message: "rate limited", type: "requests", code: "rate_limit_exceeded" },
        },
        429,
        {
          "retry-after": String(options.retryAfterSeconds ?? 0.05),
        },
      );
    }
    if (fault === "401") {
      const key = authorization.replace(/^Bearer\s+/, "");
      const masked = `${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${
        key.slice(-4)
      }`;
      return json({
        error: {
          message:
            `Incorrect API key provided: ${key} (${masked}). Authorization: ${authorization}`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      }, 401);
    }
    if (fault === "500") {
      return json({ error: { message: "boom", type: "server_error", code: "server_error" } }, 500);
    }
    if (fault === "hang") {
      const ac = new AbortController();
      hangs.add(ac);
      await new Promise((r) => {
        const t = setTimeout(r, 30_000);
        ac.signal.addEventListener("abort", () => (clearTimeout(t), r(null)));
      });
      hangs.delete(ac);
      return json({ error: { message: "late" } }, 500);
    }
    if (fault === "malformed") {
      return new Response('{"id": "x", "choices": [', {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }
    if (url.pathname === "/v1/embeddings") {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input ?? ""];
      return json({
        object: "list",
        model: body.model,
        data: inputs.map((t, index) => ({
          object: "embedding",
          index,
          embedding: _encode(
            fakeEmbedding(String(t), options.embeddingDims ?? 64),
            body.encoding_format,
          ),
        })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      });
    }
    if (url.pathname !== "/v1/chat/completions") return json({ error: "not found" }, 404);
    const rejected = _rejection(body as ChatBody, modes.reject ?? []);
    if (rejected !== null) return json({ error: rejected }, 400);
    const tool = toolCallFor(body as ChatBody);
    if (tool !== null) {
      // A provider's tool call: no content, the call in `tool_calls`, finish_reason tool_calls.
      const query = (body as ChatBody).messages.filter((m) => m.role === "user").at(-1)?.content;
      const args = JSON.stringify({ query: query ?? "" });
      const promptTokens = _promptTokens(body as ChatBody, state.modes.billSchema);
      return json(
        {
          id: `chatcmpl-${n}`,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{
                id: `call_${JSON.stringify(body.messages ?? []).length}`,
                type: "function",
                function: { name: tool, arguments: args },
              }],
            },
            finish_reason: "tool_calls",
          }],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: args.length >> 2,
            total_tokens: promptTokens + (args.length >> 2),
          },
        },
        200,
        limitHeaders,
      );
    }
    const structured = _wantsJson(body as ChatBody) || body.response_format !== undefined;
    if (modes.refusal === "all" || (modes.refusal === "agent" && !structured)) {
      return json(
        {
          id: `chatcmpl-${n}`,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{
            index: 0,
            message: { role: "assistant", content: null, refusal: REFUSAL },
            finish_reason: "stop",
          }],
          usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22 },
        },
        200,
        limitHeaders,
      );
    }
    let content: string | null = reply(body as ChatBody);
    if (modes.jsonStyle && _isJson(content)) {
      content = modes.jsonStyle === "fenced"
        ? "```json\n" + content + "\n```"
        : `Here is the result you asked for.\n${content}`;
    }
    const thoughts = modes.reasoning ? _thoughts(body as ChatBody) : null;
    if (modes.reasoning === "think") content = `<think>\n${thoughts}\n</think>\n\n${content}`;
    const finishReason = modes.finishReason ?? "stop";
    if (finishReason === "length") content = content.slice(0, Math.ceil(content.length / 2));
    if (modes.nullContent || finishReason === "content_filter") content = null;
    const promptTokens = _promptTokens(body as ChatBody, state.modes.billSchema);
    const completionTokens = ((content ?? "").length + (thoughts?.length ?? 0)) >> 2;
    // Mistral: typed parts, the thinking first (the `reasoning` mode's text goes there).
    const sent: unknown = modes.contentParts && content !== null
      ? [
        ...(thoughts !== null && modes.reasoning !== "think"
          ? [{ type: "thinking", thinking: [{ type: "text", text: thoughts }] }]
          : []),
        { type: "text", text: content },
      ]
      : content;
    return json(
      {
        id: `chatcmpl-${n}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{
          index: 0,
          message: {
            role: "assistant",
            content: sent,
            ...(thoughts !== null && modes.reasoning !== "think" && !modes.contentParts &&
              { [modes.reasoning!]: thoughts }),
          },
          finish_reason: finishReason,
        }],
        ...(!modes.noUsage && {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
          },
        }),
      },
      200,
      limitHeaders,
    );
  }
  state.baseUrl = `http://127.0.0.1:${server.addr.port}/v1`;
  state.close = async () => {
    for (const ac of hangs) ac.abort();
    await server.shutdown();
  };
  return state;
}
