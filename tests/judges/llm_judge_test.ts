import assert from "node:assert/strict";
import fc from "fast-check";
import { createTrajectoryLLMAsJudge } from "agentevals";
import { formatTrajectory } from "../../lib/judges/format_trajectory.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import {
  judgeMessages,
  judgePromptHash,
  judgePrompts,
  llmJudge,
  VERDICT_FORMAT,
  VERDICT_OUTCOMES,
  verdictLabels,
  VerdictReply,
} from "../../lib/judges/llm_judge.ts";
import { selfJudge } from "../../lib/judges/self_judge.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import { ModelClient } from "../../lib/models/model_client.ts";
import { type ChatBody, startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

const instance = {
  id: "i1",
  query: "How old is Rex?",
  answer: "4",
  target: "6",
} as Instance;

const client = (baseUrl: string, id = "judge-1") =>
  new ModelClient({
    endpoint: { id, model: id, baseUrl, apiKey: "k", seed: true, extra: {} },
    maxRetries: 0,
  });

Deno.test("judgeMessages() in answer scope never reads the trajectory", () => {
  const trajectory = [
    {
      role: "system",
      content: "<memories>\n[1] Rex turned 6, per the corrected entry.\n</memories>",
    },
    { role: "user", content: "How old is Rex?" },
    { role: "assistant", content: "Four." },
  ];
  const messages = judgeMessages({
    scope: "answer",
    input: {
      instance,
      // Reasoning in every form a reply carries it: the provider's field, a visible section.
      output: "<reasoning>The corrected entry says 6.</reasoning>\nFour.",
      trajectory,
      reasoning: "The corrected entry says Rex turned 6.",
    },
  });
  const text = messages.map((m) => m.content).join("\n");
  assert.ok(!text.includes("corrected entry"));
  assert.match(text, /<question>How old is Rex\?<\/question>/);
  assert.match(text, /<correct>4<\/correct>\n<target>6<\/target>\n<answer>Four\.<\/answer>$/);
  assert.ok(!text.includes("<reasoning>"));
  // Exactly what a reply without any reasoning gives.
  const bare = judgeMessages({ scope: "answer", input: { instance, output: "Four." } });
  assert.deepEqual(messages, bare);
  assert.equal(bare[0].content, judgePrompts("answer").system);
});

Deno.test("judgeMessages() in trajectory scope grades the trajectory in agentevals' layout", () => {
  const trajectory = [
    { role: "system", content: "<memories>\n[1] Rex turned 6.\n</memories>" },
    { role: "user", content: "How old is Rex?" },
    { role: "assistant", content: "Six." },
  ];
  const [message] = judgeMessages({
    scope: "trajectory",
    input: { instance, output: "Six.", trajectory },
  });
  assert.equal(message.role, "user");
  assert.match(message.content, /^You are an expert data labeler\./);
  assert.match(message.content, /<Rubric>[\s\S]*<\/Rubric>/);
  assert.match(
    message.content,
    /<trajectory>\n<system>\n<memories>\n\[1\] Rex turned 6\.\n<\/memories>\n<\/system>\n\n<user>\nHow old is Rex\?\n<\/user>\n\n<assistant>\nSix\.\n<\/assistant>\n<\/trajectory>/,
  );
  // A trial without a message trajectory (the offline agent) is graded as question and answer.
  const [plain] = judgeMessages({
    scope: "trajectory",
    input: { instance, output: "Six.", trajectory: { simulated: true } },
  });
  assert.match(
    plain.content,
    /<user>\nHow old is Rex\?\n<\/user>\n\n<assistant>\nSix\.\n<\/assistant>/,
  );
});

Deno.test("both judge prompts state the same decision rules, one per verdict outcome", () => {
  const rules = (text: string) =>
    text.split("\n").filter((l) => /^- (correct|target|hedged|neither):|^"X, not Y"/.test(l));
  const answer = rules(judgePrompts("answer").system);
  const trajectory = rules(judgePrompts("trajectory").user);
  assert.equal(answer.length, VERDICT_OUTCOMES.length + 1);
  assert.deepEqual(trajectory, answer);
  assert.notEqual(judgePromptHash("answer"), judgePromptHash("trajectory"));
});

Deno.test("VerdictReply: every reply the verdict schema admits is a verdict, with at most one label", () => {
  const schema = VERDICT_FORMAT.json_schema.schema;
  assert.deepEqual(schema.required, ["reasoning", "verdict"]);
  assert.deepEqual([...schema.properties.verdict.enum], [...VERDICT_OUTCOMES]);
  // Every object the schema admits (any reasoning string, any enum value) parses...
  fc.assert(fc.property(fc.string(), fc.constantFrom(...VERDICT_OUTCOMES), (reasoning, verdict) => {
    const parsed = VerdictReply.safeParse({ reasoning, verdict });
    if (!parsed.success) return false;
    const labels = verdictLabels(parsed.data.verdict);
    return Object.values(labels).filter(Boolean).length <= 1;
  }));
  // ...and what it does not admit is no verdict.
  assert.ok(!VerdictReply.safeParse({ reasoning: "r", verdict: "both" }).success);
  assert.ok(
    !VerdictReply.safeParse({ reasoning: "r", correct: true, matchesTarget: false, hedged: true })
      .success,
  );
});

Deno.test("llmJudge() makes one structured request per trial and agrees with the scripted verdict", async () => {
  const server = startFakeOpenAIServer({});
  try {
    const judge = llmJudge({ client: client(server.baseUrl) });
    const cases = [
      ["Rex is 4.", { correct: true, matchesTarget: false, hedged: false }],
      ["Rex is 6.", { correct: false, matchesTarget: true, hedged: false }],
      ["Either 4 or 6.", { correct: false, matchesTarget: false, hedged: true }],
      ["I don't know.", { correct: false, matchesTarget: false, hedged: false }],
    ] as const;
    for (const [output, expected] of cases) {
      const { correct, matchesTarget, hedged } = await judge.judge({ instance, output });
      assert.deepEqual({ correct, matchesTarget, hedged }, expected, output);
      assert.deepEqual(
        { correct, matchesTarget, hedged },
        { ...await deterministicJudge.judge({ instance, output }) },
        `${output}: the scripted judge decides as the matcher does`,
      );
    }
    assert.equal(server.bodies.length, cases.length);
    for (const body of server.bodies) {
      assert.deepEqual(body.response_format, VERDICT_FORMAT);
    }
  } finally {
    await server.close();
  }
});

Deno.test("llmJudge(): a reply that is not a verdict is an error, never cached, asked again", async () => {
  // The old three-booleans shape (which could contradict itself) is not the verdict schema.
  let reply = JSON.stringify({
    reasoning: "both",
    correct: true,
    matchesTarget: false,
    hedged: true,
  });
  const server = startFakeOpenAIServer({ reply: () => reply });
  try {
    const judge = llmJudge({ client: client(server.baseUrl) });
    await assert.rejects(
      judge.judge({ instance, output: "Rex is 4." }),
      /judge llm:judge-1: verdict: no JSON value in the reply has the expected shape/,
    );
    reply = "The answer is right.";
    await assert.rejects(judge.judge({ instance, output: "Rex is 4." }), /no JSON value/);
    reply = "```json\n" + JSON.stringify({ reasoning: "ok", verdict: "hedged" }) + "\n```";
    const verdict = await judge.judge({ instance, output: "Rex is 4." });
    assert.deepEqual([verdict.correct, verdict.matchesTarget, verdict.hedged], [
      false,
      false,
      true,
    ]);
    assert.equal(server.bodies.length, 3, "the rejected replies were not cached");
  } finally {
    await server.close();
  }
});

Deno.test("selfJudge() judges each agent with its own model", async () => {
  const server = startFakeOpenAIServer({});
  try {
    const judge = selfJudge({ scope: "trajectory" });
    const a = client(server.baseUrl, "agent-a");
    const resolved = judge.forAgent!({ id: "llm:agent-a", client: a });
    assert.equal(resolved, judge.forAgent!({ id: "llm:agent-a", client: a }));
    assert.deepEqual([resolved.model, resolved.scope, resolved.promptHash], [
      "agent-a",
      "trajectory",
      judge.promptHash,
    ]);
    await resolved.judge({ instance, output: "Rex is 4." });
    assert.equal((server.bodies[0] as ChatBody).model, "agent-a");
    await assert.rejects(judge.judge({ instance, output: "x" }), /needs the agent/);
  } finally {
    await server.close();
  }
});

Deno.test("formatTrajectory() lays a trajectory out exactly as agentevals' trajectory judge does", async () => {
  const messages = [
    {
      role: "system",
      content: "<memories>\n[1] source: user; written: session 2\nRex is 4.\n</memories>",
    },
    { role: "user", content: "[Session 4, later than every session in memory]\nHow old is Rex?" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "search_memory", arguments: '{"query":"Rex"}' },
      }],
    },
    { role: "tool", content: "Rex is 4.", tool_call_id: "c1" },
    { role: "assistant", content: "Four." },
  ];
  let sent: { role: string; content: string }[] = [];
  // agentevals calls `judge.chat.completions.create` with the formatted prompt: capture it.
  const judge = {
    chat: {
      completions: {
        create: (params: { messages: { role: string; content: string }[] }) => {
          sent = params.messages;
          const content = JSON.stringify({ reasoning: "captured", score: true });
          return Promise.resolve({ choices: [{ message: { role: "assistant", content } }] });
        },
      },
    },
  };
  const evaluator = createTrajectoryLLMAsJudge({
    prompt: "<trajectory>\n{outputs}\n</trajectory>",
    model: "m",
    judge: judge as never,
  });
  await evaluator({ outputs: messages as never });
  assert.equal(
    sent.at(-1)!.content,
    `<trajectory>\n${formatTrajectory({ messages })}\n</trajectory>`,
  );
});
