/** Store the successful completions of a Batch API output file in the response cache. */
import type { ResponseCache } from "../../models/response_cache.ts";
import { parseBatchOutput } from "./batch_output_line.ts";

/** What an import did. */
export interface BatchImport {
  /** Completions written to the cache (a key already there keeps its first answer). */
  stored: number;
  /** Failed requests, not cached: a rerun of export asks for them again. */
  skipped: { line: number; customId: string; reason: string }[];
}

/**
 * Parse the whole file first (a malformed line throws before anything is stored), then store
 * each successful body under its `custom_id`, which is the cache key the export wrote, so a
 * sweep with the same options finds it. The cached value is what a live call stores: content
 * and token counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResponseCache } from "../../models/response_cache.ts";
 * import { importBatchResults } from "./import_batch_results.ts";
 * const cache = new ResponseCache({ path: ":memory:" });
 * const line = (id: string, status: number) => JSON.stringify({ custom_id: id, response: { status_code: status, body: { choices: [{ message: { content: "hi" } }] } }, error: null });
 * const result = importBatchResults({ text: `${line("a", 200)}\n${line("b", 500)}\n`, cache });
 * assert.equal(result.stored, 1);
 * assert.deepEqual(result.skipped, [{ line: 2, customId: "b", reason: "HTTP 500" }]);
 * assert.deepEqual(cache.get("a"), { content: "hi", reasoning: null, stopReason: null, promptTokens: null, completionTokens: null });
 * cache.close();
 * ```
 */
export function importBatchResults(options: {
  /** Text of a Batch API output file. */
  text: string;
  /** The response cache the sweep reads (`--cache`). */
  cache: ResponseCache;
}): BatchImport {
  const outcomes = parseBatchOutput({ text: options.text });
  const result: BatchImport = { stored: 0, skipped: [] };
  for (const o of outcomes) {
    if (!o.ok) {
      result.skipped.push({ line: o.line, customId: o.customId, reason: o.reason });
      continue;
    }
    options.cache.set(o.customId, {
      content: o.content,
      reasoning: o.reasoning,
      stopReason: o.stopReason,
      promptTokens: o.promptTokens,
      completionTokens: o.completionTokens,
    });
    result.stored++;
  }
  return result;
}
