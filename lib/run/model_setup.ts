/** Build the model-backed parts of a sweep (agents, ranker, writer, judge) over shared clients. */
import type { Agent } from "../agents/agent.ts";
import { llmAgent } from "../agents/llm_agent.ts";
import { resolveAgents } from "../agents/resolve_agents.ts";
import { agentevalsJudge } from "../judges/agentevals_judge.ts";
import { deterministicJudge } from "../judges/deterministic_judge.ts";
import type { Judge } from "../judges/judge.ts";
import { resolveModelEndpoint } from "../models/model_catalog.ts";
import {
  type CacheMiss,
  type ChatResult,
  type ClientStats,
  ModelCallError,
  ModelClient,
} from "../models/model_client.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { ResponseCache } from "../models/response_cache.ts";
import type { Ranker } from "../stages/writing/ranker.ts";
import { llmRanker } from "../stages/writing/rankers/llm.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { llmWriter } from "../stages/writing/writers/llm.ts";
import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";

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
   * Summed counters of every client, plus `rejected`: judge, ranker and writer calls whose reply
   * arrived but was rejected as invalid (a failed call the clients do not see).
   */
  stats(): ClientStats & { rejected: number };
  close(): void;
}

/**
 * Set up clients over one response cache and one request limiter. Nothing touches the network
 * or reads a key until a model is actually used.
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
  /** Base URL for every model; default each catalog entry's. */
  baseUrl?: string;
  /** Requests in flight across all models; default 8. */
  concurrency?: number;
  /** Retries per call; default 4. */
  maxRetries?: number;
  /** Per-request timeout in ms; default 60000. */
  timeoutMs?: number;
  /** First back-off delay in ms; default 500. */
  retryBaseMs?: number;
  /** `deterministic` or `llm:MODEL`; default deterministic. */
  judge?: string;
  /** `verbatim` or `llm:MODEL`; default verbatim. */
  writer?: string;
  /** Environment holding keys; default the process environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Answers cache misses instead of the endpoint (batch export); default none. */
  onMiss?: (miss: CacheMiss) => Promise<ChatResult>;
  /** Sees every completed chat call, cache hits included (the dry-run plan); default none. */
  observe?: (call: ObservedCall) => void;
}): ModelSetup {
  let cache: ResponseCache | undefined;
  let rejected = 0;
  const counting = <T extends object>(target: T, method: keyof T): T =>
    _rejections(target, method, () => rejected++);
  const limiter = new RequestLimiter({ concurrency: options.concurrency ?? 8 });
  const clients = new Map<string, ModelClient>();
  const client = (id: string) => {
    let c = clients.get(id);
    if (!c) {
      // An unknown model fails before the cache file is created.
      const endpoint = resolveModelEndpoint({ id, baseUrl: options.baseUrl, env: options.env });
      cache ??= new ResponseCache({ path: options.cachePath ?? ".memgauge/cache.sqlite" });
      c = new ModelClient({
        endpoint,
        cache,
        limiter,
        maxRetries: options.maxRetries,
        timeoutMs: options.timeoutMs,
        retryBaseMs: options.retryBaseMs,
        onMiss: options.onMiss,
      });
      if (options.observe) _observed(c, id, options.observe);
      clients.set(id, c);
    }
    return c;
  };
  const judgeSpec = options.judge ?? "deterministic";
  const writerSpec = options.writer ?? "verbatim";
  const agentFactory = (name: string) => llmAgent({ client: client(name) });
  return {
    client,
    agentFactory,
    agents: (specs) => resolveAgents({ specs, factories: { llm: agentFactory } }),
    rankerFactory(id, agent) {
      if (id === "llm:self") {
        const self = agent as (Agent & { client?: ModelClient }) | undefined;
        if (!self?.client) {
          throw new RangeError(
            `--ranker llm:self: agent ${JSON.stringify(agent?.id)} is not a model agent`,
          );
        }
        return counting(llmRanker({ client: self.client }), "rank");
      }
      return id.startsWith("llm:")
        ? counting(llmRanker({ client: client(id.slice(4)) }), "rank")
        : undefined;
    },
    judge: judgeSpec === "deterministic"
      ? deterministicJudge
      : counting(agentevalsJudge({ client: client(judgeSpec.slice(4)) }), "judge"),
    writer: writerSpec === "verbatim"
      ? verbatimWriter
      : counting(llmWriter({ client: client(writerSpec.slice(4)) }), "write"),
    stats() {
      const total: ClientStats = { requests: 0, cacheHits: 0, retries: 0, errors: 0 };
      for (const c of clients.values()) {
        for (const k of Object.keys(total) as (keyof ClientStats)[]) total[k] += c.stats[k];
      }
      return { ...total, rejected };
    },
    close: () => cache?.close(),
  };
}

/**
 * The same object, but a rejection of `method` that is not a failed call (the clients count
 * those) is counted: a reply that arrived and was rejected as invalid.
 */
function _rejections<T extends object>(target: T, method: keyof T, count: () => void): T {
  return new Proxy(target, {
    get(t, property, receiver) {
      const value = Reflect.get(t, property, receiver);
      if (property !== method || typeof value !== "function") return value;
      return (...args: unknown[]) =>
        (value.apply(t, args) as Promise<unknown>).catch((e: unknown) => {
          if (!(e instanceof ModelCallError)) count();
          throw e;
        });
    },
  });
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
