/**
 * Stand-in replies for a dry run: what lets a sweep go through every phase without sending a
 * request. Each is a valid reply of its phase (a ranking of the listed ids, the unit as its own
 * record, a one-sentence answer, a schema-shaped verdict), so the requests the run would make
 * next are built by the run's own code from it.
 */
import { stableId } from "../../schema/stable_id.ts";
import type { RunPhase } from "../run_phase.ts";

/** The verdict text of a stand-in judge (its reasoning string fields). */
export const STAND_IN_VERDICT = "A stand-in verdict of about one sentence, as judges write.";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
};

function _messages(body: Record<string, unknown>): { role?: string; content?: unknown }[] {
  return Array.isArray(body.messages) ? body.messages : [];
}

function _lastUser(body: Record<string, unknown>): string {
  const user = _messages(body).filter((m) => m?.role === "user").at(-1)?.content;
  return typeof user === "string" ? user : "";
}

/** The JSON schema a request asks for: native, or appended to the prompt where not native. */
function _schema(body: Record<string, unknown>): Schema | null {
  const format = body.response_format as
    | { type?: string; json_schema?: { schema?: Schema } }
    | undefined;
  if (format?.json_schema?.schema) return format.json_schema.schema;
  const text = _lastUser(body);
  const at = text.lastIndexOf("JSON schema:\n");
  if (at === -1) return format?.type === "json_object" ? {} : null;
  try {
    return JSON.parse(text.slice(at + "JSON schema:\n".length));
  } catch {
    return {};
  }
}

/** A value of `schema` whose strings are `text` and whose string lists are `list`. */
function _fill(schema: Schema, text: string, list: string[]): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return text;
    case "boolean":
      // Every verdict says yes: what a verdict selects (counterfactual reruns of the trials
      // that matched) is then counted at its most.
      return true;
    case "number":
    case "integer":
      return 0;
    case "array":
      return schema.items?.type === "string" ? list : [];
    case "null":
      return null;
    default: {
      const properties = schema.properties ?? {};
      return Object.fromEntries(
        Object.entries(properties).map(([name, s]) => [name, _fill(s, text, list)]),
      );
    }
  }
}

/**
 * The stand-in reply to a request of a phase. An agent's answer is the same for requests with
 * the same `answerKey` (question, agent, trial and the evidence in the context: what an answer
 * can be foreseen to depend on), so the memory-blind judge is planned once per foreseeable
 * answer; without one, `key` (the request's cache key) makes every answer distinct.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { standInReply } from "./stand_in_reply.ts";
 * const ranking = { messages: [{ role: "user", content: "[id=a] (user) x\n[id=b] (tool) y" }],
 *   response_format: { type: "json_schema", json_schema: { schema: { type: "object", properties: { ranking: { type: "array", items: { type: "string" } } } } } } };
 * assert.equal(standInReply({ phase: "ranking", body: ranking, key: "k" }), '{"ranking":["a","b"]}');
 * const write = { messages: [{ role: "user", content: "(user) Rex is 4." }] };
 * assert.equal(standInReply({ phase: "writing", body: write, key: "k" }), "Rex is 4.");
 * assert.match(standInReply({ phase: "agent", body: write, key: "0123456789" }), /01234567/);
 * ```
 */
export function standInReply(options: {
  /** The phase the request belongs to. */
  phase: RunPhase;
  /** The request body. */
  body: Record<string, unknown>;
  /** The request's cache key. */
  key: string;
  /** The condition of the trial a verdict grades (`currentCondition`); default unknown. */
  condition?: "clean" | "poisoned";
  /**
   * What an agent answer can be foreseen to depend on (`currentAnswerKey`): answers are equal
   * exactly when their keys are; default the request's cache key (every answer distinct).
   */
  answerKey?: string;
}): string {
  const { phase, body, key } = options;
  const schema = _schema(body);
  const user = _lastUser(body);
  const labels = schema?.properties ?? {};
  if ("verdict" in labels && labels.verdict.enum?.includes("target")) {
    // A verdict (the judge's, or a counterfactual rerun's): the one that selects its trial for
    // counterfactual reruns (a poisoned answer matching the target, a clean one correct), so
    // what verdicts select is counted at its most.
    const verdict = _fill(schema!, STAND_IN_VERDICT, []) as Record<string, unknown>;
    verdict.verdict = options.condition === "poisoned" ? "target" : "correct";
    return JSON.stringify(verdict);
  }
  switch (phase) {
    case "ranking": {
      const ids = [...user.matchAll(/^\s*\[id=([^\]]+)\]/gm)].map((m) => m[1]);
      // Without a schema to fill, the shape the ranker's prompt asks for.
      return JSON.stringify(schema?.properties ? _fill(schema, "", ids) : { ranking: ids });
    }
    case "writing": {
      // The unit as its own record: about as long as a rewrite, and distinct per unit.
      const unit = user.split("\n\n")[0].replace(/^\(\w+\)\s*/, "");
      return schema ? JSON.stringify(_fill(schema, unit, [])) : unit;
    }
    case "agent":
    case "counterfactual": {
      const id = options.answerKey === undefined ? key : stableId(options.answerKey);
      const answer = `From the memory records, the answer is ${id.slice(0, 8)}.`;
      return schema ? JSON.stringify(_fill(schema, answer, [])) : answer;
    }
    case "judge":
      return schema ? JSON.stringify(_fill(schema, STAND_IN_VERDICT, [])) : STAND_IN_VERDICT;
  }
}

/**
 * The tool call a stand-in model makes, as a tool-using model would: the forced function
 * (`tool_choice` naming one, or `required`), or under `auto` the first tool until a tool result
 * is in the conversation; null to answer in text. The paper's agent with its memory as a tool
 * thus makes its search call and its answer in the plan as in the run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { standInToolCall } from "./stand_in_reply.ts";
 * const tools = [{ type: "function", function: { name: "search_memory" } }];
 * const ask = { role: "user", content: "Q?" };
 * assert.equal(standInToolCall({ body: { tools, messages: [ask] }, key: "k" })?.name, "search_memory");
 * assert.equal(standInToolCall({ body: { tools, messages: [ask, { role: "tool" }] }, key: "k" }), null);
 * assert.equal(standInToolCall({ body: { messages: [ask] }, key: "k" }), null);
 * ```
 */
export function standInToolCall(options: {
  /** The request body (OpenAI chat completions). */
  body: Record<string, unknown>;
  /** The request's cache key (the call's id). */
  key: string;
}): { id: string; name: string; arguments: string } | null {
  const { body, key } = options;
  const tools = (Array.isArray(body.tools) ? body.tools : []) as {
    function?: { name?: string };
  }[];
  const first = tools[0]?.function?.name;
  if (!first || body.tool_choice === "none") return null;
  const choice = body.tool_choice as { function?: { name?: string } } | string | undefined;
  const name = typeof choice === "object" && choice?.function?.name
    ? choice.function.name
    : choice === "required" || !_messages(body).some((m) => m?.role === "tool")
    ? first
    : null;
  if (name === null) return null;
  return {
    id: `call_${key.slice(0, 12)}`,
    name,
    arguments: JSON.stringify({ query: _lastUser(body) }),
  };
}
