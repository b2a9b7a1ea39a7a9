/** Shared set-up for the systems tests: the pipeline-check stand-ins and tiny demo sweeps. */
import { loadDataset } from "../../lib/data/datasets.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { referenceAgent } from "../../lib/agents/reference_agent.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import { ResponseCache } from "../../lib/models/response_cache.ts";
import {
  measureSystem,
  type MeasureSystemOptions,
  type SystemRow,
} from "../../lib/systems/measure.ts";
import type { MemorySystem } from "../../lib/systems/memory_system.ts";
import { type PipelineCheck, startPipelineCheck } from "../../lib/systems/pipeline_check.ts";
import { systemSetup } from "../../lib/systems/system_setup.ts";

/** The first `n` demo instances with a bank of `bankSize`. */
export async function demoInstances(n: number, bankSize = 20): Promise<Instance[]> {
  return (await loadDataset({ name: "demo", seed: 0, bankSize, traceLoad: 1 })).slice(0, n);
}

/** A system over the pipeline-check stand-ins, with a given cache. */
export function checkSystem(
  name: string,
  check: PipelineCheck,
  cache?: ResponseCache,
): MemorySystem {
  return systemSetup({
    name,
    chatModel: "pipeline-check",
    baseUrl: check.baseUrl,
    embeddingModel: "pipeline-check-embed",
    env: { OPENAI_API_KEY: "test-key" },
    hindsightUrl: check.hindsightUrl,
    hindsightPollMs: 1,
    cache,
    retryBaseMs: 10,
  });
}

/** Run a pipeline check of one system on fresh stand-ins (or the given ones) and a cache. */
export async function pipelineRun(options: {
  name: string;
  instances: Instance[];
  cache?: ResponseCache;
  check?: PipelineCheck;
  ks?: number[];
  extra?: Partial<MeasureSystemOptions>;
}): Promise<
  { rows: SystemRow[]; requests: number; hindsightRequests: number; system: MemorySystem }
> {
  const check = options.check ?? await startPipelineCheck({});
  const cache = options.cache ?? new ResponseCache({ path: ":memory:" });
  const before = { requests: check.requests(), hindsight: check.hindsightRequests() };
  try {
    const system = checkSystem(options.name, check, cache);
    const rows = await measureSystem({
      system,
      instances: options.instances,
      ks: options.ks ?? [1, 3, 5, 7],
      agent: referenceAgent({ persona: "balanced" }),
      judge: deterministicJudge,
      runId: `test-${options.name}`,
      dataset: "demo",
      pipelineCheck: true,
      concurrency: 4,
      ...options.extra,
    });
    return {
      rows,
      requests: check.requests() - before.requests,
      hindsightRequests: check.hindsightRequests() - before.hindsight,
      system,
    };
  } finally {
    if (!options.check) await check.close();
    if (!options.cache) cache.close();
  }
}
