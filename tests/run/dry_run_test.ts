/**
 * `deno task sweep --dry-run` against the local test server: it sends nothing, and what it
 * counts (requests by phase, prompt and completion tokens) is within 10% of what the server
 * then counts in the real run.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { isAgentSystemPrompt } from "../../lib/agents/memory_prompt.ts";
import { RANKER_PROMPT } from "../../lib/stages/writing/rankers/llm.ts";
import { WRITER_PROMPT } from "../../lib/stages/writing/writers/llm.ts";
import {
  type ChatBody,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { full } from "../support/tiers.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;
const KEY = "sk-dry-run-test-key-000000000000";

async function sweep(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWEEP, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: KEY },
  }).output();
  return {
    code,
    out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr),
  };
}

function phaseOf(body: ChatBody): string {
  const system = body.messages.find((m) => m.role === "system")?.content;
  return system === RANKER_PROMPT
    ? "ranking"
    : system === WRITER_PROMPT
    ? "writing"
    : typeof system === "string" && isAgentSystemPrompt(system)
    ? "agent"
    : "judge";
}

/**
 * Test models that count requests by phase, write each unit as its own record (as a writer
 * should) and answer in their own words (two models rarely word an answer alike).
 */
function countingServer() {
  const byPhase: Record<string, number> = {};
  /** Prompt tokens by phase as the server bills them (messages, JSON schema, tools). */
  const tokensByPhase: Record<string, number> = {};
  const server = startFakeOpenAIServer({
    // Providers bill the JSON schema as prompt tokens: the plan must count it.
    modes: { billSchema: true },
    reply: (body) => {
      const phase = phaseOf(body);
      byPhase[phase] = (byPhase[phase] ?? 0) + 1;
      const schema = body.response_format?.type === "json_schema"
        ? JSON.stringify(body.response_format.json_schema).length
        : 0;
      tokensByPhase[phase] = (tokensByPhase[phase] ?? 0) +
        ((JSON.stringify(body.messages).length + schema) >> 2);
      if (phase === "agent") return `${majorityReply(body)} (${body.model} says)`;
      if (phase !== "writing") return majorityReply(body);
      const unit = body.messages.at(-1)!.content.split("\n\n")[0].replace(/^\(\w+\)\s*/, "");
      return /\{"record"/.test(body.messages[0].content) ? JSON.stringify({ record: unit }) : unit;
    },
  });
  return { server, byPhase, tokensByPhase };
}

/** The plan's rows: phase -> [asked, unique, cached, to send, prompt tok, completion tok]. */
function planTable(out: string): Record<string, number[]> {
  const table: Record<string, number[]> = {};
  for (
    const m of out.matchAll(
      /^(ranking|writing|agent|judge|counterfactual|total)((?: +[\d,]+){6})$/gm,
    )
  ) {
    table[m[1]] = m[2].trim().split(/ +/).map((x) => Number(x.replace(/,/g, "")));
  }
  return table;
}

/** What the server reported for every reply the cache holds (one per distinct request). */
function served(cachePath: string) {
  const db = new DatabaseSync(cachePath);
  try {
    const rows = db.prepare("SELECT value FROM responses").all() as { value: string }[];
    const values = rows.map((r) => JSON.parse(r.value));
    return {
      replies: values.length,
      promptTokens: values.reduce((s, v) => s + (v.promptTokens ?? 0), 0),
      completionTokens: values.reduce((s, v) => s + (v.completionTokens ?? 0), 0),
    };
  } finally {
    db.close();
  }
}

const within = (estimate: number, actual: number, what: string, share = 0.1) =>
  assert.ok(
    Math.abs(estimate - actual) <= share * actual,
    `${what}: estimated ${estimate}, counted ${actual} (more than ${share * 100}% off)`,
  );

async function fixture() {
  const dir = await Deno.makeTempDir();
  const data = `${dir}/instances.json`;
  const instances = Array.from(
    { length: 6 },
    (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 6, riskUnits: 4, bank: 20 }),
  );
  await Deno.writeTextFile(data, JSON.stringify({ dataset: "synthetic", instances }));
  return { dir, data };
}

function options(data: string, baseUrl: string, cache: string, scope = "trajectory") {
  // Every model-backed phase: the agent's own ranker, an LLM writer and an LLM judge. The
  // judge reads the trajectory (the paper's setting): its requests merge only where whole
  // trajectories are equal, as the plan counts them.
  return [
    "--stage",
    "writing",
    "--grid",
    "0,0.3,0.6,1",
    "--dataset",
    data,
    "--agent",
    "llm:fake-a,llm:fake-b",
    "--writer",
    "llm:fake-w",
    "--judge",
    "llm:fake-j",
    "--judge-scope",
    scope,
    "--base-url",
    baseUrl,
    "--bank-size",
    "20",
    "--cache",
    cache,
    "--quiet",
  ];
}

full.test("--dry-run sends nothing, writes nothing, and its counts are within 10% of the real run", async () => {
  const { server, byPhase, tokensByPhase } = countingServer();
  const { dir, data } = await fixture();
  try {
    const cache = `${dir}/cache.sqlite`;
    const args = options(data, server.baseUrl, cache);
    const dry = await sweep([...args, "--dry-run", "--out", `${dir}/rows.jsonl`]);
    assert.equal(dry.code, 0, dry.out);
    assert.equal(server.requests, 0, "a dry run makes no request");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["instances.json"]);
    assert.match(dry.out, /^DRY RUN: nothing was sent and no file was written\.$/m);
    assert.match(
      dry.out,
      /4 operating points \(thetaW = 0, 0\.3, 0\.6, 1\), 6 instances, 2 attacks, 2 agents: 96 pairs x 1 trial = 192 rows/,
    );
    const plan = planTable(dry.out);
    assert.deepEqual(Object.keys(plan), [
      "ranking",
      "writing",
      "agent",
      "judge",
      "counterfactual",
      "total",
    ]);
    assert.equal(plan.counterfactual[0], 0);
    assert.equal(plan.agent[0], 192, "every row asks the agent once");

    const real = await sweep([...args, "--out", `${dir}/rows.jsonl`]);
    assert.equal(real.code, 0, real.out);
    const counted = served(cache);
    assert.equal(counted.replies, server.requests, "no faults: one request per distinct call");
    // Requests: per phase and in total (the dry run's stand-in replies reproduce the run's
    // merging of identical requests).
    for (const phase of ["ranking", "writing", "agent", "judge"]) {
      within(plan[phase][3], byPhase[phase] ?? 0, `${phase} requests`);
    }
    within(plan.total[3], server.requests, "requests");
    within(plan.total[4], counted.promptTokens, "prompt tokens");
    // Phase by phase, the response_format schema included (half the writer's prompt).
    for (const phase of ["ranking", "writing", "judge"]) {
      within(plan[phase][4], tokensByPhase[phase] ?? 0, `${phase} prompt tokens`, 0.15);
    }
    within(
      plan.total[4] + plan.total[5],
      counted.promptTokens + counted.completionTokens,
      "tokens",
    );
    console.log(
      `dry run: ${plan.total[3]} requests, ${plan.total[4]} prompt + ${plan.total[5]} completion ` +
        `tokens; real run: ${server.requests} requests, ${counted.promptTokens} prompt + ` +
        `${counted.completionTokens} completion tokens`,
    );

    // Planned again after the run: everything is cached, nothing is left to send.
    const again = planTable((await sweep([...args, "--dry-run"])).out);
    assert.equal(again.total[3], 0);
    assert.equal(again.total[2], plan.total[1], "every planned request is now cached");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("--dry-run after a small pilot uses the cached replies' lengths: completions within 10% too", async () => {
  const { server } = countingServer();
  const { dir, data } = await fixture();
  try {
    const cache = `${dir}/cache.sqlite`;
    const args = options(data, server.baseUrl, cache);
    const pilot = await sweep([...args, "--limit", "1", "--out", `${dir}/pilot.jsonl`]);
    assert.equal(pilot.code, 0, pilot.out);
    const before = { requests: server.requests, ...served(cache) };

    const dry = await sweep([...args, "--dry-run"]);
    assert.equal(dry.code, 0, dry.out);
    assert.equal(server.requests, before.requests, "a dry run makes no request");
    assert.match(dry.out, /scaled by each model's own count/);
    const plan = planTable(dry.out);
    assert.ok(plan.total[2] > 0, "the pilot's replies are cache hits");

    const real = await sweep([...args, "--out", `${dir}/rows.jsonl`]);
    assert.equal(real.code, 0, real.out);
    const after = served(cache);
    within(plan.total[3], server.requests - before.requests, "requests");
    within(plan.total[4], after.promptTokens - before.promptTokens, "prompt tokens");
    within(plan.total[5], after.completionTokens - before.completionTokens, "completion tokens");
    console.log(
      `after a pilot: dry run ${plan.total[3]} requests, ${plan.total[4]} prompt + ` +
        `${plan.total[5]} completion tokens; real run ${server.requests - before.requests} ` +
        `requests, ${after.promptTokens - before.promptTokens} prompt + ` +
        `${after.completionTokens - before.completionTokens} completion tokens`,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("--dry-run with the memory-blind judge: other phases within 10%, judge requests planned from the foreseeable answers, with their upper bound", async () => {
  const { server, byPhase } = countingServer();
  const { dir, data } = await fixture();
  try {
    const cache = `${dir}/cache.sqlite`;
    const args = options(data, server.baseUrl, cache, "answer");
    const dry = await sweep([...args, "--dry-run"]);
    assert.equal(dry.code, 0, dry.out);
    assert.equal(server.requests, 0, "a dry run makes no request");
    const foreseen = /judge: (\d+) distinct requests foreseen/.exec(dry.out);
    const most = /at most ([\d,]+) \(one per distinct agent answer/.exec(dry.out);
    assert.ok(foreseen && most, dry.out);
    const plan = planTable(dry.out);
    const real = await sweep([...args, "--out", `${dir}/rows.jsonl`]);
    assert.equal(real.code, 0, real.out);
    for (const phase of ["ranking", "writing", "agent"]) {
      within(plan[phase][3], byPhase[phase] ?? 0, `${phase} requests`);
    }
    // One judge request per foreseeable answer (question, agent, trial, evidence seen): the
    // test models answer by the records they see, so the plan is close (they give a context
    // with both records the risk record's answer, so a little over); never more judge requests
    // than the stated bound.
    const sent = byPhase.judge ?? 0;
    assert.ok(plan.judge[3] >= sent && plan.judge[3] <= 1.5 * sent, `${plan.judge[3]} vs ${sent}`);
    assert.ok(Number(most![1].replace(/,/g, "")) >= (byPhase.judge ?? 0));
    within(plan.total[3], server.requests, "requests");
    console.log(
      `memory-blind judge: planned ${plan.judge[3]} judge requests (at most ${most![1]}), sent ` +
        `${byPhase.judge}; total planned ${plan.total[3]}, sent ${server.requests}`,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

full.test("--dry-run counts the tool placement's search calls and counterfactual reruns at their most", async () => {
  const server = startFakeOpenAIServer({});
  const { dir, data } = await fixture();
  try {
    const cache = `${dir}/cache.sqlite`;
    const base = options(data, server.baseUrl, cache).filter((a) => a !== "llm:fake-a,llm:fake-b");
    const args = [
      ...base.slice(0, base.indexOf("--writer")),
      "llm:fake-a",
      ...base.slice(base.indexOf("--writer")),
      "--memory-placement",
      "tool",
      "--counterfactual",
      "loo",
    ];
    const plain = planTable((await sweep([...args.slice(0, -2), "--dry-run"])).out);
    const dry = await sweep([...args, "--dry-run"]);
    assert.equal(dry.code, 0, dry.out);
    assert.equal(server.requests, 0);
    const plan = planTable(dry.out);
    // Two requests per answer (the forced search, then the answer).
    assert.equal(plan.agent[0], 2 * 96);
    assert.ok(plan.counterfactual[3] > 0);
    assert.deepEqual(plan.agent, plain.agent, "reruns are counted in their own phase");
    const real = await sweep([...args, "--out", `${dir}/rows.jsonl`, "--allow-errors"]);
    assert.equal(real.code, 0, real.out);
    // Every planned ordinary request is sent; reruns are planned for every trial they could
    // follow (a real verdict selects fewer).
    assert.ok(plan.total[3] >= server.requests, `${plan.total[3]} < ${server.requests}`);
    within(plan.total[3] - plan.counterfactual[3], plain.total[3], "ordinary requests", 0);
    console.log(
      `tool + loo: planned ${plan.total[3]} (${plan.counterfactual[3]} counterfactual), sent ` +
        `${server.requests}`,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
