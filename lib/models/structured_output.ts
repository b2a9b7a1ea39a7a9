/**
 * Structured output across endpoints: a request asks for a JSON schema; an endpoint that takes
 * only `json_object`, or no `response_format` at all, gets the schema in the prompt instead.
 */
import type { ResponseFormatSupport } from "./model_catalog.ts";

/** A chat message as sent (role and text only). */
export interface PromptMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * The instruction that carries a schema when the endpoint cannot enforce it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schemaInstruction } from "./structured_output.ts";
 * assert.match(schemaInstruction({ type: "object" }), /JSON schema:\n\{"type":"object"\}$/);
 * ```
 */
export function schemaInstruction(schema: unknown): string {
  return "Reply with only a JSON object (no code fence, no text before or after it) that " +
    `matches this JSON schema:\n${JSON.stringify(schema)}`;
}

const OBJECT_INSTRUCTION = "Reply with only a JSON object (no code fence, no other text).";

// Appended to the last user turn: system prompts stay byte-identical (they name a request's
// phase), and chat templates that allow one leading system message only still work.
function _withInstruction(messages: readonly PromptMessage[], text: string): PromptMessage[] {
  const out = messages.map((m) => ({ role: m.role, content: m.content }));
  const user = out.findLastIndex((m) => m.role === "user");
  if (user === -1) return [...out, { role: "user", content: text }];
  out[user] = { role: "user", content: `${out[user].content}\n\n${text}` };
  return out;
}

/**
 * The messages and `response_format` to send for a request on an endpoint with the given
 * support. `json_schema` endpoints get the request unchanged; `json_object` endpoints get
 * `{type: "json_object"}` with the schema appended to the last user message (the word JSON in the
 * prompt is also what OpenAI-style json_object mode requires); `none` endpoints get no
 * `response_format` and the instruction in the prompt.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { adaptResponseFormat } from "./structured_output.ts";
 * const responseFormat = { type: "json_schema", json_schema: { name: "v", schema: { type: "object" } } };
 * const messages = [{ role: "user" as const, content: "Grade it." }];
 * assert.deepEqual(adaptResponseFormat({ messages, responseFormat, support: "json_schema" }).responseFormat, responseFormat);
 * const fallback = adaptResponseFormat({ messages, responseFormat, support: "json_object" });
 * assert.deepEqual(fallback.responseFormat, { type: "json_object" });
 * assert.match(fallback.messages[0].content, /^Grade it\.\n\n.*JSON schema:\n\{"type":"object"\}/s);
 * assert.equal(adaptResponseFormat({ messages, responseFormat, support: "none" }).responseFormat, undefined);
 * ```
 */
export function adaptResponseFormat(options: {
  /** The request's messages. */
  messages: readonly PromptMessage[];
  /** The request's OpenAI `response_format`; none for free text. */
  responseFormat?: Record<string, unknown>;
  /** What the endpoint takes. */
  support: ResponseFormatSupport;
}): { messages: PromptMessage[]; responseFormat?: Record<string, unknown> } {
  const { responseFormat, support } = options;
  const messages = options.messages.map((m) => ({ role: m.role, content: m.content }));
  if (!responseFormat || responseFormat.type === "text") return { messages, responseFormat };
  const schema = responseFormat.type === "json_schema"
    ? (responseFormat.json_schema as { schema?: unknown } | undefined)?.schema
    : undefined;
  const native = responseFormat.type === "json_schema"
    ? support === "json_schema"
    : responseFormat.type === "json_object" && support !== "none";
  if (native) return { messages, responseFormat };
  if (responseFormat.type === "json_schema" || responseFormat.type === "json_object") {
    const instruction = schema === undefined ? OBJECT_INSTRUCTION : schemaInstruction(schema);
    return {
      messages: _withInstruction(messages, instruction),
      ...(support !== "none" && { responseFormat: { type: "json_object" } }),
    };
  }
  return { messages, responseFormat };
}
