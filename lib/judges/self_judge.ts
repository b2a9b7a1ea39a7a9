/**
 * `--judge llm:self`: each model agent's trials are judged by the agent's own model, the default
 * judge of `llm:` agents (no second endpoint or key needed). Rows name the model that judged.
 */
import type { JudgeScope } from "../schema/trial_row.ts";
import type { ModelClient } from "../models/model_client.ts";
import type { Judge } from "./judge.ts";
import { judgePromptHash, llmJudge } from "./llm_judge.ts";

/**
 * A judge that resolves, per agent, to the LLM judge over that agent's model (see
 * `Judge.forAgent`); one judge per model, built on first use. Asked to judge without an agent,
 * or for an agent without a model (the offline reference agent), it refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selfJudge } from "./self_judge.ts";
 * import { ModelClient } from "../models/model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} } });
 * const judge = selfJudge({});
 * assert.equal(judge.id, "llm:self");
 * assert.equal(judge.forAgent!({ id: "llm:m", client }).model, "m");
 * assert.throws(() => judge.forAgent!({ id: "reference:careful" }), /not a model agent/);
 * ```
 */
export function selfJudge(options: {
  /** What the judge reads; default `answer` (memory-blind). */
  scope?: JudgeScope;
  /** Builds the judge over one client; default `llmJudge({ client, scope })`. */
  make?: (client: ModelClient) => Judge;
}): Judge {
  const scope = options.scope ?? "answer";
  const make = options.make ?? ((client: ModelClient) => llmJudge({ client, scope }));
  const judges = new Map<ModelClient, Judge>();
  return {
    id: `llm:self${scope === "answer" ? "" : `/${scope}`}`,
    promptHash: judgePromptHash(scope),
    scope,
    forAgent(agent) {
      if (!agent.client) {
        throw new RangeError(
          `--judge llm:self: judges with each agent's own model, but ${
            JSON.stringify(agent.id)
          } is not a model agent`,
        );
      }
      let judge = judges.get(agent.client);
      if (!judge) judges.set(agent.client, judge = make(agent.client));
      return judge;
    },
    judge() {
      return Promise.reject(
        new RangeError("--judge llm:self: needs the agent; resolve it with forAgent(agent)"),
      );
    },
  };
}
