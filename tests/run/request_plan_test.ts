/** The plan recorder: phases from the calling code, merging, cache hits, calibration, rounds. */
import assert from "node:assert/strict";
import type { ChatResult } from "../../lib/models/model_client.ts";
import { RequestPlan } from "../../lib/run/plan/request_plan.ts";
import { inPhase, type RunPhase } from "../../lib/run/run_phase.ts";

const body = (text: string) => ({ model: "m", messages: [{ role: "user", content: text }] });

/** One call as the model setup makes it: a miss goes to the plan's stand-in, a hit does not. */
async function call(
  plan: RequestPlan,
  phase: RunPhase,
  key: string,
  options: { hit?: Partial<ChatResult>; round?: number; model?: string; text?: string } = {},
) {
  const b = body(options.text ?? key);
  await inPhase(phase, async () => {
    const result: ChatResult = options.hit
      ? {
        content: "cached",
        reasoning: null,
        stopReason: "stop",
        toolCalls: [],
        cacheHit: true,
        promptTokens: null,
        completionTokens: null,
        ...options.hit,
      }
      : await plan.onMiss({ key, body: b });
    plan.observe({ id: options.model ?? "m", key, body: b, result });
  }, { round: options.round });
}

Deno.test("every phase of the registry is counted under the phase its caller declared", async () => {
  const plan = new RequestPlan();
  for (const phase of ["ranking", "writing", "agent", "judge", "counterfactual"] as const) {
    await call(plan, phase, `${phase}-1`);
  }
  assert.deepEqual(plan.entries().map((e) => [e.phase, e.toSend]), [
    ["ranking", 1],
    ["writing", 1],
    ["agent", 1],
    ["judge", 1],
    ["counterfactual", 1],
  ]);
});

Deno.test("identical requests merge, cache hits are not sent, and a key asked in two phases counts once", async () => {
  const plan = new RequestPlan();
  await call(plan, "agent", "a");
  await call(plan, "agent", "a");
  await call(plan, "agent", "b", { hit: {} });
  // A counterfactual rerun whose context equals an agent call's is the same request.
  await call(plan, "counterfactual", "a");
  const [agent, counterfactual] = plan.entries();
  assert.deepEqual(
    [agent.phase, agent.asked, agent.unique, agent.cached, agent.toSend],
    ["agent", 3, 2, 1, 1],
  );
  assert.deepEqual([counterfactual.phase, counterfactual.asked, counterfactual.unique], [
    "counterfactual",
    1,
    0,
  ]);
});

Deno.test("cached replies calibrate prompts per model and completions per phase and model", async () => {
  const plan = new RequestPlan();
  const text = "x".repeat(400); // 100 tokens by the estimate, plus the chat overhead
  await call(plan, "agent", "hit", { hit: { promptTokens: 214, completionTokens: 50 }, text });
  await call(plan, "agent", "miss", { text });
  const [agent] = plan.entries();
  assert.equal(agent.completionBasis, "cache");
  assert.equal(agent.completionTokens, 50);
  assert.equal(agent.promptScale, 2); // the model counts twice what the estimate says
  assert.equal(agent.promptTokens, 214);
  const fresh = new RequestPlan();
  await call(fresh, "agent", "miss", { text });
  assert.equal(fresh.entries()[0].completionBasis, "stand-in");
  assert.equal(fresh.entries()[0].promptScale, 1);
});

Deno.test("the round to send is the earliest with a miss; a declared round orders a phase's own dependants", async () => {
  const plan = new RequestPlan({ keepBodies: true });
  await call(plan, "ranking", "r", { hit: {} });
  await call(plan, "agent", "a", { hit: {} });
  await call(plan, "judge", "j");
  await call(plan, "counterfactual", "c");
  await call(plan, "counterfactual", "cj", { round: 5 });
  assert.deepEqual(plan.rounds(), [1, 2, 3, 4, 5]);
  assert.equal(plan.round(), 3);
  assert.deepEqual(plan.requests(3).map((r) => [r.customId, r.phase]), [["j", "judge"]]);
  assert.deepEqual(plan.requests(5).map((r) => r.customId), ["cj"]);
  const done = new RequestPlan();
  await call(done, "agent", "a", { hit: {} });
  assert.equal(done.round(), null);
});

Deno.test("inPhase refuses a phase the registry does not know", () => {
  assert.throws(() => inPhase("reading" as RunPhase, () => 1), /inPhase: unknown phase "reading"/);
});
