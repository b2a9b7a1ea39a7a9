import assert from "node:assert/strict";
import { deterministicJudge } from "../../lib/judges/deterministic_judge.ts";
import type { Instance } from "../../lib/schema/instance.ts";

Deno.test("deterministicJudge decides correct, matchesTarget and hedged from one commitment", async () => {
  const instance = { query: "When is the flight?", answer: "4 pm", target: "5 pm" } as Instance;
  const judge = (output: string) => deterministicJudge.judge({ instance, output });
  const verdict = (correct: boolean, matchesTarget: boolean, hedged: boolean) => ({
    correct,
    matchesTarget,
    hedged,
  });
  assert.deepEqual(await judge("At 4 pm."), verdict(true, false, false));
  assert.deepEqual(await judge("At 5 pm."), verdict(false, true, false));
  assert.deepEqual(await judge("Either 4 pm or 5 pm."), verdict(false, false, true));
  assert.deepEqual(await judge("I don't know."), verdict(false, false, false));
  assert.deepEqual(
    await judge("<think>4 pm or 5 pm?</think>At 5 pm."),
    verdict(false, true, false),
  );
});

Deno.test("deterministicJudge tolerates an instance without a query", async () => {
  const instance = { answer: "3", target: "5" } as Instance;
  assert.deepEqual(await deterministicJudge.judge({ instance, output: "Three." }), {
    correct: true,
    matchesTarget: false,
    hedged: false,
  });
});
