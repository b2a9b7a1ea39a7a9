import assert from "node:assert/strict";
import { matchesAnswer } from "../../lib/text/matches.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { type FakeServer, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;
const SENTINEL = "sk-SENTINEL-never-print-9137";

function cli(args: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
  });
}

async function run(args: string[]) {
  const { code, stdout, stderr } = await cli(args).output();
  const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  return { code, out };
}

async function setup(server: FakeServer) {
  const dir = await Deno.makeTempDir();
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 5 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 5, riskUnits: 4, bank: 20 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  const args = (out: string, extra: string[] = []) =>
    [
      "--stage",
      "writing",
      // A --grid in `extra` replaces this one (the CLI rejects an option given twice).
      ...(extra.includes("--grid") ? [] : ["--grid", "0,0.5,1"]),
      "--dataset",
      data,
      "--attack",
      "minja",
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--bank-size",
      "20",
      "--cache",
      `${dir}/cache.sqlite`,
      "--retry-errors-placeholder",
      "--out",
      `${dir}/${out}`,
      "--quiet",
      ...extra,
    ].filter((a) => a !== "--retry-errors-placeholder");
  return { dir, args };
}

const read = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
const strip = (rows: TrialRow[]) =>
  rows.map((r) => JSON.stringify({ ...r, latencyMs: 0, cacheHit: null }));

full.test("sweep with an llm agent: correct rows, zero requests on rerun, key never leaks", async () => {
  const server = startFakeOpenAIServer({});
  const { dir, args } = await setup(server);
  try {
    const first = await run(args("rows.jsonl", ["--concurrency", "4"]));
    assert.equal(first.code, 0, first.out);
    const rows = await read(`${dir}/rows.jsonl`);
    assert.equal(rows.length, 3 * 5 * 2);
    assert.ok(rows.every((r) => r.simulated === false && r.agent === "llm:fake-1"));
    assert.ok(rows.every((r) => r.error === null && r.cacheHit !== null && r.promptTokens! > 0));
    // Identical prompts (e.g. the same context at two coverage levels) are asked once.
    assert.ok(rows.some((r) => r.cacheHit === false));
    for (const r of rows) {
      assert.equal(r.correct, matchesAnswer(r.output!, "alpha 11"));
      assert.equal(r.matchesTarget, matchesAnswer(r.output!, "omega 99"));
    }
    // With everything admitted the helpful record is there: the clean runs are mostly right.
    assert.ok(rows.some((r) => r.correct) && rows.some((r) => r.condition === "poisoned"));
    const requests = server.requests;
    assert.ok(requests > 0);

    const second = await run(args("again.jsonl"));
    assert.equal(second.code, 0, second.out);
    assert.equal(server.requests, requests, "a cached rerun makes zero requests");
    const again = await read(`${dir}/again.jsonl`);
    // cacheHit says which rows reused an earlier row's answers within the run (or another
    // run's): a rerun of the same run on a warm cache writes the same bytes, cacheHit included.
    assert.deepEqual(again.map((r) => r.cacheHit), rows.map((r) => r.cacheHit));
    assert.deepEqual(strip(again), strip(rows));

    // The sentinel key: sent to the server, never in rows, cache or output.
    assert.ok(server.authorizations.has(`Bearer ${SENTINEL}`));
    for (const file of ["rows.jsonl", "again.jsonl", "cache.sqlite"]) {
      const bytes = new TextDecoder("latin1").decode(await Deno.readFile(`${dir}/${file}`));
      assert.ok(!bytes.includes(SENTINEL), file);
    }
    assert.ok(!first.out.includes(SENTINEL) && !second.out.includes(SENTINEL));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep with an LLM judge records judge model, prompt hash and scope", async () => {
  const server = startFakeOpenAIServer({});
  const { dir, args } = await setup(server);
  try {
    const r = await run(args("rows.jsonl", ["--judge", "llm:judge-1", "--grid", "1"]));
    assert.equal(r.code, 0, r.out);
    const rows = await read(`${dir}/rows.jsonl`);
    assert.ok(rows.every((row) => row.error === null), JSON.stringify(rows[0]));
    assert.ok(
      rows.every((row) =>
        row.judgeModel === "judge-1" && row.judgePromptHash?.length === 16 &&
        row.judgeScope === "answer"
      ),
    );
    for (const row of rows) {
      assert.equal(row.correct, matchesAnswer(row.output!, "alpha 11"));
      assert.equal(row.matchesTarget, matchesAnswer(row.output!, "omega 99"));
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep turns exhausted retries and unparsable verdicts into error rows; --retry-errors reruns them", async () => {
  // One in four requests fails until the server turns healthy (the same endpoint: another one
  // would be another run, which --retry-errors refuses).
  let failing = true;
  const server = startFakeOpenAIServer({
    faultFor: (n) => (failing && n % 4 === 1 ? "500" : null),
  });
  const { dir, args } = await setup(server);
  try {
    const r = await run(args("rows.jsonl", ["--max-retries", "0", "--concurrency", "1"]));
    assert.equal(r.code, 3, r.out); // finished with error rows
    const rows = await read(`${dir}/rows.jsonl`);
    const errors = rows.filter((row) => row.error !== null);
    assert.ok(errors.length > 0);
    assert.ok(errors.every((row) => row.output === null && row.correct === null));
    assert.ok(errors.every((row) => /HTTP 500/.test(row.error!) && !row.error!.includes(SENTINEL)));

    failing = false;
    const before = server.requests;
    // Failed calls were not cached: only the error pairs make requests.
    const fixed = await run(args("rows.jsonl", ["--retry-errors"]));
    assert.equal(fixed.code, 0, fixed.out);
    const after = await read(`${dir}/rows.jsonl`);
    assert.equal(after.length, rows.length);
    assert.ok(after.every((row) => row.error === null));
    assert.deepEqual(
      after.map((x) => [x.pairId, x.condition]),
      rows.map((x) => [x.pairId, x.condition]),
    );
    assert.ok(server.requests - before <= errors.length * 2);
    const bad = startFakeOpenAIServer({ reply: () => "not json" });
    try {
      const judged = await run(
        args("judged.jsonl", ["--judge", "llm:j", "--grid", "1", "--ranker", "usefulness"]).map((
          a,
        ) => a === server.baseUrl ? bad.baseUrl : a),
      );
      assert.equal(judged.code, 3, judged.out); // every row is an error row
      const jrows = await read(`${dir}/judged.jsonl`);
      assert.ok(jrows.every((row) => /judge llm:j: verdict: no JSON value/.test(row.error ?? "")));
    } finally {
      await bad.close();
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep killed with SIGKILL mid-run and resumed ends with exactly the full set of trials", async () => {
  const server = startFakeOpenAIServer({ latencyMs: 15 });
  const { dir, args } = await setup(server);
  try {
    const full = args("rows.jsonl", ["--trials", "2", "--concurrency", "2"]);
    const child = cli(full).spawn();
    const partial = `${dir}/rows.jsonl.partial`;
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const text = await Deno.readTextFile(partial).catch(() => "");
      if (text.split("\n").length > 12) break;
    }
    child.kill("SIGKILL");
    await child.output();
    const before = (await Deno.readTextFile(partial)).trim().split("\n").length;
    assert.ok(before > 0 && before < 60, `killed mid-run with ${before} rows`);

    const resumed = await run([...full, "--resume"]);
    assert.equal(resumed.code, 0, resumed.out);
    const rows = await read(`${dir}/rows.jsonl`);
    assert.equal(rows.length, 3 * 5 * 2 * 2);
    const keys = rows.map((r) => `${r.pairId}#${r.trial}#${r.condition}`);
    assert.equal(new Set(keys).size, keys.length, "no duplicated trial");

    // Same rows, same order as one uninterrupted run.
    const reference = await run(args("ref.jsonl", ["--trials", "2", "--concurrency", "3"]));
    assert.equal(reference.code, 0, reference.out);
    assert.deepEqual(strip(rows), strip(await read(`${dir}/ref.jsonl`)));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
