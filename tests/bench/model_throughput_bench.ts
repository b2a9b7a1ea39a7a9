/**
 * Throughput of LLM sweeps against the local fake server with 200 ms latency: 400 trials at
 * concurrency 16, side by side without faults and with 5% 429 (Retry-After 1 s) plus 5% 500.
 * Targets: at least 90% of the ideal 80 requests/s without faults, 75% with them. The rate is
 * HTTP requests answered by the server per second of sweep wall time (faulted answers included,
 * as the audit measured it); the rate of successful calls is printed beside it. One untimed
 * warm-up sweep (no latency) runs first, so the first timed run does not pay the JIT's start-up.
 * `deno run -A tests/bench/model_throughput_bench.ts` prints the table; `deno bench -A` runs it.
 */
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import type { WorkerStart } from "./fake_server_worker.ts";

const LATENCY_MS = 200;
const CONCURRENCY = 16;
const IDEAL = CONCURRENCY * 1000 / LATENCY_MS;

/** A bench scenario: fault shares of the server. */
export interface Scenario {
  name: string;
  rate429: number;
  rate500: number;
}

/** The two scenarios of the issue. */
export const SCENARIOS: readonly Scenario[] = [
  { name: "no faults", rate429: 0, rate500: 0 },
  { name: "5% 429 + 5% 500", rate429: 0.05, rate500: 0.05 },
];

/** Run `trials` agent calls (pairs x 2) at a concurrency; return rates. */
export async function measure(options: {
  trials: number;
  concurrency: number;
  scenario: Scenario;
  /** Server latency in ms; default 200. */
  latencyMs?: number;
}) {
  const worker = new Worker(new URL("./fake_server_worker.ts", import.meta.url), {
    type: "module",
  });
  const reply = () =>
    new Promise<{ baseUrl: string; requests: number }>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
  const ready = reply();
  const start: WorkerStart = {
    start: true,
    latencyMs: options.latencyMs ?? LATENCY_MS,
    rate429: options.scenario.rate429,
    rate500: options.scenario.rate500,
    retryAfterSeconds: 1,
  };
  worker.postMessage(start);
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
      // Risk always exposed: clean and poisoned prompts differ, so no trial is a cache hit. The
      // offline ranker: every request is an agent call (the default for llm: agents is llm:self).
      base: { bankSize: 10, thetaR: 1, ranker: "usefulness" },
      // The deterministic judge: every request is an agent call (the default for llm: agents
      // is the LLM judge, one more request per row).
      judge: deterministicJudge,
      concurrency: options.concurrency,
      // Distinct trials have distinct cache slots: every trial is a real request.
      trials: Math.ceil(options.trials / (2 * pairsPerTrial)),
    });
    const seconds = (performance.now() - started) / 1000;
    const stopped = reply();
    worker.postMessage({ stop: true });
    server.requests = (await stopped).requests;
    const ok = rows.filter((r) => r.error === null).length;
    return {
      rows: rows.length,
      errorRows: rows.length - ok,
      requests: server.requests,
      seconds,
      rate: server.requests / seconds,
      okRate: ok / seconds,
    };
  } finally {
    setup.close();
    worker.terminate();
  }
}

/** Targets as shares of the ideal, per scenario. */
const TARGET: Record<string, number> = { "no faults": 0.9, "5% 429 + 5% 500": 0.75 };

/** An untimed sweep through the same code paths, so timed runs measure steady state. */
export async function warmUp(): Promise<void> {
  await measure({ trials: 100, concurrency: CONCURRENCY, scenario: SCENARIOS[0], latencyMs: 0 });
}

if (import.meta.main) {
  await warmUp();
  const lines = [
    "scenario           requests  seconds  req/s  % of ideal  ok calls/s  error rows  target",
  ];
  let failed = false;
  for (const scenario of SCENARIOS) {
    const r = await measure({ trials: 400, concurrency: CONCURRENCY, scenario });
    const share = r.rate / IDEAL;
    failed ||= share < TARGET[scenario.name];
    lines.push(
      `${scenario.name.padEnd(18)} ${String(r.requests).padStart(8)} ${
        r.seconds.toFixed(2).padStart(8)
      } ${r.rate.toFixed(1).padStart(6)} ${(100 * share).toFixed(0).padStart(10)}% ${
        r.okRate.toFixed(1).padStart(11)
      } ${String(r.errorRows).padStart(11)}  ${(100 * TARGET[scenario.name]).toFixed(0)}%`,
    );
  }
  console.log(`ideal: ${IDEAL} req/s (concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency)`);
  console.log(lines.join("\n"));
  if (failed) Deno.exit(1);
} else {
  for (const scenario of SCENARIOS) {
    Deno.bench(`sweep: 400 trials, 200 ms, concurrency 16, ${scenario.name}`, {
      n: 1,
      warmup: 0,
    }, async (b) => {
      await warmUp();
      b.start();
      const r = await measure({ trials: 400, concurrency: CONCURRENCY, scenario });
      b.end();
      const floor = TARGET[scenario.name] * IDEAL;
      if (r.rate < floor) throw new Error(`only ${r.rate.toFixed(1)} req/s (< ${floor})`);
    });
  }
}
