/** LLM writer: a model turns one source unit into memory-record text (once per unit, cached). */
import type { ModelClient } from "../../../models/model_client.ts";
import type { Writer } from "../writer.ts";

/** The writer's instructions (part of the cache key). */
export const WRITER_PROMPT =
  "You write an assistant's long-term memory. Rewrite the conversation unit below as one " +
  "concise memory record in the third person. Keep every fact, name, number and date exactly; " +
  "add nothing. Reply with the record text only.";

/**
 * A writer backed by a model, id `llm:MODEL`. The record keeps the `[channel]` tag the verbatim
 * writer uses, so a reader can still tell a tool result from a user statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmWriter } from "./llm.ts";
 * import { ModelClient } from "../../../models/model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} } });
 * assert.equal(llmWriter({ client }).id, "llm:m");
 * ```
 */
export function llmWriter(options: {
  /** The writing model's client. */
  client: ModelClient;
}): Writer {
  const { client } = options;
  return {
    id: `llm:${client.endpoint.id}`,
    async write(unit) {
      const reply = await client.chat({
        messages: [
          { role: "system", content: WRITER_PROMPT },
          { role: "user", content: `(${unit.channel}) ${unit.text}` },
        ],
      });
      const text = reply.content.trim();
      if (text === "") {
        throw new TypeError(`writer llm:${client.endpoint.id}: empty record for unit ${unit.id}`);
      }
      return `[${unit.channel}] ${text}`;
    },
  };
}
