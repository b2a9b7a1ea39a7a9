/**
 * The LLM judge: one structured call per trial returns `{reasoning, correct, matchesTarget,
 * hedged}`. By default it is memory-blind (question, final answer and its reasoning, `y*`,
 * `y_adv`); `scope: "trajectory"` grades the agent's whole trajectory, memory included, in
 * AgentEvals' layout (the paper's setting). Prompts: `prompts/answer_judge.md`,
 * `prompts/trajectory_judge.md`.
 */
import { z } from "zod";
import type { ModelUsage } from "../model/model_usage.ts";
import { stableId } from "../model/stable_id.ts";
import type { JudgeScope } from "../model/trial_row.ts";
import type { ChatMessage, ModelClient } from "../models/model_client.ts";
import { parseJsonReply } from "../models/parse_json_reply.ts";
import { fillPrompt, readPromptFile } from "../text/prompt_file.ts";
import { formatTrajectory, type TrajectoryMessage } from "./format_trajectory.ts";
import type { Judge, JudgeInput, Verdict } from "./judge.ts";

const PROMPT_FILES = {
  answer: {
    url: new URL("./prompts/answer_judge.md", import.meta.url),
    sections: ["system", "user", "reasoning"],
  },
  trajectory: {
    url: new URL("./prompts/trajectory_judge.md", import.meta.url),
    sections: ["user"],
  },
} as const;

/** The structured-output format of a verdict (reasoning first, so it is written before the labels). */
export const VERDICT_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "verdict",
    strict: true,
    schema: {
      type: "object",
      properties: {
        reasoning: { type: "string" },
        correct: { type: "boolean" },
        matchesTarget: { type: "boolean" },
        hedged: { type: "boolean" },
      },
      required: ["reasoning", "correct", "matchesTarget", "hedged"],
      additionalProperties: false,
    },
  },
} as const;

/**
 * A verdict reply. The labels come from one decision about what the answer commits to, so a
 * reply that says both correct and matchesTarget, or a hedge that still commits, contradicts
 * itself and is rejected (an error row), never resolved by a guess.
 */
export const VerdictReply = z.object({
  reasoning: z.string(),
  correct: z.boolean(),
  matchesTarget: z.boolean(),
  hedged: z.boolean(),
}).refine((v) => !(v.correct && v.matchesTarget), {
  message: "correct and matchesTarget are both true (an answer commits to one value at most)",
}).refine((v) => !(v.hedged && (v.correct || v.matchesTarget)), {
  message: "hedged is true but the answer is also graded correct or matchesTarget",
});

/** The prompt sections of a scope (read on first use). */
export function judgePrompts(scope: JudgeScope): Readonly<Record<string, string>> {
  const file = PROMPT_FILES[scope];
  return readPromptFile({ url: file.url, required: file.sections });
}

/**
 * The hash rows record as `judgePromptHash`: the scope's prompt text and the reply schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgePromptHash } from "./llm_judge.ts";
 * assert.equal(judgePromptHash("answer").length, 16);
 * assert.notEqual(judgePromptHash("answer"), judgePromptHash("trajectory"));
 * ```
 */
export function judgePromptHash(scope: JudgeScope): string {
  return stableId({ scope, prompts: judgePrompts(scope), format: VERDICT_FORMAT });
}

function _isMessages(value: unknown): value is TrajectoryMessage[] {
  return Array.isArray(value) && value.length > 0 &&
    value.every((m) => typeof m === "object" && m !== null && typeof m.role === "string");
}

/**
 * The messages a judge sends for one trial. In `answer` scope nothing of the trajectory is
 * read: only the question, the final answer, its reasoning (when the model showed any), `y*`
 * and `y_adv`. In `trajectory` scope the agent's messages are formatted as AgentEvals does; a
 * trial without a message trajectory (the offline reference agent) is graded as the question and
 * the answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeMessages } from "./llm_judge.ts";
 * const instance = { query: "How old is Rex?", answer: "4", target: "6" } as Parameters<typeof judgeMessages>[0]["input"]["instance"];
 * const trajectory = [{ role: "system", content: "<memories>Rex is 6 now.</memories>" }, { role: "assistant", content: "Four." }];
 * const blind = judgeMessages({ scope: "answer", input: { instance, output: "Four.", trajectory } });
 * assert.ok(blind.every((m) => !m.content.includes("Rex is 6 now")));
 * assert.match(blind[1].content, /<answer>Four\.<\/answer>/);
 * const full = judgeMessages({ scope: "trajectory", input: { instance, output: "Four.", trajectory } });
 * assert.match(full[0].content, /<system>\n<memories>Rex is 6 now\.<\/memories>\n<\/system>/);
 * ```
 */
export function judgeMessages(options: {
  /** What the judge reads. */
  scope: JudgeScope;
  /** The trial. */
  input: JudgeInput;
}): ChatMessage[] {
  const { scope, input } = options;
  const { instance } = input;
  const prompts = judgePrompts(scope);
  if (scope === "answer") {
    const reasoning = input.reasoning?.trim()
      ? fillPrompt({ template: prompts.reasoning, values: { reasoning: input.reasoning.trim() } }) +
        "\n"
      : "";
    return [
      { role: "system", content: prompts.system },
      {
        role: "user",
        content: fillPrompt({
          template: prompts.user,
          values: {
            question: instance.query,
            answer: instance.answer,
            target: instance.target,
            reasoning,
            output: input.output,
          },
        }),
      },
    ];
  }
  const messages: TrajectoryMessage[] = _isMessages(input.trajectory) ? input.trajectory : [
    { role: "user", content: instance.query },
    { role: "assistant", content: input.output },
  ];
  return [{
    role: "user",
    content: fillPrompt({
      template: prompts.user,
      values: {
        answer: instance.answer,
        target: instance.target,
        outputs: formatTrajectory({ messages }),
      },
    }),
  }];
}

/**
 * An LLM judge over one judge model: one call per trial. The verdict is read tolerantly
 * (reasoning blocks, code fences, prose around the JSON); one that does not parse, or
 * contradicts itself, throws (the row becomes an error row) and is not cached, so
 * `--retry-errors` asks again. `model`, `promptHash` and `scope` go into every row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmJudge } from "./llm_judge.ts";
 * import { ModelClient } from "../models/model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} } });
 * const judge = llmJudge({ client });
 * assert.deepEqual([judge.id, judge.model, judge.scope], ["llm:m", "m", "answer"]);
 * assert.equal(llmJudge({ client, scope: "trajectory" }).id, "llm:m/trajectory");
 * ```
 */
export function llmJudge(options: {
  /** The judge model's client. */
  client: ModelClient;
  /** What the judge reads; default `answer` (memory-blind). */
  scope?: JudgeScope;
}): Judge {
  const { client } = options;
  const scope = options.scope ?? "answer";
  const label = `judge llm:${client.endpoint.id}: verdict`;
  const parse = (text: string) => parseJsonReply({ text, schema: VerdictReply, label });
  return {
    id: `llm:${client.endpoint.id}${scope === "answer" ? "" : `/${scope}`}`,
    model: client.endpoint.id,
    promptHash: judgePromptHash(scope),
    scope,
    async judge(input): Promise<Verdict> {
      const reply = await client.chat({
        messages: judgeMessages({ scope, input }),
        responseFormat: VERDICT_FORMAT,
        trial: input.trial ?? 0,
        validate: (r) => void parse(r.content),
      });
      const verdict = parse(reply.content);
      const usage: ModelUsage = {
        cacheHit: reply.cacheHit,
        promptTokens: reply.promptTokens,
        completionTokens: reply.completionTokens,
      };
      return { ...verdict, usage };
    },
  };
}
