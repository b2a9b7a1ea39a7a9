import assert from "node:assert/strict";
import { stageExperiment } from "../../lib/experiments/stage_experiments.ts";
import { stageFigure } from "../../lib/figures/stage_figure.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

Deno.test("stageExperiment() runs an llm: agent and judge built like the notebooks build them, and the caption names the model", async () => {
  const server = startFakeOpenAIServer({});
  // What the notebooks do with MEMGAUGE_AGENT=llm:fake-1 MEMGAUGE_BASE_URL=... MEMGAUGE_JUDGE=llm:fake-judge.
  const models = modelSetup({
    baseUrl: server.baseUrl,
    cachePath: ":memory:",
    judge: "llm:fake-judge",
    env: { OPENAI_API_KEY: "sk-test" },
  });
  try {
    const result = await stageExperiment({
      stage: "management",
      n: 2,
      resamples: 10,
      agents: models.agents(["llm:fake-1"]),
      models,
    });
    assert.equal(result.rows.length, 2 * 4 * 2 * 2); // attacks x policies x instances x conditions
    assert.ok(result.rows.every((r) => !r.simulated && r.agent === "llm:fake-1"));
    assert.ok(result.rows.every((r) => r.error === null && r.judgeModel === "fake-judge"));
    assert.ok(server.requests > 0);
    assert.doesNotMatch(result.agentLabel, /^offline reference agent/);
    assert.match(result.agentLabel, /real model llm:fake-1, not the offline reference agent/);
    assert.match(result.agentLabel, /judge over fake-judge/);
    const caption = stageFigure({
      summary: result.summary,
      x: "policy",
      xLabel: "policy",
      title: "Management",
      agentLabel: result.agentLabel,
    }).querySelector("figcaption")?.textContent ?? "";
    assert.match(caption, /Agent backend: real model llm:fake-1, not the offline reference agent/);
  } finally {
    models.close();
    await server.close();
  }
});

Deno.test("stageExperiment() labels the offline reference agent as the simulator", async () => {
  const models = modelSetup({ cachePath: ":memory:" });
  const result = await stageExperiment({
    stage: "management",
    n: 1,
    resamples: 10,
    agents: models.agents(["reference:careful"]),
    models,
  });
  models.close();
  assert.equal(result.agentLabel, "offline reference agent (simulator, not a real model)");
});
