/** Build the model-backed parts of a sweep (agents, ranker, writer, judge) over shared clients. */
import type { Agent } from "../agents/agent.ts";
import { llmAgent } from "../agents/llm_agent.ts";
import { agentevalsJudge } from "../judges/agentevals_judge.ts";
import { deterministicJudge } from "../judges/deterministic_judge.ts";
import type { Judge } from "../judges/judge.ts";
import { resolveModelEndpoint } from "../models/model_catalog.ts";
import {
  type CacheMiss,
  type ChatResult,
  type ClientStats,
  ModelClient,
} from "../models/model_client.ts";
import { RequestLimiter } from "../models/request_limiter.ts";
import { ResponseCache } from "../models/response_cache.ts";
import type { Ranker } from "../stages/writing/ranker.ts";
import { llmRanker } from "../stages/writing/rankers/llm.ts";
import type { Writer } from "../stages/writing/writer.ts";
import { llmWriter } from "../stages/writing/writers/llm.ts";
import { verbatimWriter } from "../stages/writing/writers/verbatim.ts";

/** Model-backed sweep parts; `close()` releases the cache. */
export interface ModelSetup {
  /** Client per model id (created on first use; a key is read only then). */
  client(id: string): ModelClient;
  agentFactory: (name: string) => Agent;
  rankerFactory: (id: string, agent: Agent | undefined) => Ranker | undefined;
  judge: Judge;
  writer: Writer;
  /** Summed counters of every client. */
  stats(): ClientStats;
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
}): ModelSetup {
  let cache: ResponseCache | undefined;
  const limiter = new RequestLimiter({ concurrency: options.concurrency ?? 8 });
  const clients = new Map<string, ModelClient>();
  const client = (id: string) => {
    let c = clients.get(id);
    if (!c) {
      cache ??= new ResponseCache({ path: options.cachePath ?? ".memgauge/cache.sqlite" });
      c = new ModelClient({
        endpoint: resolveModelEndpoint({ id, baseUrl: options.baseUrl, env: options.env }),
        cache,
        limiter,
        maxRetries: options.maxRetries,
        timeoutMs: options.timeoutMs,
        retryBaseMs: options.retryBaseMs,
        onMiss: options.onMiss,
      });
      clients.set(id, c);
    }
    return c;
  };
  const judgeSpec = options.judge ?? "deterministic";
  const writerSpec = options.writer ?? "verbatim";
  return {
    client,
    agentFactory: (name) => llmAgent({ client: client(name) }),
    rankerFactory(id, agent) {
      if (id === "llm:self") {
        const self = agent as (Agent & { client?: ModelClient }) | undefined;
        if (!self?.client) {
          throw new RangeError(
            `--ranker llm:self: agent ${JSON.stringify(agent?.id)} is not a model agent`,
          );
        }
        return llmRanker({ client: self.client });
      }
      return id.startsWith("llm:") ? llmRanker({ client: client(id.slice(4)) }) : undefined;
    },
    judge: judgeSpec === "deterministic"
      ? deterministicJudge
      : agentevalsJudge({ client: client(judgeSpec.slice(4)) }),
    writer: writerSpec === "verbatim"
      ? verbatimWriter
      : llmWriter({ client: client(writerSpec.slice(4)) }),
    stats() {
      const total: ClientStats = { requests: 0, cacheHits: 0, retries: 0, errors: 0 };
      for (const c of clients.values()) {
        for (const k of Object.keys(total) as (keyof ClientStats)[]) total[k] += c.stats[k];
      }
      return total;
    },
    close: () => cache?.close(),
  };
}
