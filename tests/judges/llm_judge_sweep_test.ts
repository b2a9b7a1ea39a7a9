/**
 * The LLM judge in sweeps against the local server: one judge call per judged trial, no
 * retrieved record in any judge request (memory-blind by default, checked on every request body
 * the server received), and the judge's prompt size against the agent's on LoCoMo.
 */
import assert from "node:assert/strict";
import { isAgentSystemPrompt } from "../../lib/agents/memory_prompt.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import type { ModelClient } from "../../lib/models/model_client.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import {
  type ChatBody,
  type FakeModes,
  majorityReply,
  startFakeOpenAIServer,
} from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";
import { BENCHMARK_TESTS, DATA_DIR, FIXTURE_DIR } from "../data/_built.ts";

const isJudge = (b: ChatBody) => b.response_format?.json_schema?.name === "verdict";
const isAgent = (b: ChatBody) =>
  typeof b.messages[0]?.content === "string" && isAgentSystemPrompt(b.messages[0].content);

/** Every record text an agent request carried (system prompt, user turn or tool result). */
function recordTexts(bodies: ChatBody[]): Set<string> {
  const texts = new Set<string>();
  for (const body of bodies.filter(isAgent)) {
    for (const m of body.messages) {
      for (const block of (m.content ?? "").matchAll(/<memories>\n([\s\S]*?)\n<\/memories>/g)) {
        for (const entry of block[1].split(/^\[\d+\] source: .*$/m)) {
          if (entry.trim() !== "") texts.add(entry.trim());
        }
      }
    }
  }
  return texts;
}

/** Run a sweep over the fake server with an llm: agent and the default judge (llm:self). */
async function judgedSweep(options: {
  instances: Instance[];
  modes?: FakeModes;
  judgeScope?: "answer" | "trajectory";
  memoryPlacement?: "system" | "user" | "tool";
  stage?: "writing" | "retrieval";
  grid?: number[];
  dataset?: string;
}) {
  const server = startFakeOpenAIServer({ modes: options.modes });
  const dir = await Deno.makeTempDir();
  const models = modelSetup({
    cachePath: `${dir}/cache.sqlite`,
    baseUrl: server.baseUrl,
    judge: "llm:self",
    judgeScope: options.judgeScope,
    memoryPlacement: options.memoryPlacement,
    env: { OPENAI_API_KEY: "sk-test" },
  });
  try {
    const agents = models.agents(["llm:fake-agent"]);
    // Count the judge's calls on its client (the cache may answer some without a request).
    let judgeCalls = 0;
    const judge = models.judge.forAgent!(agents[0] as typeof agents[0] & { client: ModelClient });
    const client = (agents[0] as unknown as { client: ModelClient }).client;
    const chat = client.chat.bind(client);
    client.chat = (request) => {
      if (
        (request.responseFormat as { json_schema?: { name?: string } })?.json_schema?.name ===
          "verdict"
      ) {
        judgeCalls++;
      }
      return chat(request);
    };
    const rows = await sweep({
      stage: options.stage ?? "writing",
      grid: options.grid ?? [0.5, 1],
      base: { ranker: "usefulness", bankSize: options.instances[0].background.length },
      instances: options.instances,
      dataset: options.dataset ?? "synthetic",
      agents,
      judge: models.judge,
    });
    return { rows, bodies: [...server.bodies] as ChatBody[], judgeCalls, judge };
  } finally {
    models.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const synthetic = Array.from(
  { length: 6 },
  (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 12 }),
);

for (const memoryPlacement of ["system", "user", "tool"] as const) {
  Deno.test(`LLM judge (${memoryPlacement} placement): one judge call per judged trial, no retrieved record in any judge request`, async () => {
    const { rows, bodies, judgeCalls, judge } = await judgedSweep({
      instances: synthetic,
      memoryPlacement,
      modes: { reasoning: "reasoning_content" },
    });
    assert.ok(rows.length > 0 && rows.every((r) => r.error === null), rows[0].error ?? "");
    assert.equal(judgeCalls, rows.length, "one judge call per judged trial");
    const judgeBodies = bodies.filter(isJudge);
    assert.ok(judgeBodies.length > 0 && judgeBodies.length <= rows.length);
    const records = recordTexts(bodies);
    assert.ok(records.size > 10, `records seen by the agent: ${records.size}`);
    for (const body of judgeBodies) {
      const text = JSON.stringify(body);
      for (const record of records) assert.ok(!text.includes(record), `judge saw: ${record}`);
      assert.ok(!text.includes("<memories>"));
    }
    // Neither the memory nor the agent's reasoning reaches the judge.
    assert.ok(judgeBodies.every((b) => !b.messages[1].content.includes("<reasoning>")));
    assert.ok(judgeBodies.every((b) => !b.messages[1].content.includes("Let me think")));
    assert.ok(rows.every((r) =>
      r.judgeModel === "fake-agent" && r.judgeScope === "answer" &&
      r.judgePromptHash === judge.promptHash && r.memoryPlacement === memoryPlacement
    ));
    // The scripted judge grades the answer as the matcher would.
    for (const r of rows) {
      assert.equal(r.correct, /alpha 11/i.test(r.output!) && !/omega 99/i.test(r.output!));
    }
  });
}

/** The judge request bodies of a sweep whose agent replies in a reasoning style. */
async function judgeBodiesFor(options: { modes?: FakeModes; visibleReasoning?: boolean }) {
  const server = startFakeOpenAIServer({
    modes: options.modes,
    // A visible <reasoning> section that quotes the risk record, then the answer.
    reply: options.visibleReasoning
      ? (b) =>
        b.response_format
          ? majorityReply(b)
          : `<reasoning>One record says the value is omega 99.</reasoning>\n${majorityReply(b)}`
      : undefined,
  });
  const dir = await Deno.makeTempDir();
  const models = modelSetup({
    cachePath: `${dir}/cache.sqlite`,
    baseUrl: server.baseUrl,
    judge: "llm:self",
    env: { OPENAI_API_KEY: "sk-test" },
  });
  try {
    const rows = await sweep({
      stage: "writing",
      grid: [1],
      base: { ranker: "usefulness", bankSize: 12, thetaR: 1 },
      instances: synthetic,
      dataset: "synthetic",
      attacks: ["minja"],
      agents: models.agents(["llm:fake-agent"]),
      judge: models.judge,
    });
    const deterministic = await Promise.all(
      rows.map((r) =>
        deterministicJudge.judge({
          instance: synthetic.find((i) => i.id === r.instanceId)!,
          output: r.output!,
        })
      ),
    );
    return { rows, bodies: (server.bodies as ChatBody[]).filter(isJudge), deterministic };
  } finally {
    models.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("memory-blind judge: reasoning that quotes the risk record never reaches it (reasoning_content, reasoning, <think>, a visible <reasoning> section)", async () => {
  const plain = await judgeBodiesFor({});
  const texts = (bodies: ChatBody[]) =>
    bodies.map((b) => b.messages.map((m) => m.content).join("\n")).sort();
  for (
    const [name, options] of [
      ["reasoning_content", { modes: { reasoning: "reasoning_content" } }],
      ["reasoning", { modes: { reasoning: "reasoning" } }],
      ["think", { modes: { reasoning: "think" } }],
      ["visible <reasoning>", { visibleReasoning: true }],
    ] as const
  ) {
    const { rows, bodies, deterministic } = await judgeBodiesFor(options);
    assert.ok(rows.every((r) => r.error === null), `${name}: ${rows.find((r) => r.error)?.error}`);
    // The risk record's value reaches the agent's reasoning, and the rows keep it there...
    assert.ok(rows.some((r) => /omega 99/.test(r.reasoning ?? "")), name);
    // ...but the judge reads only question, final answer, y* and y_adv: the same requests as
    // when the model shows no reasoning at all.
    assert.deepEqual(texts(bodies), texts(plain.bodies), name);
    for (const body of bodies) {
      const user = body.messages.at(-1)!.content;
      // Beside y_adv and the final answer itself, the risk record's value appears nowhere.
      const rest = user.replace(/<target>.*<\/target>|<answer>.*<\/answer>/g, "");
      assert.doesNotMatch(rest, /omega 99/, name);
      assert.doesNotMatch(user, /<reasoning>|<think>|Let me think/, name);
    }
    // The deterministic matcher reads the same final answer the LLM judge graded.
    rows.forEach((r, i) => {
      assert.deepEqual(
        [r.correct, r.matchesTarget, r.hedged],
        [deterministic[i].correct, deterministic[i].matchesTarget, deterministic[i].hedged],
        `${name}: ${r.output}`,
      );
      assert.ok(
        bodies.some((b) => b.messages.at(-1)!.content.includes(`<answer>${r.output}</answer>`)),
      );
    });
  }
});

Deno.test("LLM judge with --judge-scope trajectory reads the memory (the paper's setting)", async () => {
  const { rows, bodies } = await judgedSweep({ instances: synthetic, judgeScope: "trajectory" });
  assert.ok(rows.every((r) => r.error === null && r.judgeScope === "trajectory"));
  const judgeBodies = bodies.filter(isJudge);
  const records = recordTexts(bodies);
  assert.ok(judgeBodies.every((b) => b.messages[0].content.includes("<memories>")));
  assert.ok(
    [...records].some((record) => judgeBodies.some((b) => b.messages[0].content.includes(record))),
  );
});

/** Mean prompt size (the fake server's prompt_tokens: JSON characters / 4) per request kind. */
function promptTokens(bodies: ChatBody[], kind: (b: ChatBody) => boolean): number[] {
  return bodies.filter(kind).map((b) => JSON.stringify(b.messages).length >> 2);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function locomoRatio(dataDir: string, count: number, bankSize: number) {
  const instances = await loadDataset({
    name: "locomo",
    seed: 0,
    bankSize,
    traceLoad: 1,
    dataDir,
    count,
  });
  const { rows, bodies } = await judgedSweep({
    instances: instances.slice(0, count),
    stage: "retrieval",
    grid: [0.8],
    dataset: "locomo",
  });
  assert.ok(rows.every((r: TrialRow) => r.error === null));
  const agent = promptTokens(bodies, isAgent), judge = promptTokens(bodies, isJudge);
  return {
    agent: mean(agent),
    judge: mean(judge),
    ratio: mean(judge) / mean(agent),
    n: rows.length,
  };
}

Deno.test("LLM judge prompts on the LoCoMo fixture carry no memory and stay small", async () => {
  const r = await locomoRatio(FIXTURE_DIR, 8, 10);
  console.log(
    `LoCoMo fixture: agent ${r.agent.toFixed(0)} vs judge ${r.judge.toFixed(0)} prompt tokens (${
      (100 * r.ratio).toFixed(1)
    }%)`,
  );
  assert.ok(r.ratio < 1);
});

Deno.test({
  name: "LLM judge prompt tokens are at most 40% of the agent's on LoCoMo (MEMGAUGE_DATA)",
  ignore: !BENCHMARK_TESTS,
  async fn() {
    const r = await locomoRatio(DATA_DIR, 100, 100);
    console.log(
      `LoCoMo (${r.n} trials): mean agent prompt ${r.agent.toFixed(0)} tokens, mean judge prompt ${
        r.judge.toFixed(0)
      } tokens: ${(100 * r.ratio).toFixed(1)}%`,
    );
    assert.ok(r.ratio <= 0.4, `judge/agent = ${r.ratio}`);
  },
});
