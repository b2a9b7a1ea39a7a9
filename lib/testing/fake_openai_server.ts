/**
 * A local OpenAI-compatible server for tests: chat completions and embeddings on 127.0.0.1 at an
 * ephemeral port. It can add latency, answer 429 with Retry-After, answer 500, hang past a
 * timeout or return malformed JSON; its answers are scripted.
 */

/** A fault to inject into one response. */
export type Fault = "429" | "500" | "hang" | "malformed";

/** What the fake model answers to a chat request body. */
export type Reply = (body: ChatBody) => string;

/** The parts of a chat request the fake reads. */
export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name?: string } };
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
  close(): Promise<void>;
}

/**
 * The default answer: the value that most records in the last user message assert, where a
 * record asserts X by saying "the value is X"; ties go to the later record. No assertion:
 * "I don't know.". Structured requests get a schema-shaped JSON reply (see `scriptedJson`).
 */
export function majorityReply(body: ChatBody): string {
  if (body.response_format?.type === "json_schema") return scriptedJson(body);
  const user = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  const counts = new Map<string, number>();
  for (const m of user.matchAll(/the value is ([^.\n]+)/gi)) {
    counts.set(m[1].trim(), (counts.get(m[1].trim()) ?? 0) + 1);
    counts.set(m[1].trim(), counts.get(m[1].trim())! + 1e-6 * m.index!); // later wins ties
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? `The value is ${best[0]}.` : "I don't know.";
}

/**
 * JSON replies for structured requests: a judge (`score`) says true when the reference text
 * occurs in the trajectory; a ranker (`ranking`) returns the unit ids in the order listed.
 */
export function scriptedJson(body: ChatBody): string {
  const text = body.messages.map((m) => m.content).join("\n");
  const name = body.response_format?.json_schema?.name;
  if (name === "ranking") {
    const ids = [...text.matchAll(/^\s*\[id=([^\]]+)\]/gm)].map((m) => m[1]);
    return JSON.stringify({ ranking: ids });
  }
  const reference = /<reference_trajectory>([\s\S]*?)<\/reference_trajectory>/.exec(text)?.[1]
    .match(/answer is:?\s*([^\n]+?)\s*$/m)?.[1] ?? "";
  const whole = /<trajectory>([\s\S]*?)<\/trajectory>/.exec(text)?.[1] ?? "";
  // Only the final answer counts: the records in the user turn state both answers.
  const trajectory = whole.slice(whole.lastIndexOf("<assistant>"));
  const score = reference !== "" && trajectory.toLowerCase().includes(reference.toLowerCase());
  return JSON.stringify({ reasoning: "scripted", score });
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

/**
 * Start a fake server; close it in a `finally`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startFakeOpenAIServer } from "./fake_openai_server.ts";
 * const server = startFakeOpenAIServer({});
 * try { assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/); } finally { await server.close(); }
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
}): FakeServer {
  const reply = options.reply ?? majorityReply;
  const hangs = new Set<AbortController>();
  const state: FakeServer = {
    baseUrl: "",
    requests: 0,
    authorizations: new Set(),
    faults: [...(options.faults ?? [])],
    close: async () => {},
  };
  const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(value), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const n = state.requests++;
    state.authorizations.add(req.headers.get("authorization") ?? "");
    const body = await req.json().catch(() => ({}));
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    const fault = state.faults.shift() ?? options.faultFor?.(n, body) ?? null;
    if (fault === "429") {
      return json({ error: { message: "rate limited", type: "rate_limit" } }, 429, {
        "retry-after": String(options.retryAfterSeconds ?? 0.05),
      });
    }
    if (fault === "500") return json({ error: { message: "boom", type: "server_error" } }, 500);
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
    const content = reply(body as ChatBody);
    const promptTokens = JSON.stringify(body.messages ?? []).length >> 2;
    return json({
      id: `chatcmpl-${n}`,
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: content.length >> 2,
        total_tokens: promptTokens + (content.length >> 2),
      },
    });
  });
  state.baseUrl = `http://127.0.0.1:${server.addr.port}/v1`;
  state.close = async () => {
    for (const ac of hangs) ac.abort();
    await server.shutdown();
  };
  return state;
}
