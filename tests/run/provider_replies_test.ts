/**
 * Replies as providers send them (issue 21, item 4): a refusal is an answer (an abstention,
 * with its text and a `refusal` flag), Mistral's content arrays are joined, an HTTP 400 is
 * summarised by its status and provider code (never as a "truncated reply") with the model
 * option that changes the refused request, and a cache that cannot be written (a full disk)
 * never turns a received answer into an error (issue 22).
 */
import assert from "node:assert/strict";
import { llmJudge } from "../../lib/judges/llm_judge.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { ModelClient } from "../../lib/models/model_client.ts";
import { type CacheWriteProblem, ResponseCache } from "../../lib/models/response_cache.ts";
import { errorKind } from "../../lib/run/error_summary.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { sweep } from "../../lib/run/sweep.ts";
import {
  type ChatBody,
  type FakeModes,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const instances = Array.from(
  { length: 4 },
  (_, i) => syntheticInstance({ id: `p${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
);
const isJudge = (b: ChatBody) => b.response_format?.json_schema?.name === "verdict";

async function judgedSweep(options: { modes?: FakeModes; cache?: ResponseCache }) {
  const server = startFakeOpenAIServer({ modes: options.modes });
  const dir = await Deno.makeTempDir({ prefix: "memgauge-replies-" });
  const models = modelSetup({
    cachePath: `${dir}/cache.sqlite`,
    ...(options.cache && { cache: options.cache }),
    baseUrl: server.baseUrl,
    judge: "llm:self",
    maxRetries: 1,
    env: { OPENAI_API_KEY: "sk-replies-test" },
  });
  const once = () =>
    sweep({
      stage: "writing",
      grid: [0.5, 1],
      base: { ranker: "chronological", bankSize: 12 },
      instances,
      dataset: "synthetic",
      agents: models.agents(["llm:fake-1"]),
      judge: models.judge,
    });
  try {
    const rows = await once();
    const requests = server.requests;
    const again = await once();
    return { rows, again, bodies: server.bodies as ChatBody[], requests, after: server.requests };
  } finally {
    models.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a refusal is an answer: graded as an abstention with its text and a refusal flag, no judge call, cached", async () => {
  const { rows, again, bodies, requests, after } = await judgedSweep({
    modes: { refusal: "agent" },
  });
  assert.equal(rows.length, 32);
  for (const r of rows) {
    assert.equal(r.error, null, r.error ?? "");
    assert.equal(r.refusal, true);
    assert.match(r.output!, /can't help with that/);
    assert.deepEqual([r.correct, r.matchesTarget, r.hedged], [false, false, false]);
  }
  assert.equal(bodies.filter(isJudge).length, 0, "an abstention needs no judge");
  assert.equal(after, requests, "refusals are cached: a rerun asks nothing");
  assert.deepEqual(again.map((r) => r.output), rows.map((r) => r.output));
});

Deno.test("a judge that refuses gives no verdict: an error naming the refusal, not cached", async () => {
  const server = startFakeOpenAIServer({ modes: { refusal: "all" } });
  try {
    const client = new ModelClient({
      endpoint: {
        id: "j",
        model: "j",
        baseUrl: server.baseUrl,
        apiKey: "k",
        seed: true,
        extra: {},
      },
      maxRetries: 0,
    });
    const judge = llmJudge({ client });
    const instance = { query: "How old is Rex?", answer: "4", target: "6" } as Parameters<
      typeof judge.judge
    >[0]["instance"];
    let message = "";
    await assert.rejects(judge.judge({ instance, output: "Four." }), (e: Error) => {
      message = `${e.name}: ${e.message}`;
      return /j: the model refused \(refusal: "I'm sorry/.test(e.message);
    });
    assert.equal(errorKind(message), "refusal");
    await assert.rejects(judge.judge({ instance, output: "Four." }));
    assert.equal(server.requests, 2, "not cached: asked again");
  } finally {
    await server.close();
  }
});

Deno.test("Mistral content arrays are joined, their thinking parts kept as reasoning", async () => {
  const plain = await judgedSweep({});
  const parts = await judgedSweep({ modes: { contentParts: true, reasoning: "reasoning" } });
  assert.ok(parts.rows.every((r) => r.error === null), parts.rows.find((r) => r.error)?.error!);
  assert.deepEqual(parts.rows.map((r) => r.output), plain.rows.map((r) => r.output));
  assert.deepEqual(
    parts.rows.map((r) => [r.correct, r.matchesTarget]),
    plain.rows.map((r) => [r.correct, r.matchesTarget]),
  );
  assert.ok(parts.rows.every((r) => /^Let me think\./.test(r.reasoning ?? "")));
  assert.ok(parts.rows.every((r) => r.refusal === false));
});

Deno.test("a full disk under the cache: every received answer is a row, the failure is named once as a cache write failure", async () => {
  for (const maxPages of [1, 8]) {
    const problems: CacheWriteProblem[] = [];
    const dir = await Deno.makeTempDir({ prefix: "memgauge-full-" });
    const cache = new ResponseCache({
      path: `${dir}/cache.sqlite`,
      maxPages,
      onWriteFailure: (p) => problems.push(p),
    });
    try {
      const { rows, requests, after } = await judgedSweep({ cache });
      assert.ok(rows.every((r: TrialRow) => r.error === null), rows.find((r) => r.error)?.error!);
      assert.equal(problems.length, 1, `pages ${maxPages}: reported once`);
      assert.match(problems[0].message, /full/);
      assert.ok(!/not a memgauge response cache/.test(problems[0].message));
      assert.ok(cache.writeProblem!.unstored > 0);
      // This process still has what it received: the rerun in it asks nothing again.
      assert.equal(after, requests);
    } finally {
      cache.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function cli(args: string[]) {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "sk-replies-test" },
  }).output();
  return { code, err: new TextDecoder().decode(stderr) };
}

full.test("an HTTP 400 is summarised by status and provider code, with the model option that changes the request and the command that runs it", async () => {
  for (
    const [reject, kind, option] of [
      [
        "max_tokens",
        "HTTP 400 unsupported_parameter (max_tokens)",
        "fake-1.maxTokensParam=max_completion_tokens",
      ],
      [
        "json_schema",
        "HTTP 400 invalid_parameter (response_format)",
        "fake-1.responseFormat=json_object",
      ],
    ] as const
  ) {
    const server = startFakeOpenAIServer({ modes: { reject: [reject] } });
    const dir = await Deno.makeTempDir({ prefix: "memgauge-400-" });
    try {
      const data = `${dir}/instances.json`;
      await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
      const args = [
        "--stage",
        "writing",
        "--grid",
        "1",
        "--dataset",
        data,
        "--agent",
        "llm:fake-1",
        "--base-url",
        server.baseUrl,
        "--bank-size",
        "12",
        "--cache",
        `${dir}/cache.sqlite`,
        "--out",
        `${dir}/rows.jsonl`,
        "--quiet",
      ];
      const first = await cli(args);
      assert.equal(first.code, 3, first.err);
      assert.match(
        first.err,
        new RegExp(`error rows \\(${kind.replace(/[()]/g, "\\$&")}: \\d+\\)`),
      );
      assert.doesNotMatch(first.err, /truncated reply/);
      assert.match(first.err, new RegExp(`--model-option ${option.replace(/\./g, "\\.")} sends`));
      // The printed command changes the request (not --retry-errors with the same options).
      const line = /Run again with the request changed \(a new run\): deno task sweep (.*)$/m
        .exec(first.err)?.[1];
      assert.ok(line, first.err);
      assert.doesNotMatch(first.err, /Rerun only them/);
      const fixed = await cli(line!.split(" ").filter((a) => a !== ""));
      assert.equal(fixed.code, 0, fixed.err);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});
