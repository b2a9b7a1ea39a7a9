/**
 * `deno task plan` (issue 21, item 5): the paper's whole grid over N models planned before any
 * request, with USD live and batch and what a pilot costs; nothing sent, no key read.
 */
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { full } from "../support/tiers.ts";

const PLAN = new URL("../../lib/cli/plan.ts", import.meta.url).pathname;

async function plan(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", PLAN, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return {
    code,
    out: new TextDecoder().decode(stdout),
    err: new TextDecoder().decode(stderr).trim(),
  };
}

full.test("deno task plan: the grid's requests, tokens, USD live and batch, and a pilot; nothing sent", async () => {
  const server = startFakeOpenAIServer({});
  const dir = await Deno.makeTempDir({ prefix: "memgauge-plan-" });
  try {
    const r = await plan([
      "--dataset",
      "demo",
      "--model",
      "fake-a,fake-b",
      "--rq2-model",
      "fake-a",
      "--base-url",
      server.baseUrl,
      "--model-option",
      "fake-a.prices.inputPer1M=1",
      "--model-option",
      "fake-a.prices.outputPer1M=4",
      "--model-option",
      "fake-a.prices.batchDiscount=0.5",
      "--cache",
      `${dir}/cache.sqlite`,
    ]);
    assert.equal(r.code, 0, r.err);
    assert.equal(server.requests, 0);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no cache file is created");
    assert.match(r.out, /^PLAN of the paper's grid: nothing was sent, no key was read/m);
    assert.match(r.out, /Sampled: demo: (\d+) of \1 instances planned/);
    // RQ2 runs on LongMemEval, as the paper's: not planned for a grid without it.
    assert.doesNotMatch(r.out, /RQ2/);
    assert.match(r.out, /^total +[\d,]+ +[\d,]+ +0 +[\d,]+ +[\d,]+ +[\d,]+$/m);
    // The priced model: live and batch (half price).
    const m = /^fake-a +[\d,]+ +[\d,]+ +[\d,]+ +1 \/ 4 +([\d.]+) +([\d.]+)$/m.exec(r.out);
    assert.ok(m, r.out);
    assert.ok(Math.abs(Number(m[2]) - Number(m[1]) / 2) < 0.0002 + Number(m[1]) * 0.01);
    assert.match(r.out, /^no prices: data\/models\.json has none for fake-b/m);
    assert.match(r.out, /judge: [\d,]+ distinct requests foreseen/);
    assert.match(r.out, /A pilot first: .* sends [\d,]+ requests/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("deno task plan refuses bad input in one line", async () => {
  for (
    const [args, message] of [
      [["--sample", "200"], /--sample: "200" is not a valid|--sample: .*100/],
      [["--model", "nope"], /--model: unknown model "nope"/],
      [["--api-key-env", "K"], /--api-key-env: applies with --base-url only/],
    ] as const
  ) {
    const r = await plan([...args]);
    assert.equal(r.code, 2, r.err);
    assert.equal(r.err.split("\n").length, 1, r.err);
    assert.match(r.err, message);
  }
});
