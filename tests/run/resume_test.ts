/**
 * Resumes that cannot mix runs: the partial's manifest, the lock on --out, interrupts that
 * leave a resumable partial and print the resume command, and no partial discarded silently.
 */
import assert from "node:assert/strict";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { type FakeServer, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

function cli(args: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-resume-test" },
  });
}

async function run(args: string[]) {
  const { code, stdout, stderr } = await cli(args).output();
  return {
    code,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

async function setup(server: FakeServer) {
  const dir = await Deno.makeTempDir();
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 8 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 5, riskUnits: 4, bank: 20 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  const args = (extra: string[] = [], name = "rows.jsonl") => [
    "--stage",
    "writing",
    "--grid",
    "0,0.5,1",
    "--dataset",
    data,
    "--agent",
    "llm:fake-1",
    "--base-url",
    server.baseUrl,
    "--bank-size",
    "20",
    "--cache",
    `${dir}/cache.sqlite`,
    "--concurrency",
    "2",
    "--out",
    `${dir}/${name}`,
    "--quiet",
    ...extra,
  ];
  return { dir, args, out: `${dir}/rows.jsonl`, partial: `${dir}/rows.jsonl.partial` };
}

const FULL = 3 * 2 * 8 * 2; // points x attacks x instances x conditions
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);
const lines = async (path: string) =>
  (await Deno.readTextFile(path).catch(() => "")).split("\n").filter((l) => l !== "").length;
const read = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
const strip = (rows: TrialRow[]) =>
  rows.map((r) => JSON.stringify({ ...r, latencyMs: 0, cacheHit: null }));

/** Start a sweep and wait until its partial holds at least `rows` rows. */
async function started(command: Deno.Command, partial: string, rows = 8) {
  const child = command.spawn();
  for (let i = 0; i < 800 && await lines(partial) < rows; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return child;
}

full.test("a partial of seed 0 resumed with seed 1 is refused in one line naming the seed", async () => {
  const server = startFakeOpenAIServer({ latencyMs: 20 });
  const { dir, args, out, partial } = await setup(server);
  try {
    const child = await started(cli(args(["--seed", "0"])), partial);
    child.kill("SIGKILL");
    await child.output();
    const before = await Deno.readTextFile(partial);
    assert.ok(before.length > 0);
    assert.ok(await exists(`${partial}.json`), "the partial carries its manifest");
    const manifest = JSON.parse(await Deno.readTextFile(`${partial}.json`));
    assert.equal(manifest.options.seed, 0);
    assert.match(manifest.kit, /^\d+\.\d+\.\d+$/);

    const other = await run(args(["--seed", "1", "--resume"]));
    assert.equal(other.code, 2, other.stderr);
    const said = other.stderr.trim().split("\n");
    assert.equal(said.length, 1, other.stderr);
    assert.match(
      said[0],
      /--resume: .*rows\.jsonl\.partial is from another run \(--seed 0 there, 1 here\)/,
    );
    assert.match(said[0], /--overwrite/);
    assert.equal(await Deno.readTextFile(partial), before, "the partial is left as it was");
    assert.ok(!await exists(out));

    // Another option, and two at once: each named.
    const two = await run(args(["--seed", "1", "--trials", "2", "--resume"]));
    assert.equal(two.code, 2);
    assert.match(two.stderr, /--seed 0 there, 1 here; --trials 1 there, 2 here/);

    // The same options complete it: one run id, every trial once.
    const same = await run(args(["--seed", "0", "--resume"]));
    assert.equal(same.code, 0, same.stderr);
    const rows = await read(out);
    assert.equal(rows.length, FULL);
    assert.equal(new Set(rows.map((r) => r.runId)).size, 1);
    assert.ok(!await exists(partial) && !await exists(`${partial}.json`));
    assert.ok(!await exists(`${out}.lock`));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("a non-empty partial is never discarded without --overwrite", async () => {
  const server = startFakeOpenAIServer({ latencyMs: 20 });
  const { dir, args, out, partial } = await setup(server);
  try {
    const child = await started(cli(args()), partial);
    child.kill("SIGKILL");
    await child.output();
    const before = await Deno.readTextFile(partial);
    const n = before.trim().split("\n").length;

    const again = await run(args());
    assert.equal(again.code, 2);
    assert.equal(again.stderr.trim().split("\n").length, 1, again.stderr);
    assert.match(
      again.stderr,
      /--out .*rows\.jsonl: .*rows\.jsonl\.partial holds \d+ rows \(\d+ pair trials?\) of an unfinished run; add --resume to complete it, or --overwrite to discard it/,
    );
    assert.equal(await Deno.readTextFile(partial), before);
    assert.ok(n > 0);

    const fresh = await run(args(["--overwrite", "--seed", "3"]));
    assert.equal(fresh.code, 0, fresh.stderr);
    const rows = await read(out);
    assert.equal(rows.length, FULL);
    assert.ok(rows.every((r) => r.seed === 3));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("a second sweep on the same --out is refused while the first writes it", async () => {
  // Slow enough that the first sweep is still writing when the second one starts.
  const server = startFakeOpenAIServer({ latencyMs: 150 });
  const { dir, args, out, partial } = await setup(server);
  try {
    const first = await started(cli(args()), partial, 2);
    const second = await run(args(["--seed", "1"]));
    assert.equal(second.code, 2);
    assert.equal(second.stderr.trim().split("\n").length, 1, second.stderr);
    assert.match(
      second.stderr,
      /--out .*rows\.jsonl: another sweep \(process \d+, since .*\) is writing it/,
    );
    const done = await first.output();
    assert.equal(done.code, 0, new TextDecoder().decode(done.stderr));
    const rows = await read(out);
    assert.equal(rows.length, FULL, "one writer: no interleaved or torn lines");
    assert.equal(new Set(rows.map((r) => `${r.pairId}#${r.condition}`)).size, FULL);
    assert.ok(rows.every((r) => r.seed === 0));
    assert.ok(!await exists(`${out}.lock`));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  full.test(`${signal} prints the resume command and leaves a partial that it completes`, async () => {
    const server = startFakeOpenAIServer({ latencyMs: 20 });
    const { dir, args, out, partial } = await setup(server);
    try {
      const child = await started(cli(args(["--trials", "2"])), partial);
      child.kill(signal);
      const result = await child.output();
      const stderr = new TextDecoder().decode(result.stderr);
      assert.equal(result.code, code, stderr);
      const said = stderr.trim().split("\n");
      assert.match(
        said[0],
        new RegExp(
          `^memgauge sweep: interrupted \\(${signal}\\); \\d+ pair trials? (is|are) in .*rows\\.jsonl\\.partial\\.$`,
        ),
      );
      assert.match(said[1], /^Resume with: deno task sweep .* --resume$/);
      assert.ok(!await exists(out) && await exists(partial));
      assert.ok(!await exists(`${out}.lock`), "the lock is released");
      const kept = Number(/(\d+) pair trials? (?:is|are) in/.exec(said[0])![1]);
      const onDisk = await read(partial);
      assert.equal(new Set(onDisk.map((r) => `${r.pairId}#${r.trial}`)).size, kept);

      // The printed command, as printed (argv after `deno task sweep`), completes the run.
      const resumeArgs = said[1].replace(/^Resume with: deno task sweep /, "").split(" ");
      const resumed = await run(resumeArgs);
      assert.equal(resumed.code, 0, resumed.stderr);
      const rows = await read(out);
      assert.equal(rows.length, FULL * 2);
      const keys = rows.map((r) => `${r.pairId}#${r.trial}#${r.condition}`);
      assert.equal(new Set(keys).size, keys.length, "no row twice");
      assert.equal(new Set(rows.map((r) => r.runId)).size, 1);
      assert.ok(!await exists(partial) && !await exists(`${out}.lock`));
      const reference = await run(args(["--trials", "2"], "ref.jsonl"));
      assert.equal(reference.code, 0, reference.stderr);
      assert.deepEqual(strip(rows), strip(await read(`${dir}/ref.jsonl`)));
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

full.test("an interrupt before the first row says so and gives the command to run again", async () => {
  // Slow replies: the interrupt comes while the first requests are in flight.
  const server = startFakeOpenAIServer({ latencyMs: 4000 });
  const { dir, args, out, partial } = await setup(server);
  try {
    const child = cli(args()).spawn();
    for (let i = 0; i < 800 && !await exists(`${out}.lock`); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    // The handler is installed right after the lock; give the run time to reach its requests.
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(!await exists(partial) || await lines(partial) === 0, "no row yet");
    child.kill("SIGINT");
    const result = await child.output();
    const said = new TextDecoder().decode(result.stderr).trim().split("\n");
    assert.equal(result.code, 130, said.join("\n"));
    assert.deepEqual(said.slice(0, 1), [
      "memgauge sweep: interrupted (SIGINT); before any row was written.",
    ]);
    assert.match(said[1], /^Run again with: deno task sweep .*--quiet$/);
    assert.doesNotMatch(said[1], /--resume/);
    assert.ok(!await exists(`${out}.lock`), "the lock is released");
    assert.ok(!await exists(out));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
