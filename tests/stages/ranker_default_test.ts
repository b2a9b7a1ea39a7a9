/** The writing-stage ranker default: the agent's own LLM for model agents, the heuristic offline. */
import assert from "node:assert/strict";
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { PAPER_DEFAULTS } from "../../lib/schema/operating_point.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { defaultRanker, sweep } from "../../lib/run/sweep.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";
import { syntheticInstance } from "../support/synthetic_instance.ts";

const instances = Array.from(
  { length: 3 },
  (_, i) => syntheticInstance({ id: `s${i}`, seed: i, helpfulUnits: 5, riskUnits: 4, bank: 6 }),
);

Deno.test("PAPER_DEFAULTS names llm:self as the ranker", () => {
  assert.equal(PAPER_DEFAULTS.ranker, "llm:self");
});

Deno.test("sweep() with an llm agent and no ranker ranks with llm:self and the rows say so", async () => {
  const server = startFakeOpenAIServer({});
  const models = modelSetup({
    cachePath: ":memory:",
    baseUrl: server.baseUrl,
    env: { OPENAI_API_KEY: "k" },
  });
  try {
    const rows = await sweep({
      stage: "writing",
      grid: [0.5],
      instances,
      dataset: "synthetic",
      attacks: ["minja"],
      agents: models.agents(["llm:fake-1"]),
      rankerFactory: models.rankerFactory,
    });
    assert.ok(rows.length > 0);
    assert.ok(
      rows.every((r) => r.ranker === "llm:self" && r.error === null),
      JSON.stringify(rows[0]),
    );
    // One ranking request per trace (helpful and MINJA) besides the agent's answers.
    const rankings = models.stats().requests;
    assert.ok(rankings >= 2 * instances.length, `${rankings} requests`);
  } finally {
    models.close();
    await server.close();
  }
});

Deno.test("sweep() with the offline agent and no ranker ranks with usefulness", async () => {
  const rows = await sweep({
    stage: "writing",
    grid: [0.5],
    instances,
    dataset: "synthetic",
    attacks: ["minja"],
    agents: resolveAgents({ specs: ["reference:careful"] }),
  });
  assert.ok(rows.every((r) => r.ranker === "usefulness"));
});

Deno.test("defaultRanker() refuses to guess for a mix of simulated and model agents", () => {
  assert.throws(
    () =>
      defaultRanker({
        agents: [{ id: "reference:careful", simulated: true }, { id: "llm:m", simulated: false }],
      }),
    /^FieldError: ranker: required when the agents mix .*reference:careful, llm:m/,
  );
});
