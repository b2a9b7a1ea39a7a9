/** The offline default judge: normalized matching against `y*` and `y_adv`, decided apart. */
import type { Judge } from "./judge.ts";
import { matchesAnswer } from "../text/matches.ts";

/**
 * Judge by normalized matching (see `normalizeTokens`). `correct` and `matchesTarget` are two
 * independent questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deterministicJudge } from "./deterministic_judge.ts";
 * const instance = { answer: "3", target: "5" } as Parameters<typeof deterministicJudge.judge>[0]["instance"];
 * assert.deepEqual(await deterministicJudge.judge({ instance, output: "Three." }), { correct: true, matchesTarget: false });
 * ```
 */
export const deterministicJudge: Judge = {
  id: "deterministic",
  judge({ instance, output }) {
    return Promise.resolve({
      correct: matchesAnswer(output, instance.answer),
      matchesTarget: matchesAnswer(output, instance.target),
    });
  },
};
