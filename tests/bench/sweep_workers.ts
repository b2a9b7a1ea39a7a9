/**
 * An offline sweep through the CLI (`deno task sweep`, the demo set, the offline reference
 * agent) at the commit BEFORE (default afd9ce7: one thread, every row kept in memory) and now
 * with `--workers 1` and `--workers 2`, each in a fresh process under /usr/bin/time, runs
 * alternating so load on the machine hits all alike. Prints each run, per variant the median
 * wall time, CPU time and peak RSS, and whether the rows files are the same bytes (latencyMs,
 * the one timing column, zeroed).
 *
 * Run: deno run -A tests/bench/sweep_workers.ts   (RUNS=3, TRIALS=10, STAGE=writing,
 * BEFORE=rev or none)
 */
const runs = Number(Deno.env.get("RUNS") ?? 3);
const trials = Deno.env.get("TRIALS") ?? "10";
const stage = Deno.env.get("STAGE") ?? "writing";
const before = Deno.env.get("BEFORE") ?? "afd9ce7";
const root = new URL("../../", import.meta.url).pathname;
const dir = await Deno.makeTempDir();
const variants: { name: string; cli: string; args: string[] }[] = [];
if (before !== "none") {
  const at = `${dir}/at-${before}`;
  await Deno.mkdir(at);
  const sh = `git -C "${root}" archive ${before} lib data deno.json deno.lock | tar -x -C "${at}"`;
  if (!(await new Deno.Command("sh", { args: ["-c", sh] }).output()).success) {
    throw new Error(`cannot extract ${before}`);
  }
  await Deno.symlink(`${root}node_modules`, `${at}/node_modules`);
  variants.push({ name: `before ${before}`, cli: `${at}/lib/cli/sweep.ts`, args: [] });
}
for (const w of [1, 2]) {
  variants.push({
    name: `--workers ${w}`,
    cli: `${root}lib/cli/sweep.ts`,
    args: ["--workers", `${w}`],
  });
}
const results = variants.map(() => ({
  walls: [] as number[],
  cpus: [] as number[],
  peaks: [] as number[],
}));
let rows = 0;
for (let r = 1; r <= runs; r++) {
  for (const [v, variant] of variants.entries()) {
    const out = `${dir}/rows-${v}.jsonl`;
    const p = await new Deno.Command("/usr/bin/time", {
      args: [
        "-f",
        "%e %M %U %S",
        Deno.execPath(),
        "run",
        "-A",
        variant.cli,
        "--stage",
        stage,
        "--dataset",
        "demo",
        "--trials",
        trials,
        "--trajectories",
        "none",
        "--quiet",
        "--overwrite",
        "--out",
        out,
        ...variant.args,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(p.stderr).trim().split("\n");
    if (!p.success) throw new Error(`${variant.name} failed: ${err.join(" | ")}`);
    const [wall, kb, user, sys] = err.at(-1)!.split(" ").map(Number);
    results[v].walls.push(wall), results[v].peaks.push(kb / 1024), results[v].cpus.push(user + sys);
    console.log(
      `run ${r} ${variant.name}: ${wall.toFixed(2)} s wall, ${(user + sys).toFixed(2)} s CPU, ` +
        `peak RSS ${(kb / 1024).toFixed(0)} MiB`,
    );
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1].toFixed(2);
for (const [v, variant] of variants.entries()) {
  const { walls, cpus, peaks } = results[v];
  console.log(
    `${variant.name}: median ${median(walls)} s wall, ${median(cpus)} s CPU, ${
      median(peaks)
    } MiB peak RSS`,
  );
}
const hashes = await Promise.all(variants.map(async (_, v) => {
  const text = await Deno.readTextFile(`${dir}/rows-${v}.jsonl`);
  rows = text.split("\n").length - 1;
  const bytes = new TextEncoder().encode(text.replace(/"latencyMs":[0-9.e-]+/g, '"latencyMs":0'));
  return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)))
    .map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 16);
}));
console.log(`${rows} rows; sha256 (latencyMs zeroed) per variant: ${hashes.join(", ")}`);
console.log(`same bytes in every variant: ${new Set(hashes).size === 1}`);
await Deno.remove(dir, { recursive: true });
