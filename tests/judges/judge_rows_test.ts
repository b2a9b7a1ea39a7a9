import assert from "node:assert/strict";
import { judgeTrajectories } from "../../lib/experiments/judge_trajectories.ts";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import { judgeRows } from "../../lib/judges/judge_rows.ts";
import { modelSetup } from "../../lib/run/model_setup.ts";
import { judgeAgreement } from "../../lib/stats/judge_agreement.ts";
import { startFakeOpenAIServer } from "../../lib/testing/fake_openai_server.ts";

Deno.test("judgeRows() judges the same outputs with the matcher and the agentevals judge (fake server)", async () => {
  const server = startFakeOpenAIServer({});
  const models = modelSetup({
    baseUrl: server.baseUrl,
    cachePath: ":memory:",
    judge: "llm:fake-judge",
    env: { OPENAI_API_KEY: "sk-test" },
  });
  try {
    const { rows, instances } = await judgeTrajectories({
      n: 2,
      agents: models.agents(["reference:compliant"]),
    });
    const matcher = await judgeRows({ rows, instances, judge: deterministicJudge });
    const llm = await judgeRows({ rows, instances, judge: models.judge });
    assert.equal(llm.length, rows.length * 2);
    assert.ok(llm.every((l) => l.label !== null));
    // Two questions per row; identical outputs on the same instance are asked once (cache).
    assert.ok(server.requests > 0 && server.requests <= rows.length * 2);
    const frame = judgeAgreement({ a: matcher, b: llm }).toRecords();
    assert.equal(frame[2].n, rows.length * 2);
    assert.ok(typeof frame[2].kappa === "number");
  } finally {
    models.close();
    await server.close();
  }
});

Deno.test("judgeRows() gives null labels for error rows and failed judge calls", async () => {
  const { rows, instances } = await judgeTrajectories({ n: 1 });
  const failing = { id: "broken", judge: () => Promise.reject(new Error("down")) };
  const labels = await judgeRows({ rows: rows.slice(0, 2), instances, judge: failing });
  assert.ok(labels.every((l) => l.label === null));
  const errored = await judgeRows({
    rows: [{ ...rows[0], output: null }],
    instances,
    judge: deterministicJudge,
  });
  assert.deepEqual(errored.map((l) => l.label), [null, null]);
});
