/** One JSON-object chat call through the kit's model client, for the ported systems. */
import type { ModelClient } from "../models/model_client.ts";

/**
 * Ask for a JSON object and parse it; the text between the first `{` and the last `}` is read,
 * so code fences and preambles are tolerated. A reply that is not JSON throws a TypeError naming
 * the caller.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chatJson } from "./chat_json.ts";
 * const client = { chat: () => Promise.resolve({ content: 'Sure: {"a": 1} Done.' }) };
 * assert.deepEqual(await chatJson({ client: client as never, prompt: "p", label: "t" }), { a: 1 });
 * ```
 */
export async function chatJson(options: {
  /** The model client. */
  client: ModelClient;
  /** The user prompt. */
  prompt: string;
  /** System prompt; default none. */
  system?: string;
  /** Who is asking, for error messages. */
  label: string;
}): Promise<Record<string, unknown>> {
  const res = await options.client.chat({
    messages: [
      ...(options.system ? [{ role: "system" as const, content: options.system }] : []),
      { role: "user", content: options.prompt },
    ],
    responseFormat: { type: "json_object" },
  });
  const text = res.content;
  try {
    return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
  } catch {
    throw new TypeError(
      `${options.label}: the model's reply is not a JSON object, got ${
        JSON.stringify(text.slice(0, 120))
      }`,
    );
  }
}
