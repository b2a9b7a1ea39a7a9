/** LLM ranker: a model orders a trace's units by usefulness to remember (once per trace, cached). */
import { z } from "zod";
import type { ModelClient } from "../../../models/model_client.ts";
import { parseJsonReply } from "../../../models/parse_json_reply.ts";
import type { Ranker } from "../ranker.ts";

/** The structured-output format of a ranking. */
export const RANKING_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "ranking",
    strict: true,
    schema: {
      type: "object",
      properties: { ranking: { type: "array", items: { type: "string" } } },
      required: ["ranking"],
      additionalProperties: false,
    },
  },
} as const;

const RankingReply = z.object({ ranking: z.array(z.string()) });

/** The ranker's instructions (part of the cache key). */
export const RANKER_PROMPT =
  "You manage an assistant's long-term memory. Below are the units of one conversation, each " +
  "with its id. Order ALL unit ids from most to least useful to remember for future decisions. " +
  'Reply as JSON: {"ranking": ["id", ...]}.';

/**
 * A ranker backed by a model. Its id is `llm:MODEL`, so `llm:self` and `llm:MODEL` of the same
 * model share one ranking per trace. The reply is read tolerantly (reasoning dropped, code
 * fences and prose around the JSON allowed); one with no `{"ranking": [...]}` in it is an error
 * and is not cached, so a rerun asks again. A ranking that omits or repeats ids is repaired (unknown and repeated ids dropped, missing
 * ones appended in chronological order) because the admission rule needs a permutation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmRanker } from "./llm.ts";
 * import { ModelClient } from "../../../models/model_client.ts";
 * const client = new ModelClient({ endpoint: { id: "m", model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", seed: true, extra: {} } });
 * assert.equal(llmRanker({ client }).id, "llm:m");
 * ```
 */
export function llmRanker(options: {
  /** The ranking model's client. */
  client: ModelClient;
}): Ranker {
  const { client } = options;
  return {
    id: `llm:${client.endpoint.id}`,
    async rank(trace, { seed }) {
      const units = trace.units.map((u) => `[id=${u.id}] (${u.channel}) ${u.text}`).join("\n");
      const label = `ranker llm:${client.endpoint.id}: reply for ${trace.id}`;
      const parse = (text: string) => parseJsonReply({ text, schema: RankingReply, label });
      const reply = await client.chat({
        messages: [
          { role: "system", content: RANKER_PROMPT },
          { role: "user", content: units },
        ],
        responseFormat: RANKING_FORMAT,
        seed,
        validate: (r) => void parse(r.content),
      });
      const parsed = parse(reply.content);
      const known = new Set(trace.units.map((u) => u.id));
      const seen = new Set<string>();
      const ids = parsed.ranking.filter((id) => known.has(id) && !seen.has(id) && seen.add(id));
      return [...ids, ...trace.units.map((u) => u.id).filter((id) => !seen.has(id))];
    },
  };
}
