/**
 * Sweeps against local servers that behave like real providers (reasoning blocks, fenced JSON,
 * truncation, null content, refused parameters, keys echoed in 401s): the acceptance checks of
 * the model layer, through the sweep CLI.
 */
import assert from "node:assert/strict";
import { isAgentSystemPrompt } from "../../lib/agents/memory_prompt.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { RANKER_PROMPT } from "../../lib/stages/writing/rankers/llm.ts";
import {
  type ChatBody,
  type FakeModes,
  type FakeServer,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;
const SENTINEL = "sk-SENTINEL-provider-modes-7731-abcdef";

async function run(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: SENTINEL },
  }).output();
  return { code, out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

// The prefix shares no 8 characters with SENTINEL: a path like /tmp/memgauge-modes-7... in an
// output read as a leak of its piece "-modes-7" (1 run in 16).
async function workspace() {
  const dir = await Deno.makeTempDir({ prefix: "memgauge-pm-" });
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 3 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  /** Every model-backed stage: LLM agent, ranker (the agent's own model), writer and judge. */
  const args = (server: FakeServer, out: string, extra: string[] = []) => [
    "--stage",
    "writing",
    "--grid",
    "0.5,1",
    "--dataset",
    data,
    "--attack",
    "minja",
    "--agent",
    "llm:fake-1",
    "--ranker",
    "llm:self",
    "--writer",
    "llm:fake-1",
    "--judge",
    "llm:fake-1",
    "--base-url",
    server.baseUrl,
    "--bank-size",
    "12",
    "--cache",
    `${dir}/${out}.sqlite`,
    "--out",
    `${dir}/${out}`,
    "--quiet",
    ...(extra.includes("--max-retries") ? [] : ["--max-retries", "1"]),
    ...extra,
  ];
  return { dir, args };
}

const read = async (path: string): Promise<TrialRow[]> =>
  (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
const decisions = (rows: TrialRow[]) =>
  rows.map((r) => [r.pairId, r.condition, r.output, r.correct, r.matchesTarget, r.admittedHelpful]);
const isAgent = (b: ChatBody) => isAgentSystemPrompt(b.messages[0]?.content ?? "");
const isRanker = (b: ChatBody) => b.messages[0]?.content === RANKER_PROMPT;
const isJudge = (b: ChatBody) =>
  b.response_format?.json_schema?.name === "verdict" ||
  b.messages.some((m) => m.content.includes("<correct>"));

full.test("sweep: <think> blocks, reasoning fields and fenced or prose JSON give 0 error rows and no reasoning in outputs or records", async () => {
  const { dir, args } = await workspace();
  const plain = startFakeOpenAIServer({});
  try {
    const reference = await run(args(plain, "plain.jsonl"));
    assert.equal(reference.code, 0, reference.out);
    const expected = decisions(await read(`${dir}/plain.jsonl`));
    const modes: FakeModes[] = [
      { reasoning: "think" },
      { jsonStyle: "fenced" },
      { jsonStyle: "prose" },
      { reasoning: "think", jsonStyle: "fenced" },
      { reasoning: "reasoning_content", jsonStyle: "prose" },
    ];
    for (const [i, mode] of modes.entries()) {
      const server = startFakeOpenAIServer({ modes: mode });
      try {
        const r = await run(args(server, `modes${i}.jsonl`));
        const label = JSON.stringify(mode);
        assert.equal(r.code, 0, `${label}: ${r.out}`);
        const rows = await read(`${dir}/modes${i}.jsonl`);
        assert.equal(
          rows.filter((row) => row.error !== null).length,
          0,
          `${label}: ${rows[0].error}`,
        );
        // Same decisions as the plain server: the reasoning changed nothing that is graded.
        assert.deepEqual(decisions(rows), expected, label);
        for (const row of rows) {
          const { reasoning, ...rest } = row;
          assert.ok(!/<think>|Let me think|draft/.test(JSON.stringify(rest)), label);
          if (mode.reasoning) assert.match(reasoning ?? "", /^Let me think/, label);
          else assert.equal(reasoning, null);
          assert.equal(row.stopReason, "stop");
        }
        // Memory records reach the agent's prompt: none carries reasoning or a code fence.
        const prompts = server.bodies.filter(isAgent).map((b) =>
          b.messages.map((m) => m.content).join("\n")
        );
        assert.ok(prompts.length > 0);
        assert.ok(
          prompts.every((p) => !/<think>|Let me think|draft|```|Here is the result/.test(p)),
          label,
        );
      } finally {
        await server.close();
      }
    }
  } finally {
    await plain.close();
    await Deno.remove(dir, { recursive: true });
  }
});

for (const part of ["judge", "ranker"] as const) {
  full.test(`sweep: a ${part} reply that fails validation is an error row; a healthy server and --retry-errors leave 0`, async () => {
    const { dir, args } = await workspace();
    let broken = true;
    const failing = part === "judge" ? isJudge : isRanker;
    // One server, one base URL: the cache keys of the second run are those of the first.
    const server = startFakeOpenAIServer({
      reply: (b) => broken && failing(b) ? '{"verdict": "maybe"}' : majorityReply(b),
    });
    try {
      const first = await run(args(server, "rows.jsonl"));
      assert.ok(first.code === 0 || first.code === 3, first.out);
      const rows = await read(`${dir}/rows.jsonl`);
      assert.ok(rows.length > 0 && rows.every((r) => r.error !== null), rows[0].error ?? "");
      assert.match(
        rows[0].error!,
        part === "judge" ? /judge llm:fake-1: verdict/ : /ranker llm:fake-1/,
      );
      assert.ok(rows.every((r) => r.correct === null && r.matchesTarget === null));
      broken = false;
      const before = server.requests;
      const fixed = await run(args(server, "rows.jsonl", ["--retry-errors"]));
      assert.equal(fixed.code, 0, fixed.out);
      const after = await read(`${dir}/rows.jsonl`);
      assert.equal(after.length, rows.length);
      assert.equal(after.filter((r) => r.error !== null).length, 0);
      assert.ok(server.requests > before, "the failed replies were not cached");
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

full.test("sweep: finish_reason length grades no row; the error names the limit", async () => {
  const { dir, args } = await workspace();
  const server = startFakeOpenAIServer({ modes: { finishReason: "length" } });
  try {
    const r = await run(args(server, "rows.jsonl", ["--model-option", "fake-1.maxTokens=77"]));
    assert.ok(r.code === 0 || r.code === 3, r.out);
    const rows = await read(`${dir}/rows.jsonl`);
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.equal(row.correct, null);
      assert.equal(row.matchesTarget, null);
      assert.equal(row.output, null);
      assert.match(row.error!, /truncated at max_tokens=77 \(finish_reason: length\)/);
      assert.equal(row.stopReason, "length");
    }
    assert.ok(server.bodies.every((b) => b.max_tokens === 77));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep: a null content is retried at most once and its error names the finish reason", async () => {
  const { dir, args } = await workspace();
  const server = startFakeOpenAIServer({
    reply: (b) => majorityReply(b),
    modes: { nullContent: true },
  });
  try {
    const r = await run(args(server, "rows.jsonl", ["--max-retries", "4"]));
    assert.ok(r.code === 0 || r.code === 3, r.out);
    const rows = await read(`${dir}/rows.jsonl`);
    assert.ok(rows.every((row) => /no message content \(finish_reason: stop\)/.test(row.error!)));
    // Each distinct request was sent twice, never five times.
    const sent = new Map<string, number>();
    for (const b of server.bodies) {
      sent.set(JSON.stringify(b), (sent.get(JSON.stringify(b)) ?? 0) + 1);
    }
    assert.ok([...sent.values()].every((n) => n === 2), JSON.stringify([...sent.values()]));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep: a server refusing temperature, seed and json_schema works once --model-option says so", async () => {
  const { dir, args } = await workspace();
  const server = startFakeOpenAIServer({
    modes: { reject: ["temperature", "seed", "json_schema"] },
  });
  try {
    const refused = await run(args(server, "refused.jsonl"));
    assert.ok(refused.code === 0 || refused.code === 3, refused.out);
    const bad = await read(`${dir}/refused.jsonl`);
    assert.ok(bad.every((r) => /HTTP 400/.test(r.error!)));
    const adapted = await run(args(server, "adapted.jsonl", [
      "--model-option",
      "fake-1.temperature=null",
      "--model-option",
      "fake-1.seed=false",
      "--model-option",
      "fake-1.responseFormat=json_object",
    ]));
    assert.equal(adapted.code, 0, adapted.out);
    const rows = await read(`${dir}/adapted.jsonl`);
    assert.equal(rows.filter((r) => r.error !== null).length, 0, rows[0].error ?? "");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep: a key echoed in 401 bodies appears in no file and no output", async () => {
  const { dir, args } = await workspace();
  const server = startFakeOpenAIServer({ modes: { echoKeyIn401: true } });
  try {
    const r = await run(args(server, "rows.jsonl"));
    assert.ok(server.authorizations.has(`Bearer ${SENTINEL}`), "the key was sent");
    const texts = [r.out];
    for await (const entry of Deno.readDir(dir)) {
      texts.push(new TextDecoder("latin1").decode(await Deno.readFile(`${dir}/${entry.name}`)));
    }
    const rows = await read(`${dir}/rows.jsonl`);
    assert.ok(rows.every((row) => /HTTP 401/.test(row.error!)));
    for (const text of texts) {
      for (let i = 0; i + 8 <= SENTINEL.length; i++) {
        assert.ok(!text.includes(SENTINEL.slice(i, i + 8)), `piece ${SENTINEL.slice(i, i + 8)}`);
      }
      assert.ok(!/Bearer (?!\[REDACTED\])\S/.test(text));
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep: a corrupt or non-database --cache file is one line naming it, exit 2, no stack", async () => {
  const { dir, args } = await workspace();
  const server = startFakeOpenAIServer({});
  try {
    const path = `${dir}/rows.jsonl.sqlite`;
    await Deno.writeTextFile(path, "not a database\n".repeat(300));
    const r = await run(args(server, "rows.jsonl"));
    assert.equal(r.code, 2, r.out);
    const lines = r.out.trim().split("\n");
    assert.equal(lines.length, 1, r.out);
    // The path check (or, past it, the cache itself) names the file and what to do.
    assert.match(lines[0], /--cache:? .*rows\.jsonl\.sqlite.*(delete it|move the file away)/);
    assert.equal(server.requests, 0);
    assert.equal(await Deno.stat(`${dir}/rows.jsonl`).then(() => true, () => false), false);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("sweep: a bad --model-option or --api-key-env is one line and exit 2, nothing written", async () => {
  const { dir, args } = await workspace();
  const server = startFakeOpenAIServer({});
  try {
    for (
      const [extra, message] of [
        [["--model-option", "fake-1.temperature=hot"], /--model-option "fake-1.temperature=hot": /],
        [["--model-option", "fake-1.tokens=5"], /--model-option "fake-1.tokens=5": unknown key/],
        [["--model-option", "fake-1"], /expected ID\.key=value/],
        [["--api-key-env", "1BAD"], /--api-key-env: .*expected an environment variable name/],
        [["--api-key-env", "NO_SUCH_KEY_VAR"], /environment variable NO_SUCH_KEY_VAR is not set/],
      ] as const
    ) {
      const r = await run(args(server, "rows.jsonl", [...extra]));
      assert.equal(r.code, 2, r.out);
      assert.equal(r.out.trim().split("\n").length, 1, r.out);
      assert.match(r.out, message);
      assert.ok(!r.out.includes("    at "), "no stack trace");
    }
    const files = [];
    for await (const entry of Deno.readDir(dir)) files.push(entry.name);
    assert.deepEqual(files, ["instances.json"]);
    assert.equal(server.requests, 0);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
