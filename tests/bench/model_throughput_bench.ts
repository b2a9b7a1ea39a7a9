/**
 * Throughput of LLM sweeps against the local fake server with 200 ms latency: 400 trials at
 * concurrency 16 should reach at least 85% of the ideal 80 requests/s. A sequential run on a
 * smaller sweep gives the ratio. `deno bench -A tests/bench/` runs it; `deno run -A` prints it.
 */
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const LATENCY_MS = 200;

/** Run `trials` agent calls (pairs x 2) at a concurrency; return requests per second. */
export async function measure(options: { trials: number; concurrency: number }) {
  const worker = new Worker(new URL("./fake_server_worker.ts", import.meta.url), {
    type: "module",
  });
  const reply = () =>
    new Promise<{ baseUrl: string; requests: number }>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
  const ready = reply();
  worker.postMessage({ start: true, latencyMs: LATENCY_MS });
  const server = { baseUrl: (await ready).baseUrl, requests: 0 };
  const setup = modelSetup({
    cachePath: ":memory:",
    baseUrl: server.baseUrl,
    concurrency: options.concurrency,
    env: { OPENAI_API_KEY: "sk-bench" },
  });
  try {
    const pairsPerTrial = 25;
    const instances = Array.from(
      { length: pairsPerTrial },
      (_, i) =>
        syntheticInstance({ id: `b${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 10 }),
    );
    const started = performance.now();
    const rows = await sweep({
      stage: "writing",
      grid: [1],
      instances,
      dataset: "bench",
      attacks: ["minja"],
      agents: resolveAgents({ specs: ["llm:bench"], factories: { llm: setup.agentFactory } }),
      // Risk always exposed: clean and poisoned prompts differ, so no trial is a cache hit.
      base: { bankSize: 10, thetaR: 1 },
      concurrency: options.concurrency,
      // Distinct trials have distinct cache slots: every trial is a real request.
      trials: Math.ceil(options.trials / (2 * pairsPerTrial)),
    });
    const seconds = (performance.now() - started) / 1000;
    const stopped = reply();
    worker.postMessage({ stop: true });
    server.requests = (await stopped).requests;
    return {
      rows: rows.length,
      requests: server.requests,
      seconds,
      rate: server.requests / seconds,
    };
  } finally {
    setup.close();
    worker.terminate();
  }
}

if (import.meta.main) {
  const concurrent = await measure({ trials: 400, concurrency: 16 });
  const sequential = await measure({ trials: 50, concurrency: 1 });
  const ideal = 16 * 1000 / LATENCY_MS;
  console.log(
    `concurrent: ${concurrent.requests} requests in ${concurrent.seconds.toFixed(2)} s = ` +
      `${concurrent.rate.toFixed(1)} req/s (${
        (100 * concurrent.rate / ideal).toFixed(0)
      }% of ideal ${ideal})`,
  );
  console.log(
    `sequential: ${sequential.requests} requests in ${sequential.seconds.toFixed(2)} s = ` +
      `${sequential.rate.toFixed(1)} req/s; speed-up ${
        (concurrent.rate / sequential.rate).toFixed(1)
      }x`,
  );
  if (concurrent.rate < 0.85 * ideal) Deno.exit(1);
} else {
  Deno.bench("sweep: 400 trials, 200 ms latency, concurrency 16", { n: 1, warmup: 0 }, async () => {
    const r = await measure({ trials: 400, concurrency: 16 });
    if (r.rate < 0.85 * 80) throw new Error(`only ${r.rate.toFixed(1)} req/s (< 68)`);
  });
}
