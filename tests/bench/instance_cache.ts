/**
 * Instance build vs cached load, side by side in one run: for each setting, a fresh process
 * builds the instances without the cache (`instanceCache: false`, what every run did before the
 * cache) and another loads them from a warm cache file (key hashing included), alternating, so
 * load on the machine hits both alike. Prints each run, the median per variant and their ratio,
 * and checks that both give the same bytes (sha256 of the instances' JSON).
 *
 * Run: MEMGAUGE_DATA=/path/to/data deno run -A tests/bench/instance_cache.ts   (RUNS=3)
 */
import { loadDataset } from "../../lib/data/datasets.ts";
import { createHash } from "node:crypto";

const SETTINGS = [
  { name: "locomo", bankSize: 100, traceLoad: 1 },
  { name: "locomo", bankSize: 500, traceLoad: 1 },
  { name: "longmemeval", bankSize: 100, traceLoad: 1 },
] as const;

// A child process: time one load and print `seconds sha256 count`.
if (Deno.args[0] === "--child") {
  const [, mode, name, bankSize, traceLoad, dir] = Deno.args;
  const start = performance.now();
  const instances = await loadDataset({
    name,
    seed: 0,
    bankSize: Number(bankSize),
    traceLoad: Number(traceLoad),
    instanceCache: mode === "build" ? false : { dir },
  });
  const seconds = (performance.now() - start) / 1000;
  const sha = createHash("sha256").update(JSON.stringify(instances)).digest("hex");
  console.log(`${seconds.toFixed(3)} ${sha} ${instances.length}`);
  Deno.exit(0);
}

const runs = Number(Deno.env.get("RUNS") ?? 3);
const dir = await Deno.makeTempDir({ prefix: "memgauge-instance-cache-" });

async function child(mode: "build" | "cached", s: (typeof SETTINGS)[number]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--child",
      mode,
      s.name,
      String(s.bankSize),
      String(s.traceLoad),
      dir,
    ],
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`${mode} ${s.name} failed`);
  const [seconds, sha, count] = new TextDecoder().decode(out.stdout).trim().split(" ");
  return { seconds: Number(seconds), sha, count: Number(count) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lines: string[] = [];
for (const s of SETTINGS) {
  const label = `${s.name} |B| = ${s.bankSize}, trace load ${s.traceLoad}`;
  await child("cached", s); // warm the cache file (a first build, not timed)
  const times = { build: [] as number[], cached: [] as number[] };
  const shas = new Set<string>();
  for (let r = 0; r < runs; r++) {
    for (const mode of ["build", "cached"] as const) {
      const { seconds, sha, count } = await child(mode, s);
      times[mode].push(seconds);
      shas.add(sha);
      console.log(`${label}: run ${r + 1} ${mode.padEnd(6)} ${seconds.toFixed(3)} s (${count})`);
    }
  }
  const [b, c] = [median(times.build), median(times.cached)];
  lines.push(
    `${label.padEnd(40)} build ${b.toFixed(2)} s  cached ${c.toFixed(3)} s  ` +
      `${(b / c).toFixed(1)}x  same bytes: ${shas.size === 1 ? "yes" : "NO"}`,
  );
}
let bytes = 0;
for (const e of Deno.readDirSync(dir)) bytes += Deno.statSync(`${dir}/${e.name}`).size;
await Deno.remove(dir, { recursive: true });
console.log(`\nMedians of ${runs} fresh processes each, alternating (load ${Deno.loadavg()[0]}):`);
for (const l of lines) console.log(l);
console.log(`cache files: ${(bytes / 1e6).toFixed(1)} MB for ${SETTINGS.length} settings`);
