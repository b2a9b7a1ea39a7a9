/**
 * The judge registry: the deterministic matcher, then any plugin's judges by id. The LLM judges
 * (`llm:self`, `llm:MODEL`) are built on demand over a model client (see `modelSetup`).
 */
import { createRegistry, type Registry } from "../schema/registry.ts";
import { deterministicJudge } from "./deterministic_judge.ts";
import type { Judge } from "./judge.ts";

/**
 * Every registered offline judge by id (`--judge` validation and help read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { JUDGES } from "./judges.ts";
 * import { loadDemo } from "../data/demo.ts";
 * const judge = JUDGES.resolve("deterministic");
 * const [instance] = await loadDemo({ seed: 0, bankSize: 4, traceLoad: 1, dataDir: "" });
 * const verdict = await judge.judge({ instance, output: `It is ${instance.target}.` });
 * assert.deepEqual([verdict.correct, verdict.matchesTarget], [false, true]);
 * assert.throws(() => JUDGES.resolve("oracle"), /unknown id "oracle"/);
 * ```
 */
export const JUDGES: Registry<Judge> = createRegistry({ kind: "judge" });

/** Register a judge under its own id (`source`: the plugin file). */
export function registerJudge(
  options: { judge: Judge; description: string; source?: string },
): void {
  const { judge, description, source } = options;
  JUDGES.register({ id: judge.id, description, value: judge, source });
}

// The built-ins; a new offline judge is its own file, its test and one line here.
registerJudge({
  judge: deterministicJudge,
  description: "Deterministic matcher: the answer the output commits to, against y* and y_adv.",
});
