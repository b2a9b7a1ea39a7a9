/** Token counts estimated from text, for a plan made before any request is sent. */

/** Characters per token of English text in the common BPE tokenizers (the usual rule of thumb). */
export const CHARS_PER_TOKEN = 4;

/** Tokens a chat format adds per message (role and separators), as OpenAI documents it. */
export const TOKENS_PER_MESSAGE = 4;

/** Tokens that prime the reply. */
export const TOKENS_PER_REPLY = 3;

/**
 * Estimated tokens of a text: one per `CHARS_PER_TOKEN` characters, rounded up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textTokens } from "./token_estimate.ts";
 * assert.equal(textTokens("12345678"), 2);
 * assert.equal(textTokens(""), 0);
 * ```
 */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Estimated prompt tokens of a chat request body: its messages' text plus the chat format's
 * overhead, plus what providers bill besides the messages: a `response_format` JSON schema and
 * `tools` definitions (at their JSON text). Providers count with their own tokenizers; the plan
 * corrects this estimate by the ratio it sees in cached replies of the same model, where there
 * are any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { promptTokens, textTokens } from "./token_estimate.ts";
 * const body = { messages: [{ role: "system", content: "1234" }, { role: "user", content: "12345678" }] };
 * assert.equal(promptTokens(body), 1 + 4 + 2 + 4 + 3);
 * const schema = { type: "json_schema", json_schema: { name: "r", schema: { type: "object" } } };
 * assert.equal(promptTokens({ ...body, response_format: schema }), 14 + textTokens(JSON.stringify(schema.json_schema)));
 * ```
 */
export function promptTokens(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let tokens = TOKENS_PER_REPLY;
  const format = body.response_format as { type?: string; json_schema?: unknown } | undefined;
  if (format?.type === "json_schema") tokens += textTokens(JSON.stringify(format.json_schema));
  if (Array.isArray(body.tools)) tokens += textTokens(JSON.stringify(body.tools));
  for (const m of messages) {
    const content = (m as { content?: unknown })?.content;
    tokens += TOKENS_PER_MESSAGE + textTokens(typeof content === "string" ? content : "");
  }
  return tokens;
}
