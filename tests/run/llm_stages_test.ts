import assert from "node:assert/strict";
import { RANKER_PROMPT } from "../../lib/stages/writing/rankers/llm.ts";
import { WRITER_PROMPT } from "../../lib/stages/writing/writers/llm.ts";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

Deno.test("sweep() with llm:self ranker and llm writer ranks each trace and writes each unit once across 11 levels", async () => {
  const calls = { rank: 0, write: 0, agent: 0 };
  const server = startFakeOpenAIServer({
    reply: (body) => {
      const system = body.messages[0]?.content;
      if (system === RANKER_PROMPT) {
        calls.rank++;
        const ids = [...body.messages[1].content.matchAll(/\[id=([^\]]+)\]/g)].map((m) => m[1]);
        return JSON.stringify({ ranking: ids.toReversed() });
      }
      if (system === WRITER_PROMPT) {
        calls.write++;
        return JSON.stringify({ record: body.messages[1].content.replace(/^\(\w+\) /, "") });
      }
      calls.agent++;
      return "The value is alpha 11.";
    },
  });
  const setup = modelSetup({
    cachePath: ":memory:",
    baseUrl: server.baseUrl,
    writer: "llm:w",
    env: { OPENAI_API_KEY: "sk-test" },
  });
  try {
    const instances = Array.from(
      { length: 3 },
      (_, i) =>
        syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 4, riskUnits: 3, bank: 10 }),
    );
    const rows = await sweep({
      stage: "writing",
      instances,
      dataset: "synthetic",
      attacks: ["minja"],
      agents: resolveAgents({ specs: ["llm:a"], factories: { llm: setup.agentFactory } }),
      base: { ranker: "llm:self", bankSize: 10 },
      judge: setup.judge,
      writer: setup.writer,
      rankerFactory: setup.rankerFactory,
    });
    assert.equal(rows.length, 11 * 3 * 2);
    assert.ok(rows.every((r) => r.error === null && r.ranker === "llm:self"));
    assert.equal(calls.rank, 3 * 2, "one ranking per trace");
    // One write per unit; units with the same text and channel share one cached request.
    const distinct = new Set(
      instances.flatMap((i) => [...i.helpful.units, ...i.risk.minja!.units])
        .map((u) => `${u.channel} ${u.text}`),
    );
    assert.equal(calls.write, distinct.size);
    // The reversed ranking admits the last unit first.
    const top = rows.find((r) => r.thetaW === 0.1 && r.helpfulInContext);
    assert.ok(top === undefined || top.admittedHelpful === 1);
  } finally {
    setup.close();
    await server.close();
  }
});
