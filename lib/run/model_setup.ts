/** Build the model-backed parts of a sweep (agents, ranker, writer, judge) over shared clients. */
import type { Agent } from "../agents/agent.ts";
import { llmAgent } from "../agents/llm_agent.ts";
import { resolveAgents } from "../agents/resolve_agents.ts";
import { JUDGES } from "../judges/judges.ts";
import type { Judge } from "../judges/judge.ts";
import { llmJudge } from "../judges/llm_judge.ts";
import { selfJudge } from "../judges/self_judge.ts";
import type { JudgeScope, MemoryPlacement } from "../schema/trial_row.ts";
import { resolveModelEndpoint } from "../models/model_catalog.ts";
import { parseModelOptions } from "../models/model_options.ts";
import { FieldError } from "../schema/field_error.ts";
import {
  type CacheMiss,
  type ChatResult,
  type ClientStats,
  ModelClient,
} from "../models/model_client.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { SpendCap } from "../models/spend_cap.ts";
import { ResponseCache } from "../models/response_cache.ts";
import type { Ranker } from "../stages/writing/ranker.ts";
import { llmRanker } from "../stages/writing/rankers/llm.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { llmWriter } from "../stages/writing/writers/llm.ts";
import { WRITERS } from "../stages/writing/writers.ts";

/** A completed chat call, as `observe` sees it (cache hits included). */
export interface ObservedCall {
  /** The model id the client was made for (catalog id, or the name given with `--base-url`). */
  id: string;
  /** The request's cache key. */
  key: string;
  /** The exact body the request sends (with `model`). */
  body: Record<string, unknown>;
  result: ChatResult;
}

/** Model-backed sweep parts; `close()` releases the cache. */
export interface ModelSetup {
  /** Client per model id (created on first use; a key is read only then). */
  client(id: string): ModelClient;
  agentFactory: (name: string) => Agent;
  /**
   * Agents from `--agent`-style specs: `reference`, `reference:PERSONA` (the offline simulator)
   * or `llm:MODEL` over this setup's clients (the same resolution the sweep CLI uses).
   */
  agents(specs: readonly string[]): Agent[];
  rankerFactory: (id: string, agent: Agent | undefined) => Ranker | undefined;
  judge: Judge;
  writer: Writer;
  /**
   * Summed counters of every client; `rejected` counts judge, ranker and writer replies that
   * arrived but failed validation (not cached, asked again by a rerun).
   */
  stats(): ClientStats & { rejected: number };
  /** The `--max-cost` cap and what was spent under it; undefined without a cap. */
  spend?: SpendCap;
  close(): void;
}

/**
 * Set up clients over one response cache, with one adaptive request limiter per endpoint (base
 * URL and model): a 429 slows only the endpoint that sent it. Nothing touches the network, reads
 * a key or creates the cache file until a model is actually used.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelSetup } from "./model_setup.ts";
 * const setup = modelSetup({ cachePath: ":memory:" });
 * assert.equal(setup.judge.id, "deterministic");
 * assert.equal(setup.writer.id, "verbatim");
 * assert.equal(setup.agents(["reference:careful"])[0].simulated, true);
 * setup.close();
 * ```
 */
export function modelSetup(options: {
  /** SQLite cache path; default `.memgauge/cache.sqlite`. */
  cachePath?: string;
  /** An open response cache to use instead of `cachePath` (not closed by `close()`); default none. */
  cache?: ResponseCache;
  /**
   * Base URL for every model, or several separated by commas (replicas serving every model);
   * default each catalog entry's.
   */
  baseUrl?: string;
  /** Most requests in flight per endpoint (the limiter adapts below it); default 8. */
  concurrency?: number;
  /** `--model-option ID.key=value` flags; default none. */
  modelOptions?: readonly string[];
  /** With `baseUrl`: the variable holding the key; default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
  /** Longest total wait on 429s per call, in ms; default 600000. */
  rateLimitWaitMs?: number;
  /** Retries per call; default 4. */
  maxRetries?: number;
  /** Per-request timeout in ms; default 60000. */
  timeoutMs?: number;
  /** First back-off delay in ms; default 500. */
  retryBaseMs?: number;
  /**
   * `deterministic`, `llm:self` (each model agent's own model) or `llm:MODEL`; default
   * deterministic. The default for a run's agents is `defaultRoles`' (every command asks it).
   */
  judge?: string;
  /** What an LLM judge reads; default `answer` (memory-blind). */
  judgeScope?: JudgeScope;
  /** Where llm: agents see the retrieved records; default `system`. */
  memoryPlacement?: MemoryPlacement;
  /** `verbatim` or `llm:MODEL`; default verbatim. */
  writer?: string;
  /** Environment holding keys; default the process environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Answers cache misses instead of the endpoint (batch export); default none. */
  onMiss?: (miss: CacheMiss) => Promise<ChatResult>;
  /** Sees every completed chat call, cache hits included (the dry-run plan); default none. */
  observe?: (call: ObservedCall) => void;
  /**
   * `--max-cost`: a cap in USD on the estimated spend of every client of this setup; a request
   * that would cross it is not sent and the run stops (`SpendCapReached`). Default none.
   */
  maxCostUsd?: number;
  /** Which cache misses may be sent (`ModelClientOptions.sendOnly`); default every one. */
  sendOnly?: (body: Record<string, unknown>) => boolean;
}): ModelSetup {
  let cache: ResponseCache | undefined;
  const overrides = parseModelOptions({
    specs: options.modelOptions ?? [],
    baseUrl: options.baseUrl !== undefined,
  });
  if (options.apiKeyEnv !== undefined && options.baseUrl === undefined) {
    throw new FieldError({
      field: "apiKeyEnv",
      value: options.apiKeyEnv,
      detail: "applies with a base URL only (catalog models read the variable named in " +
        "data/models.json)",
    });
  }
  const concurrency = options.concurrency ?? 8;
  new RequestLimiter({ concurrency }); // validates concurrency before any model is used
  const spend = options.maxCostUsd === undefined
    ? undefined
    : new SpendCap({ usd: options.maxCostUsd });
  const limiters = new Map<string, RequestLimiter>();
  const clients = new Map<string, ModelClient>();
  const client = (id: string) => {
    let c = clients.get(id);
    if (!c) {
      // An unknown model fails before the cache file is created.
      const endpoint = resolveModelEndpoint({
        id,
        baseUrl: options.baseUrl,
        apiKeyEnv: options.apiKeyEnv,
        env: options.env,
        overrides: overrides.get(id),
      });
      // One limiter per endpoint (base URL and model), shared by every client that uses it.
      const limiterFor = (url: string) => {
        const where = `${url.replace(/\/+$/, "")} ${endpoint.model}`;
        let limiter = limiters.get(where);
        if (!limiter) limiters.set(where, limiter = new RequestLimiter({ concurrency }));
        return limiter;
      };
      cache ??= options.cache ??
        new ResponseCache({ path: options.cachePath ?? ".memgauge/cache.sqlite" });
      c = new ModelClient({
        endpoint,
        cache,
        limiter: limiterFor(endpoint.baseUrl),
        limiterFor,
        maxRetries: options.maxRetries,
        timeoutMs: options.timeoutMs,
        retryBaseMs: options.retryBaseMs,
        rateLimitWaitMs: options.rateLimitWaitMs,
        onMiss: options.onMiss,
        spend,
        sendOnly: options.sendOnly,
      });
      if (options.observe) _observed(c, id, options.observe);
      clients.set(id, c);
    }
    return c;
  };
  const judgeSpec = options.judge ?? "deterministic";
  const writerSpec = options.writer ?? "verbatim";
  const agentFactory = (name: string) =>
    llmAgent({ client: client(name), memoryPlacement: options.memoryPlacement });
  const scope = options.judgeScope ?? "answer";
  return {
    client,
    agentFactory,
    agents: (specs) => resolveAgents({ specs, factories: { llm: agentFactory } }),
    rankerFactory(id, agent) {
      if (id === "llm:self") {
        const self = agent as (Agent & { client?: ModelClient }) | undefined;
        if (!self?.client) {
          throw new FieldError({
            field: "ranker",
            value: "llm:self",
            detail: `agent ${JSON.stringify(agent?.id)} is not a model agent`,
          });
        }
        return llmRanker({ client: self.client });
      }
      return id.startsWith("llm:") ? llmRanker({ client: client(id.slice(4)) }) : undefined;
    },
    judge: JUDGES.get(judgeSpec) ??
      (judgeSpec === "llm:self"
        ? selfJudge({ scope })
        : llmJudge({ client: client(judgeSpec.slice(4)), scope })),
    writer: WRITERS.get(writerSpec) ?? llmWriter({ client: client(writerSpec.slice(4)) }),
    stats() {
      const total: ClientStats = {
        requests: 0,
        cacheHits: 0,
        retries: 0,
        errors: 0,
        rateLimited: 0,
        rejected: 0,
      };
      for (const c of clients.values()) {
        for (const k of Object.keys(total) as (keyof ClientStats)[]) total[k] += c.stats[k];
      }
      return total;
    },
    spend,
    close: () => {
      if (cache !== options.cache) cache?.close();
      else cache?.flush();
    },
  };
}

/** Report every completed call of `client` to `observe`. */
function _observed(client: ModelClient, id: string, observe: (call: ObservedCall) => void): void {
  const chat = client.chat.bind(client);
  client.chat = (request) => {
    const key = client.key(request);
    const body = { model: client.endpoint.model, ...client.body(request) };
    return chat(request).then((result) => {
      observe({ id, key, body, result });
      return result;
    });
  };
}
