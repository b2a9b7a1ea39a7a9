/**
 * A run is one run (issue 21, item 1): `--retry-errors` compares the finished rows' manifest
 * (options and the fingerprint of everything that shapes a request) exactly as `--resume`
 * compares the partial's, and refuses a change of model, model option, endpoint, judge, writer,
 * ranker or seed in one line, before any request.
 */
import assert from "node:assert/strict";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { fingerprintDifferences } from "../../lib/run/run_fingerprint.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function run(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-identity-test" },
  }).output();
  return {
    code,
    out: new TextDecoder().decode(stdout),
    err: new TextDecoder().decode(stderr).trim(),
  };
}

full.test("--retry-errors refuses, in one line and before any request, a change of model, model option, endpoint, judge, writer, ranker or seed", async () => {
  // The first 8 requests fail (500, no retries): the run ends with error rows.
  let failing = 8;
  const server = startFakeOpenAIServer({ faultFor: () => (failing-- > 0 ? "500" : null) });
  const dir = await Deno.makeTempDir({ prefix: "memgauge-identity-" });
  try {
    const data = `${dir}/instances.json`;
    const instances = Array.from(
      { length: 4 },
      (_, i) =>
        syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
    );
    await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
    const out = `${dir}/rows.jsonl`;
    const args = [
      "--stage",
      "writing",
      "--grid",
      "0.5,1",
      "--dataset",
      data,
      "--agent",
      "llm:fake-1",
      "--judge",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--bank-size",
      "12",
      "--max-retries",
      "0",
      "--cache",
      `${dir}/cache.sqlite`,
      "--out",
      out,
      "--quiet",
    ];
    const first = await run(args);
    assert.equal(first.code, 3, first.err);
    const rows = await Deno.readTextFile(out);
    const errors = rows.trim().split("\n").map((l) => JSON.parse(l) as TrialRow)
      .filter((r) => r.error !== null).length;
    assert.ok(errors > 0);
    assert.ok(await Deno.stat(`${out}.manifest.json`).then(() => true, () => false));

    const changes: [string[], RegExp][] = [
      [["--model-option", "fake-1.model=a-different-model"], /--model-option/],
      [["--model-option", "fake-1.temperature=0.9"], /--model-option/],
      [["--judge", "llm:fake-2"], /--judge llm:fake-1 there, llm:fake-2 here/],
      [["--writer", "llm:fake-1"], /--writer verbatim there, llm:fake-1 here/],
      [["--ranker", "random"], /--ranker/],
      [["--seed", "1"], /--seed 0 there, 1 here/],
      [["--base-url", "http://127.0.0.1:9/v1"], /--base-url/],
    ];
    for (const [change, names] of changes) {
      const sent = server.requests;
      // The option replaced where the first run gave it, else added.
      const at = args.indexOf(change[0]);
      const changed = at === -1
        ? [...args, ...change]
        : args.map((a, i) => (i === at + 1 ? change[1] : a));
      const r = await run([...changed, "--retry-errors"]);
      assert.equal(r.code, 2, `${change.join(" ")}: ${r.err}`);
      assert.equal(r.err.split("\n").length, 1, r.err);
      assert.match(r.err, /^memgauge sweep: --retry-errors: .*rows\.jsonl is from another run \(/);
      assert.match(r.err, names);
      assert.equal(server.requests, sent, `${change.join(" ")}: nothing sent`);
      assert.equal(await Deno.readTextFile(out), rows, "the rows are untouched");
    }

    // The same options retry the failed trials, in place.
    const again = await run([...args, "--retry-errors"]);
    assert.equal(again.code, 0, again.err);
    const fixed = (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(fixed.every((r: TrialRow) => r.error === null));
    // Replicas of the endpoint are the same run: another base URL list starting with it.
    const more = await run([
      ...args.map((a) => (a === server.baseUrl ? `${server.baseUrl},http://127.0.0.1:9/v1` : a)),
      "--retry-errors",
    ]);
    assert.equal(more.code, 0, more.err);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fingerprintDifferences() names the model and the field: a catalog entry edited between runs", () => {
  const there = {
    seed: 0,
    judge: { id: "llm:self", prompts: "a" },
    "model gpt-5.4": { url: "https://api.openai.com/v1", model: "gpt-5.4", maxTokens: 4096 },
  };
  const here = {
    ...there,
    judge: { id: "llm:self", prompts: "b" },
    "model gpt-5.4": { ...there["model gpt-5.4"], model: "gpt-5.4-2026-03" },
  };
  assert.deepEqual(fingerprintDifferences({ there, here }), [
    "judge: prompts a there, b here",
    "model gpt-5.4: model gpt-5.4 there, gpt-5.4-2026-03 here",
  ]);
});
