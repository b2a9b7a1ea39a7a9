/**
 * What an endpoint accepts, found by asking: one minimal request per parameter and reply format
 * (temperature, seed, the two output-limit names, json_object, json_schema, reasoning effort),
 * plus what the plain reply shows (reasoning, usage). `deno task models check` prints it.
 */
import {
  DEFAULT_CAPABILITIES,
  type MaxTokensParam,
  MODEL_CATALOG,
  type ModelCapabilities,
  type ModelEndpoint,
  type ResponseFormatSupport,
} from "./model_catalog.ts";
import { redact } from "./redact.ts";
import { splitReasoning } from "../text/reasoning.ts";

/** How one probe went. */
export interface ProbeResult {
  /**
   * `ok` accepted; `wrapped` accepted, JSON came in a fence or prose (the kit reads it);
   * `ignored` accepted but the reply has no JSON; `refused` HTTP 400/422; `error` anything else.
   */
  status: "ok" | "wrapped" | "ignored" | "refused" | "error";
  /** Short reason (HTTP status and the provider's message, redacted). */
  detail: string;
}

/** What an endpoint accepted. */
export interface EndpointCheck {
  id: string;
  model: string;
  /** Whether the catalog marks the API model name as confirmed; null for uncatalogued ids. */
  modelConfirmed: boolean | null;
  /** The plain request (messages and an output limit only). */
  request: ProbeResult;
  /** Only when `request` succeeded. */
  probes: {
    temperature: ProbeResult;
    seed: ProbeResult;
    max_tokens: ProbeResult;
    max_completion_tokens: ProbeResult;
    json_object: ProbeResult;
    json_schema: ProbeResult;
    /** Null when the endpoint has no reasoning effort to check. */
    reasoning_effort: ProbeResult | null;
  } | null;
  /** Where the plain reply carried reasoning. */
  reasoning: "field" | "think" | "none" | null;
  /** Whether the plain reply reported token usage. */
  usage: boolean | null;
  /** The plain reply's finish reason. */
  stopReason: string | null;
  /** Capabilities to change so every request is accepted (empty when none). */
  changes: Partial<ModelCapabilities>;
}

const PROMPT = "Reply with the single word: ready";
const JSON_PROMPT = 'Reply with the JSON object {"ready": true} and nothing else.';
const SCHEMA = {
  type: "json_schema",
  json_schema: {
    name: "ready",
    strict: true,
    schema: {
      type: "object",
      properties: { ready: { type: "boolean" } },
      required: ["ready"],
      additionalProperties: false,
    },
  },
};

interface _Reply {
  status: number;
  json: Record<string, unknown> | null;
  text: string;
}

function _jsonStatus(answer: string): ProbeResult["status"] {
  try {
    JSON.parse(answer);
    return "ok";
  } catch {
    return /\{[\s\S]*\}/.test(answer) ? "wrapped" : "ignored";
  }
}

/**
 * Probe one endpoint. Requests are sent one after another (a check must not trip a rate limit);
 * the first, plain request decides whether the rest are sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkEndpoint } from "./check_endpoint.ts";
 * import { startFakeOpenAIServer } from "../testing/fake_openai_server.ts";
 * const server = startFakeOpenAIServer({ modes: { reject: ["temperature"] } });
 * try {
 *   const check = await checkEndpoint({ endpoint: { id: "m", model: "m", baseUrl: server.baseUrl, apiKey: "k", seed: true, extra: {} } });
 *   assert.equal(check.probes?.temperature.status, "refused");
 *   assert.deepEqual(check.changes, { temperature: null });
 * } finally { await server.close(); }
 * ```
 */
export async function checkEndpoint(options: {
  /** The endpoint as the sweep would use it (catalog values and overrides applied). */
  endpoint: ModelEndpoint;
  /** Per-request timeout in ms; default 60000. */
  timeoutMs?: number;
}): Promise<EndpointCheck> {
  const e = { ...DEFAULT_CAPABILITIES, ...options.endpoint };
  const secrets = [e.apiKey];
  const url = `${e.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const send = async (body: Record<string, unknown>): Promise<_Reply> => {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${e.apiKey}` },
        body: JSON.stringify({ model: e.model, ...body }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
      const text = await res.text();
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(text);
      } catch { /* reported below */ }
      return { status: res.status, json, text };
    } catch (err) {
      return { status: 0, json: null, text: (err as Error).message };
    }
  };
  const describe = (r: _Reply): ProbeResult => {
    if (r.status === 200 && r.json) return { status: "ok", detail: "" };
    const message = (r.json?.error as { message?: unknown } | undefined)?.message;
    const detail = redact({
      text: `${r.status === 0 ? "no answer" : `HTTP ${r.status}`}: ${
        typeof message === "string" ? message : r.text
      }`.slice(0, 160),
      secrets,
    });
    return { status: r.status === 400 || r.status === 422 ? "refused" : "error", detail };
  };
  const message = (r: _Reply) =>
    ((r.json?.choices as { message?: Record<string, unknown> }[] | undefined)?.[0]?.message) ??
      {};
  const limit = (param: MaxTokensParam) => ({ [param]: e.maxTokens });
  const plain = { messages: [{ role: "user", content: PROMPT }] };

  const entry = MODEL_CATALOG.find((m) => m.id === e.id);
  const result: EndpointCheck = {
    id: e.id,
    model: e.model,
    modelConfirmed: entry?.modelConfirmed ?? null,
    request: { status: "error", detail: "" },
    probes: null,
    reasoning: null,
    usage: null,
    stopReason: null,
    changes: {},
  };
  // The plain request; if its limit name is refused, the other name is the plain request.
  const other: MaxTokensParam = e.maxTokensParam === "max_tokens"
    ? "max_completion_tokens"
    : "max_tokens";
  let param = e.maxTokensParam;
  let base = await send({ ...plain, ...limit(param) });
  const first = describe(base);
  let otherProbe: ProbeResult | undefined;
  if (first.status === "refused") {
    const retry = await send({ ...plain, ...limit(other) });
    otherProbe = describe(retry);
    if (otherProbe.status === "ok") (base = retry, param = other);
  }
  result.request = describe(base);
  if (result.request.status !== "ok") return result;

  const m = message(base);
  const content = typeof m.content === "string" ? m.content : "";
  result.reasoning = typeof m.reasoning_content === "string" || typeof m.reasoning === "string"
    ? "field"
    : splitReasoning(content).reasoning !== null
    ? "think"
    : "none";
  const usage = base.json?.usage as { prompt_tokens?: unknown } | undefined;
  result.usage = typeof usage?.prompt_tokens === "number";
  result.stopReason =
    ((base.json?.choices as { finish_reason?: string }[] | undefined)?.[0]?.finish_reason) ??
      null;

  const withLimit = (body: Record<string, unknown>) => send({ ...body, ...limit(param) });
  const format = async (responseFormat: Record<string, unknown>): Promise<ProbeResult> => {
    const r = await withLimit({
      messages: [{ role: "user", content: JSON_PROMPT }],
      response_format: responseFormat,
    });
    const d = describe(r);
    if (d.status !== "ok") return d;
    const answer = splitReasoning(String(message(r).content ?? "")).answer;
    const status = _jsonStatus(answer);
    return { status, detail: status === "ok" ? "" : JSON.stringify(answer.slice(0, 60)) };
  };
  const limits = {
    [e.maxTokensParam]: first,
    [other]: otherProbe ?? describe(await send({ ...plain, ...limit(other) })),
  } as Record<MaxTokensParam, ProbeResult>;
  result.probes = {
    temperature: describe(await withLimit({ ...plain, temperature: e.temperature ?? 0 })),
    seed: describe(await withLimit({ ...plain, seed: 0 })),
    max_tokens: limits.max_tokens,
    max_completion_tokens: limits.max_completion_tokens,
    json_object: await format({ type: "json_object" }),
    json_schema: await format(SCHEMA),
    reasoning_effort: e.reasoningEffort === null
      ? null
      : describe(await withLimit({ ...plain, reasoning_effort: e.reasoningEffort })),
  };
  result.changes = _changes(e, param, result.probes);
  return result;
}

function _usable(p: ProbeResult): boolean {
  return p.status === "ok" || p.status === "wrapped";
}

function _changes(
  e: ModelCapabilities,
  param: MaxTokensParam,
  probes: NonNullable<EndpointCheck["probes"]>,
): Partial<ModelCapabilities> {
  const changes: Partial<ModelCapabilities> = {};
  if (param !== e.maxTokensParam) changes.maxTokensParam = param;
  if (probes.temperature.status === "refused" && e.temperature !== null) {
    changes.temperature = null;
  }
  if (probes.seed.status === "refused" && e.seed) changes.seed = false;
  const format: ResponseFormatSupport = _usable(probes.json_schema)
    ? "json_schema"
    : _usable(probes.json_object)
    ? "json_object"
    : "none";
  if (format !== e.responseFormat) changes.responseFormat = format;
  if (probes.reasoning_effort?.status === "refused") changes.reasoningEffort = null;
  return changes;
}
