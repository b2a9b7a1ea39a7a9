/** LLM writer: a model turns one source unit into memory-record text (once per unit, cached). */
import { z } from "zod";
import type { ModelClient } from "../../../models/model_client.ts";
import { parseJsonReply } from "../../../models/parse_json_reply.ts";
import type { Writer } from "../writer.ts";

/** The writer's instructions (part of the cache key). */
export const WRITER_PROMPT =
  "You write an assistant's long-term memory. Rewrite the conversation unit below as one " +
  "concise memory record in the third person. Keep every fact, name, number and date exactly; " +
  'add nothing. Reply as JSON: {"record": "the record text"}.';

/** The structured-output format of a record. */
export const WRITER_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "memory_record",
    strict: true,
    schema: {
      type: "object",
      properties: { record: { type: "string" } },
      required: ["record"],
      additionalProperties: false,
    },
  },
} as const;

const RecordReply = z.object({ record: z.string().trim().min(1) });

/**
 * A writer backed by a model, id `llm:MODEL`. The record is read from the reply with the
 * tolerant JSON reader (reasoning dropped, fences and prose allowed), so neither a reasoning
 * model's thinking nor a chatty preamble reaches memory; a reply without a non-empty `record` is
 * an error and is not cached. The record keeps the `[channel]` tag the verbatim writer uses, so
 * a reader can still tell a tool result from a user statement.
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
      const label = `writer llm:${client.endpoint.id}: record for unit ${unit.id}`;
      const parse = (text: string) => parseJsonReply({ text, schema: RecordReply, label }).record;
      const reply = await client.chat({
        messages: [
          { role: "system", content: WRITER_PROMPT },
          { role: "user", content: `(${unit.channel}) ${unit.text}` },
        ],
        responseFormat: WRITER_FORMAT,
        validate: (r) => void parse(r.content),
      });
      return `[${unit.channel}] ${parse(reply.content)}`;
    },
  };
}
