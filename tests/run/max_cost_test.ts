/**
 * `--max-cost USD` (issue 21, item 5): the run stops before the estimated spend crosses the cap,
 * finishes what is in flight, keeps the rows done so far and prints the command to go on; the
 * resumed run ends with the rows of an uncapped run.
 */
import assert from "node:assert/strict";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function run(args: string[]) {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-7f3a9c1e5b2d8f04a6c9e1b3" },
  }).output();
  return { code, err: new TextDecoder().decode(stderr).trim() };
}

const rowsOf = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").filter((l) => l !== "")
    .map((l) => JSON.parse(l));

full.test("--max-cost stops before the cap, keeps the pairs done, and the resume ends as an uncapped run", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir({ prefix: "memgauge-cost-" });
  try {
    const data = `${dir}/instances.json`;
    const instances = Array.from(
      { length: 6 },
      (_, i) =>
        syntheticInstance({ id: `c${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
    );
    await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
    const args = (name: string) => [
      "--stage",
      "writing",
      "--grid",
      "0.5,1",
      "--dataset",
      data,
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--bank-size",
      "12",
      // A price that makes each request cost about a cent.
      "--model-option",
      "fake-1.prices.inputPer1M=40",
      "--model-option",
      "fake-1.prices.outputPer1M=40",
      "--concurrency",
      "2",
      "--cache",
      `${dir}/${name}.sqlite`,
      "--out",
      `${dir}/${name}.jsonl`,
      "--quiet",
    ];
    const whole = await run(args("whole"));
    assert.equal(whole.code, 0, whole.err);
    const uncapped = await rowsOf(`${dir}/whole.jsonl`);
    const total = server.requests;

    const capped = await run([...args("capped"), "--max-cost", "0.1"]);
    assert.equal(capped.code, 4, capped.err);
    const [stopped, goOn] = capped.err.split("\n");
    assert.match(
      stopped,
      /^memgauge sweep: stopped before the estimated spend crossed --max-cost 0\.1 USD \(0\.\d{4} USD spent on \d+ requests\); \d+ pair trials? (is|are) in .*capped\.jsonl\.partial\.$/,
    );
    const spent = Number(/\((0\.\d+) USD spent/.exec(stopped)![1]);
    assert.ok(spent <= 0.1, `spent ${spent}`);
    const sent = server.requests - total;
    assert.ok(sent > 0 && sent < total, `${sent} of ${total} requests sent`);
    // The partial holds whole pair trials, in plan order: a prefix of the uncapped run.
    const partial = await rowsOf(`${dir}/capped.jsonl.partial`);
    assert.ok(partial.length > 0 && partial.length % 2 === 0 && partial.length < uncapped.length);
    assert.ok(partial.every((r) => r.error === null));
    const strip = (rows: TrialRow[]) =>
      rows.map((r) => JSON.stringify({ ...r, latencyMs: 0, runId: "" }));
    assert.deepEqual(strip(partial), strip(uncapped.slice(0, partial.length)));

    // Go on with the printed command and a larger cap.
    const command = /^Go on with \(a new --max-cost caps the next part\): deno task sweep (.*)$/
      .exec(goOn)![1].split(" ");
    const resumed = await run(
      command.map((a, i) => (command[i - 1] === "--max-cost" ? "100" : a)),
    );
    assert.equal(resumed.code, 0, resumed.err);
    assert.deepEqual(strip(await rowsOf(`${dir}/capped.jsonl`)), strip(uncapped));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("--max-cost on a model without prices is refused in one line before any request", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir({ prefix: "memgauge-cost-" });
  try {
    const r = await run([
      "--stage",
      "writing",
      "--grid",
      "1",
      "--limit",
      "1",
      "--agent",
      "llm:fake-1",
      "--base-url",
      server.baseUrl,
      "--max-cost",
      "1",
      "--cache",
      `${dir}/c.sqlite`,
      "--out",
      `${dir}/r.jsonl`,
      "--quiet",
    ]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^memgauge sweep: --max-cost: model fake-1 has no prices/);
    assert.equal(r.err.split("\n").length, 1);
    assert.equal(server.requests, 0);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
