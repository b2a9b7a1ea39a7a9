/**
 * Throughput of LLM sweeps against a local provider at 200 ms latency, side by side with the
 * simplest client that does the same job (a plain `fetch` loop asking, for each row, the agent
 * and then the judge, with the same number of requests in flight), at concurrency 8, 16 and 32, without faults and with 5% 429 (Retry-After 1 s)
 * plus 5% 500. The sweep asks the agent and the LLM judge (`llm:self`) of every row, so a judge
 * request waits for its answer, as in a real run. The rate is HTTP requests the server answered
 * per second of wall time (faulted answers included); the ideal is concurrency / latency. The
 * server runs in its own process, so each client's CPU time per request is its own. Then a
 * fully cached replay of the last sweep: CPU time per row with zero requests.
 *
 * Targets (issue 21): the kit at >= 95% of the plain client without faults, >= 85% of the ideal
 * with faults, a cached replay at <= 0.5 ms CPU per row. Run
 * `deno run -A tests/bench/model_throughput_bench.ts` for the table (exit 1 when a target is
 * missed; the machine is shared, so read the ratios, measured side by side in one run).
 */
import process from "node:process";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import type { ServerSettings } from "./model_throughput_server.ts";

const LATENCY_MS = 200;
const CONCURRENCIES = [8, 16, 32] as const;
/** Ideal seconds of each measurement: requests = concurrency * SECONDS * 1000 / latency. */
const SECONDS = 10;
/**
 * Ideal seconds with faults: longer, because the last requests to meet a fault (a 429's 1 s
 * Retry-After, then maybe a 500's back-off) make a tail of 2-3 s whatever the client does.
 */
const SECONDS_FAULTS = 30;

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

/** One measurement. */
export interface Measured {
  requests: number;
  seconds: number;
  /** Server requests per second of wall time. */
  rate: number;
  /** Client CPU milliseconds per server request. */
  cpuMsPerRequest: number;
  /** Error rows (kit) or failed requests (plain). */
  errors: number;
  /** Requests in flight, sampled every 10 ms from the first request to the last answer. */
  meanInFlight: number;
  /** The same over the middle 80% of the samples (the start and the tail left out). */
  midInFlight: number;
}

/** Samples a count every 10 ms; `mean()` over the samples since the first non-zero one. */
function _sampler(count: () => number) {
  const samples: number[] = [];
  const timer = setInterval(() => {
    const n = count();
    if (n > 0 || samples.length > 0) samples.push(n);
  }, 10);
  return {
    mean(): number {
      clearInterval(timer);
      // The tail after the last answer is not in flight time.
      while (samples.length > 0 && samples.at(-1) === 0) samples.pop();
      return samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
    },
    /** Mean per second, for a look at the timeline. */
    perSecond(): number[] {
      const out: number[] = [];
      for (let i = 0; i < samples.length; i += 100) {
        const chunk = samples.slice(i, i + 100);
        out.push(Math.round(10 * chunk.reduce((a, b) => a + b, 0) / chunk.length) / 10);
      }
      return out;
    },
    /** The mean over the middle 80% of the samples (call after `mean`). */
    mid(): number {
      const cut = Math.floor(samples.length / 10);
      const mid = samples.slice(cut, samples.length - cut);
      return mid.reduce((a, b) => a + b, 0) / Math.max(1, mid.length);
    },
  };
}

async function _server(settings: ServerSettings) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./model_throughput_server.ts", import.meta.url).pathname,
      JSON.stringify(settings),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const line = async () => {
    while (!buffer.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("bench server ended early");
      buffer += value;
    }
    const at = buffer.indexOf("\n");
    const text = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    return text;
  };
  const baseUrl = await line();
  return {
    baseUrl,
    /** Stop the server; the number of requests it answered. */
    async stop(): Promise<number> {
      await child.stdin.close();
      const n = Number(await line());
      await child.status;
      return n;
    },
  };
}

const _cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function _settings(scenario: Scenario): ServerSettings {
  return {
    latencyMs: LATENCY_MS,
    rate429: scenario.rate429,
    rate500: scenario.rate500,
    retryAfterSeconds: 1,
  };
}

/**
 * The plain client, doing the same job as the sweep: `requests / 2` rows, each an agent request
 * then a judge request that waits for it, with `concurrency` requests in flight; each request is
 * retried after a 429 (its Retry-After) or a 500 (0.5 s) until it succeeds.
 */
export async function plainClient(options: {
  requests: number;
  concurrency: number;
  scenario: Scenario;
}): Promise<Measured> {
  const server = await _server(_settings(options.scenario));
  let next = 0, errors = 0, inFlight = 0;
  const rows = Math.round(options.requests / 2);
  const sampler = _sampler(() => inFlight);
  const cpu = _cpuMs();
  const started = performance.now();
  const ask = async (content: string) => {
    for (;;) {
      inFlight++;
      const res = await fetch(`${server.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
        body: JSON.stringify({ model: "bench", messages: [{ role: "user", content }] }),
      });
      const body = await res.json();
      inFlight--;
      if (res.ok && body.choices?.[0]?.message) return body.choices[0].message.content as string;
      const wait = res.status === 429 ? Number(res.headers.get("retry-after") ?? 1) * 1000 : 500;
      if (res.status !== 429 && res.status !== 500) errors++;
      await new Promise((r) => setTimeout(r, wait));
    }
  };
  const worker = async () => {
    while (next < rows) {
      const i = next++;
      const answer = await ask(`Question ${i}: the value is ${i}.`);
      await ask(`Grade the answer to question ${i}: ${answer}`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = _cpuMs() - cpu;
  const meanInFlight = sampler.mean();
  const requests = await server.stop();
  return {
    requests,
    seconds,
    rate: requests / seconds,
    cpuMsPerRequest: cpuMs / requests,
    errors,
    meanInFlight,
    midInFlight: sampler.mid(),
  };
}

const _instances = Array.from(
  { length: 25 },
  (_, i) => syntheticInstance({ id: `b${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 10 }),
);

/**
 * The kit: a writing sweep of LLM agent and LLM judge calls (about `requests` of them) at
 * `concurrency`. `cachePath` keeps the cache for a replay.
 */
export async function kitSweep(options: {
  requests: number;
  concurrency: number;
  scenario: Scenario;
  /** Response cache; default in memory. */
  cachePath?: string;
  /** Base URL of a running server (a replay); default a new server. */
  baseUrl?: string;
}): Promise<Measured & { rows: number; baseUrl: string }> {
  const server = options.baseUrl === undefined ? await _server(_settings(options.scenario)) : null;
  const baseUrl = options.baseUrl ?? server!.baseUrl;
  const setup = modelSetup({
    cachePath: options.cachePath ?? ":memory:",
    baseUrl,
    concurrency: options.concurrency,
    judge: "llm:self",
    env: { OPENAI_API_KEY: "sk-bench" },
  });
  try {
    const limiter = setup.client("bench").limiter;
    const sampler = _sampler(() => limiter.active);
    const cpu = _cpuMs();
    const started = performance.now();
    // Two requests per row (agent, judge), two rows per pair, 25 pairs per trial.
    const trials = Math.max(1, Math.round(options.requests / (4 * _instances.length)));
    const rows = await sweep({
      stage: "writing",
      grid: [1],
      instances: _instances,
      dataset: "bench",
      attacks: ["minja"],
      agents: resolveAgents({ specs: ["llm:bench"], factories: { llm: setup.agentFactory } }),
      // Risk always exposed: clean and poisoned prompts differ. The offline ranker: every
      // request is an agent or a judge call.
      base: { bankSize: 10, thetaR: 1, ranker: "usefulness" },
      judge: setup.judge,
      concurrency: options.concurrency,
      trials,
    });
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = _cpuMs() - cpu;
    const meanInFlight = sampler.mean();
    const midInFlight = sampler.mid();
    if (Deno.env.get("BENCH_DEBUG")) {
      console.error(limiter.stats, limiter.limit, sampler.perSecond().join(" "));
    }
    const requests = server ? await server.stop() : setup.stats().requests;
    return {
      baseUrl,
      requests,
      rows: rows.length,
      seconds,
      rate: requests / seconds,
      cpuMsPerRequest: cpuMs / Math.max(1, requests),
      errors: rows.filter((r) => r.error !== null).length,
      meanInFlight,
      midInFlight,
    };
  } finally {
    setup.close();
  }
}

/** CPU milliseconds per row of a sweep answered entirely from the response cache. */
export async function cachedReplay(options: { concurrency: number }): Promise<{
  rows: number;
  requests: number;
  cpuMsPerRow: number;
}> {
  const dir = await Deno.makeTempDir({ prefix: "memgauge-bench-" });
  const cachePath = `${dir}/cache.sqlite`;
  const requests = options.concurrency * SECONDS * 1000 / LATENCY_MS;
  try {
    const first = await kitSweep({
      requests,
      concurrency: options.concurrency,
      scenario: SCENARIOS[0],
      cachePath,
    });
    // Replay: the same sweep on the warm cache; its server is gone, so a miss would fail.
    const cpu = _cpuMs();
    const replay = await kitSweep({
      requests,
      concurrency: options.concurrency,
      scenario: SCENARIOS[0],
      cachePath,
      baseUrl: first.baseUrl,
    });
    return {
      rows: replay.rows,
      requests: replay.requests,
      cpuMsPerRow: (_cpuMs() - cpu) / replay.rows,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const _pct = (x: number) => `${(100 * x).toFixed(0)}%`;

if (import.meta.main && Deno.args[0] === "faults") {
  const c = Number(Deno.args[1] ?? 32);
  const r = await kitSweep({
    requests: c * SECONDS * 1000 / LATENCY_MS,
    concurrency: c,
    scenario: SCENARIOS[1],
  });
  console.log(r);
} else if (import.meta.main && Deno.args[0] === "replay") {
  const replay = await cachedReplay({ concurrency: 16 });
  console.log(
    `cached replay: ${replay.rows} rows, ${replay.requests} requests, ` +
      `${replay.cpuMsPerRow.toFixed(3)} ms CPU per row`,
  );
} else if (import.meta.main) {
  // One untimed sweep through the same code paths, so the JIT is warm for the first timed one.
  await kitSweep({ requests: 100, concurrency: 8, scenario: SCENARIOS[0] });
  const head = [
    "concurrency",
    "scenario",
    "ideal/s",
    "plain/s",
    "plain %ideal",
    "kit/s",
    "kit %ideal",
    "kit/plain",
    "in flight kit (mid 80%)",
    "in flight plain (mid 80%)",
    "CPU ms/req kit",
    "CPU ms/req plain",
    "error rows",
    "target",
  ];
  const table: string[][] = [];
  let failed = false;
  for (const scenario of SCENARIOS) {
    for (const concurrency of CONCURRENCIES) {
      const ideal = concurrency * 1000 / LATENCY_MS;
      const faults = scenario.rate429 + scenario.rate500 > 0;
      const requests = ideal * (faults ? SECONDS_FAULTS : SECONDS);
      const plain = await plainClient({ requests, concurrency, scenario });
      const kit = await kitSweep({ requests, concurrency, scenario });
      const ok = faults ? kit.rate >= 0.85 * ideal : kit.rate >= 0.95 * plain.rate;
      failed ||= !ok;
      table.push([
        String(concurrency),
        scenario.name,
        ideal.toFixed(0),
        plain.rate.toFixed(1),
        _pct(plain.rate / ideal),
        kit.rate.toFixed(1),
        _pct(kit.rate / ideal),
        _pct(kit.rate / plain.rate),
        `${kit.meanInFlight.toFixed(1)} (${kit.midInFlight.toFixed(1)})`,
        `${plain.meanInFlight.toFixed(1)} (${plain.midInFlight.toFixed(1)})`,
        kit.cpuMsPerRequest.toFixed(2),
        plain.cpuMsPerRequest.toFixed(2),
        String(kit.errors),
        `${faults ? "kit >= 85% of ideal" : "kit >= 95% of plain"}: ${ok ? "yes" : "NO"}`,
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const show = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  console.log(
    `latency ${LATENCY_MS} ms; ${SECONDS} s of ideal work per measurement without faults, ` +
      `${SECONDS_FAULTS} s with them`,
  );
  console.log([show(head), ...table.map(show)].join("\n"));
  const replay = await cachedReplay({ concurrency: 16 });
  if (replay.requests > 0) throw new Error(`the cached replay sent ${replay.requests} requests`);
  const replayOk = replay.cpuMsPerRow <= 0.5;
  failed ||= !replayOk;
  console.log(
    `cached replay: ${replay.rows} rows, ${replay.requests} requests, ` +
      `${replay.cpuMsPerRow.toFixed(3)} ms CPU per row (target <= 0.5: ${replayOk ? "yes" : "NO"})`,
  );
  if (failed) Deno.exit(1);
} else {
  for (const scenario of SCENARIOS) {
    Deno.bench(`sweep vs plain client, 200 ms, concurrency 16, ${scenario.name}`, {
      n: 1,
      warmup: 0,
    }, async (b) => {
      const requests = 16 * SECONDS * 1000 / LATENCY_MS;
      b.start();
      await kitSweep({ requests, concurrency: 16, scenario });
      b.end();
    });
  }
}
