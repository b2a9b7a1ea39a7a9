/**
 * Summarise about 1,000,000 synthetic trial rows (all TrialRow columns) written to a temp dir,
 * each variant in a fresh process per run so its time and peak RSS are its own, as /usr/bin/time
 * reports them (process start-up included), side by side:
 * - plain line scan: tests/bench/_plain_line_scan.ts, JSON.parse of every line and a Map of
 *   pairs, point estimates only (the simplest program that does the job);
 * - the CLI at BASELINE (default c856ab6, the last commit with the hand-written JSONL scanner);
 * - `summarizeFile` at BEFORE (default afd9ce7, the whole file mapped by Polars; its CLI refuses
 *   a file over 512 MiB, so the library is run, tests/bench/_summarize_lib.ts);
 * - `summarizeFile` now (blocks of 32 MB, each reduced to pair sums as it is read);
 * - the CLI now, end to end (`deno task summarize`, its UTF-8 check of the file included).
 * Commits are extracted with `git archive` into a temp dir. Runs alternate the variants, so
 * load on the machine hits all alike. Prints each run, then per variant the median, min and max
 * of wall time, CPU time (user + sys: less sensitive than wall time to other load) and peak RSS,
 * and checks that the kit's summary equals BEFORE's in every column.
 *
 * Run: deno run -A tests/bench/summarize_1m.ts   (RUNS=3, SHAPE=sweep|trials, RESAMPLES=n,
 * ROWS=path: reuse the JSONL at path if it exists, else write it there and keep it;
 * BASELINE=rev or none, BEFORE=rev or none)
 * SHAPE=sweep (default), a paper-grid run: 11 agents x 2 attacks x 60 operating points (3
 * policies x 20 thetaW) x 380 instances x 1 trial x 2 conditions = 1,003,200 rows, 1,320 groups.
 * SHAPE=trials: 2 agents x 2 attacks x 25 operating points x 100 instances x 50 trials x 2
 * conditions = 1,000,000 rows, 100 groups whose instances are clusters of 50 pairs (trials share
 * pairId and differ in `trial`; the baseline cannot pair those, so it is skipped).
 */
const shape = Deno.env.get("SHAPE") ?? "sweep";
const runs = Number(Deno.env.get("RUNS") ?? 3);
const resamples = Deno.env.get("RESAMPLES") ?? "10000";
const [agents, ops, instances, trials] = shape === "sweep" ? [11, 60, 380, 1] : [2, 25, 100, 50];

const dir = await Deno.makeTempDir();
const keep = Deno.env.get("ROWS");
const path = keep ?? `${dir}/rows.jsonl`;
const reuse = keep !== undefined && await Deno.stat(keep).then(() => true, () => false);
const file = await Deno.open(reuse ? "/dev/null" : path, { write: true, create: true });
const enc = new TextEncoder();
let n = 0, chunk: string[] = [];
let x = 12345;
const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
for (let a = 0; a < (reuse ? 0 : agents); a++) {
  const agent = `model-${a}`;
  for (const attack of ["minja", "agentpoison"]) {
    for (let op = 0; op < ops; op++) {
      const thetaW = (op % 20) / 19, policy = ["UM", "QM", "RM"][Math.floor(op / 20) % 3];
      for (let i = 0; i < instances; i++) {
        for (let t = 0; t < trials; t++) {
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
              thetaW,
              policy,
              thetaR: 0.8,
              thetaRRisk: 0.8,
              k: 5,
              fill: "random",
              bankSize: 100,
              ranker: "usefulness",
              traceLoad: 1,
              instanceId: `i${i}`,
              pairId: `${agent}-${attack}-${op}-${i}`,
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
              matchesTarget: err ? null : condition === "poisoned" && u > 0.6 + op / 200,
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
if (reuse) { for (const b of await Deno.readFile(path)) n += b === 10 ? 1 : 0; }
const size = (await Deno.stat(path)).size;
console.log(
  `shape ${shape}: ${n} rows, ${(size / 2 ** 20).toFixed(0)} MiB JSONL, ${resamples} resamples`,
);

const root = new URL("../../", import.meta.url).pathname;
const baseline = Deno.env.get("BASELINE") ?? "c856ab6";
const before = Deno.env.get("BEFORE") ?? "afd9ce7";
/** `git archive` of `rev` into a temp dir sharing the installed npm packages. */
const extract = async (rev: string) => {
  const at = `${dir}/at-${rev}`;
  await Deno.mkdir(at);
  const archive = new Deno.Command("sh", {
    args: ["-c", `git -C "${root}" archive ${rev} lib deno.json deno.lock | tar -x -C "${at}"`],
  });
  if (!(await archive.output()).success) throw new Error(`cannot extract ${rev}`);
  // Same deno.json imports at both commits: share the installed npm packages.
  await Deno.symlink(`${root}node_modules`, `${at}/node_modules`);
  return at;
};
/** A variant: a command line (`out` is its output file), timed under /usr/bin/time. */
const variants: { name: string; argv: (out: string) => string[]; cwd?: string }[] = [];
const deno = Deno.execPath();
const lib = `${root}tests/bench/_summarize_lib.ts`;
variants.push({
  name: "plain line scan (JSON.parse per line, point estimates only)",
  argv: (out) => [deno, "run", "-A", `${root}tests/bench/_plain_line_scan.ts`, path, out],
});
if (baseline !== "none" && shape === "sweep") {
  const at = await extract(baseline);
  variants.push({
    name: `hand-written scanner ${baseline} (CLI)`,
    argv: (out) => [
      deno,
      "run",
      "-A",
      `${at}/lib/cli/summarize.ts`,
      "--in",
      path,
      "--out",
      out,
      "--resamples",
      resamples,
    ],
  });
}
if (before !== "none") {
  const at = await extract(before);
  variants.push({
    name: `before ${before} (summarizeFile)`,
    argv: (out) => [deno, "run", "-A", lib, at, path, out, resamples],
    cwd: at,
  });
}
variants.push({
  name: "kit (summarizeFile)",
  argv: (out) => [deno, "run", "-A", lib, root.replace(/\/$/, ""), path, out, resamples],
});
variants.push({
  name: "kit CLI --ci auto",
  argv: (out) => [
    deno,
    "run",
    "-A",
    `${root}lib/cli/summarize.ts`,
    "--in",
    path,
    "--out",
    out,
    "--resamples",
    resamples,
  ],
});
const results = variants.map(() => ({
  walls: [] as number[],
  peaks: [] as number[],
  cpus: [] as number[],
}));
for (let r = 1; r <= runs; r++) {
  for (const [v, variant] of variants.entries()) {
    const out = await new Deno.Command("/usr/bin/time", {
      args: ["-f", "%e %M %U %S", ...variant.argv(`${dir}/summary-${v}.csv`)],
      cwd: variant.cwd,
      stdout: "null",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr).trim().split("\n");
    if (!out.success) throw new Error(`${variant.name} failed: ${err.join(" | ")}`);
    const [wall, kb, user, sys] = err.at(-1)!.split(" ").map(Number);
    results[v].walls.push(wall);
    results[v].peaks.push(kb / 1024);
    results[v].cpus.push(user + sys);
    console.log(
      `run ${r} ${variant.name}: ${wall.toFixed(2)} s wall, ${(user + sys).toFixed(2)} s CPU ` +
        `(user + sys), peak RSS ${(kb / 1024).toFixed(0)} MiB`,
    );
  }
}
const stat = (v: number[]) => {
  const s = [...v].sort((p, q) => p - q);
  return `median ${s[s.length >> 1].toFixed(2)} (min ${s[0].toFixed(2)}, max ${
    s.at(-1)!.toFixed(2)
  })`;
};
for (const [v, variant] of variants.entries()) {
  const { walls, cpus, peaks } = results[v];
  console.log(
    `${variant.name}: wall s ${stat(walls)}; CPU s ${stat(cpus)}; peak RSS MiB ${stat(peaks)}`,
  );
}
// The kit's summary must not change: equal to the commit before, column for column.
const pl = (await import("nodejs-polars")).default;
const csv = (name: string) =>
  pl.readCSV(`${dir}/summary-${variants.findIndex((v) => v.name === name)}.csv`);
if (before !== "none") {
  const old = csv(`before ${before} (summarizeFile)`), kit = csv("kit (summarizeFile)");
  const same = old.height === kit.height && old.columns.length === kit.columns.length &&
    old.columns.every((c) => old.getColumn(c).seriesEqual(kit.getColumn(c), true));
  console.log(`kit summary equals ${before}'s in all ${old.columns.length} columns: ${same}`);
}
await Deno.remove(dir, { recursive: true });
