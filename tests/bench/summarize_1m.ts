/**
 * Summarise about 1,000,000 synthetic trial rows (all TrialRow columns) written to a temp dir,
 * end to end through the CLI (`deno task summarize`), in a fresh process per run so its time
 * and peak RSS are the summary's own, as /usr/bin/time reports them (process start-up
 * included), and side by side with a baseline: the same CLI at the commit BASELINE (default
 * c856ab6, the last commit with the hand-written JSONL scanner), extracted with `git archive`
 * into a temp dir. Runs alternate baseline, kit (default `--ci auto`), kit `--ci percentile`
 * (the baseline's default, like for like), so load on the machine hits all three alike. Prints
 * each run, then per variant the median, min and max of wall time, CPU time (user + sys: less
 * sensitive than wall time to other load) and peak RSS, and checks that the kit's percentile
 * summary equals the baseline's in every column the baseline has.
 *
 * Run: deno run -A tests/bench/summarize_1m.ts   (RUNS=3, SHAPE=sweep|trials, RESAMPLES=n,
 * ROWS=path: reuse the JSONL at path if it exists, else write it there and keep it;
 * BASELINE=rev or BASELINE=none)
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
const variants: { name: string; cli: string; args: string[] }[] = [];
if (baseline !== "none" && shape === "sweep") {
  const at = `${dir}/baseline`;
  await Deno.mkdir(at);
  const archive = new Deno.Command("sh", {
    args: [
      "-c",
      `git -C "${root}" archive ${baseline} lib deno.json deno.lock | tar -x -C "${at}"`,
    ],
  });
  if (!(await archive.output()).success) throw new Error(`cannot extract ${baseline}`);
  // Same deno.json imports at both commits: share the installed npm packages.
  await Deno.symlink(`${root}node_modules`, `${at}/node_modules`);
  variants.push({ name: `baseline ${baseline}`, cli: `${at}/lib/cli/summarize.ts`, args: [] });
}
const cli = `${root}lib/cli/summarize.ts`;
variants.push({ name: "kit --ci auto", cli, args: [] });
variants.push({ name: "kit --ci percentile", cli, args: ["--ci", "percentile"] });

const results = variants.map(() => ({
  walls: [] as number[],
  peaks: [] as number[],
  cpus: [] as number[],
}));
for (let r = 1; r <= runs; r++) {
  for (const [v, variant] of variants.entries()) {
    const out = await new Deno.Command("/usr/bin/time", {
      args: [
        "-f",
        "%e %M %U %S",
        Deno.execPath(),
        "run",
        "-A",
        variant.cli,
        "--in",
        path,
        "--out",
        `${dir}/summary-${v}.csv`,
        "--resamples",
        resamples,
        ...variant.args,
      ],
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
if (variants.length === 3) {
  // The baseline's columns must come out the same from the kit with the baseline's method.
  const pl = (await import("nodejs-polars")).default;
  const old = pl.readCSV(`${dir}/summary-0.csv`), kit = pl.readCSV(`${dir}/summary-2.csv`);
  const same = old.height === kit.height &&
    old.columns.every((c) =>
      kit.columns.includes(c) && old.getColumn(c).seriesEqual(kit.getColumn(c), true)
    );
  console.log(
    `kit --ci percentile equals the baseline in its ${old.columns.length} columns: ${same}`,
  );
}
await Deno.remove(dir, { recursive: true });
