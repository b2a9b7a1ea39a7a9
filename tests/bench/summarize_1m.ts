/**
 * Summarise 1,000,000 synthetic trial rows (all TrialRow columns) written to a temp dir: prints
 * read time, summarize time and peak RSS. Run: deno run -A tests/bench/summarize_1m.ts
 * Shape: 2 agents x 2 attacks x 25 operating points x 100 instances x 50 trials x 2 conditions.
 */
import { readRows } from "../../lib/stats/read_rows.ts";
import { summarize } from "../../lib/stats/summarize.ts";

const dir = await Deno.makeTempDir();
const path = `${dir}/rows.jsonl`;
const file = await Deno.open(path, { write: true, create: true });
const enc = new TextEncoder();
let n = 0, chunk: string[] = [];
let x = 12345;
const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
for (const agent of ["model-a", "model-b"]) {
  for (const attack of ["minja", "sleeper"]) {
    for (let op = 0; op < 25; op++) {
      for (let i = 0; i < 100; i++) {
        for (let t = 0; t < 50; t++) {
          for (const condition of ["clean", "poisoned"]) {
            const err = rand() < 0.01;
            const u = rand();
            chunk.push(JSON.stringify({
              runId: "bench",
              seed: 0,
              agent,
              simulated: true,
              dataset: "demo",
              attack,
              stage: "writing",
              thetaW: op / 24,
              policy: "UM",
              thetaR: 0.8,
              thetaRRisk: 0.8,
              k: 5,
              fill: "random",
              bankSize: 100,
              ranker: "usefulness",
              traceLoad: 1,
              instanceId: `i${i}`,
              pairId: `${agent}-${attack}-${op}-${i}-${t}`,
              trial: t,
              condition,
              unitsHelpful: 5,
              unitsRisk: 5,
              admittedHelpful: 3,
              admittedRisk: 3,
              quarantinedIds: [],
              helpfulExposed: true,
              riskExposed: true,
              helpfulInContext: true,
              riskInContext: condition === "poisoned",
              contextIds: ["b1", "b2", "h1", "r1", "b3"],
              contextSize: 5,
              output: err ? null : "42",
              correct: err ? null : u < 0.4,
              matchesTarget: err ? null : condition === "poisoned" && u > 0.6 + op / 100,
              error: err ? "timeout" : null,
              latencyMs: 12.5,
            }));
            if (++n % 50_000 === 0) {
              await file.write(enc.encode(chunk.join("\n") + "\n"));
              chunk = [];
            }
          }
        }
      }
    }
  }
}
if (chunk.length) await file.write(enc.encode(chunk.join("\n") + "\n"));
file.close();
const size = (await Deno.stat(path)).size;

const t0 = performance.now();
const rows = readRows(path);
const t1 = performance.now();
const summary = summarize(rows, { resamples: Number(Deno.env.get("RESAMPLES") ?? 10_000) });
const t2 = performance.now();
// Peak resident memory of this process (kernel's high-water mark), including polars' heap.
const status = await Deno.readTextFile("/proc/self/status");
const peak = Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
console.log(
  `rows ${rows.height}, file ${(size / 2 ** 20).toFixed(0)} MiB, groups ${summary.height}`,
);
console.log(
  `readRows ${((t1 - t0) / 1000).toFixed(2)} s, summarize ${
    ((t2 - t1) / 1000).toFixed(2)
  } s, total ${((t2 - t0) / 1000).toFixed(2)} s`,
);
console.log(`peak RSS ${peak.toFixed(0)} MiB`);
await Deno.remove(dir, { recursive: true });
